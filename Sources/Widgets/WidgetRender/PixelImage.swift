import CCairo
import CairoCanvas
import Foundation

/// Premultiplied ARGB32 pixels (Cairo's layout), for golden comparisons and in-process consumers.
public struct PixelImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var argb: [UInt32]

    public init(width: Int, height: Int, argb: [UInt32]) {
        self.width = width
        self.height = height
        self.argb = argb
    }

    /// Decodes a PNG (bounded like design images).
    public init(png: [UInt8], name: String = "PNG") throws {
        let image = try DesignImages.decode(Data(png), name: name)
        let s = image.surface.pointer
        cairo_surface_flush(s)
        let w = image.pixelWidth, h = image.pixelHeight
        let stride = Int(cairo_image_surface_get_stride(s)) / 4
        let opaque = cairo_image_surface_get_format(s) == CAIRO_FORMAT_RGB24
        let data = cairo_image_surface_get_data(s)!.withMemoryRebound(to: UInt32.self, capacity: stride * h) { $0 }
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { out[y * w + x] = opaque ? data[y * stride + x] | 0xFF00_0000 : data[y * stride + x] }
        }
        self.init(width: w, height: h, argb: out)
    }

    /// PNG bytes, compressed hard (`compression: .small`): these are the goldens, the gallery and
    /// the failure images.
    public func png(compression: PNGEncoder.Compression = .small) throws -> [UInt8] {
        let surface = try CairoSurface(
            owning: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            call: "cairo_image_surface_create")
        cairo_surface_flush(surface.pointer)
        let stride = Int(cairo_image_surface_get_stride(surface.pointer)) / 4
        let data = cairo_image_surface_get_data(surface.pointer)!.withMemoryRebound(
            to: UInt32.self, capacity: stride * height
        ) { $0 }
        for y in 0..<height { for x in 0..<width { data[y * stride + x] = argb[y * width + x] } }
        cairo_surface_mark_dirty(surface.pointer)
        return try WidgetRenderer.writePNG(surface, compression: compression)
    }

    /// How far `other` is from this image: the mean absolute channel difference (0…255) and the
    /// fraction of pixels where any channel differs by more than `threshold`.
    public func difference(_ other: PixelImage, threshold: UInt32 = 24) -> (
        mean: Double, fraction: Double, diff: PixelImage
    )? {
        guard width == other.width, height == other.height else { return nil }
        var total = 0.0, differing = 0
        var diff = [UInt32](repeating: 0, count: argb.count)
        for i in 0..<argb.count {
            let a = argb[i], b = other.argb[i]
            var worst: UInt32 = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                let ca = (a >> UInt32(shift)) & 0xFF, cb = (b >> UInt32(shift)) & 0xFF
                let d = ca > cb ? ca - cb : cb - ca
                total += Double(d)
                worst = max(worst, d)
            }
            if worst > threshold {
                differing += 1
                diff[i] = 0xFFFF_0000  // red where they differ
            } else {
                // The expected image, faded, elsewhere.
                let g = (((a >> 8) & 0xFF) + ((a >> 16) & 0xFF) + (a & 0xFF)) / 3 / 3 + 40
                diff[i] = 0xFF00_0000 | g << 16 | g << 8 | g
            }
        }
        return (
            total / Double(argb.count * 4), Double(differing) / Double(argb.count),
            PixelImage(width: width, height: height, argb: diff)
        )
    }
}
