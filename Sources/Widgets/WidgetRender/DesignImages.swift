import CCairo
import CJPEGSupport
import CairoCanvas
import Foundation

/// A decoded design image, ready to paint (Cairo ARGB32).
public final class DecodedImage: @unchecked Sendable {
    let surface: CairoSurface
    public var pixelWidth: Int { surface.width }
    public var pixelHeight: Int { surface.height }
    /// Set when the file decoded only in part (a truncated or damaged JPEG: the rest is grey).
    public let damage: String?
    init(surface: CairoSurface, damage: String? = nil) {
        self.surface = surface
        self.damage = damage
    }
}

/// Decodes design images (PNG and JPEG) of the store's `images/` folder (read by WidgetInputs'
/// `DesignImages.load(fileName:in:)`): untrusted input.
///
/// Bounds: files up to `maximumFileBytes`; the pixel count is read from the header and checked
/// against `maximumPixels` *before* anything is decoded. PNG goes through Cairo's own reader; JPEG
/// through libjpeg (libjpeg-turbo on Debian), chosen over gdk-pixbuf because it is one small
/// library that decodes one format (gdk-pixbuf would load any of its format modules for an
/// untrusted file), exposes the header before decoding, and is already a Cairo-side dependency
/// of nothing else we would have to add.
public enum DesignImages {
    public static let maximumFileBytes = 32 << 20
    /// 24 megapixels: more than any phone photo a widget needs, ~96 MB decoded. What the store
    /// holds; a bigger picture is scaled down to it on import.
    public static let maximumPixels = 24_000_000
    /// What a picture being imported may claim in its header, checked before anything is decoded
    /// (a small file can claim billions of pixels): today's phones take 48–50 MP photos.
    public static let maximumImportPixels = 64_000_000

    public enum Failure: Error, CustomStringConvertible {
        case invalidName(String)
        case missing(String)
        case unreadable(String, String)
        case tooLarge(String, String)
        case unsupported(String)
        case corrupt(String, String)

        public var description: String {
            switch self {
            case .invalidName(let n): "image '\(n)': must be a bare file name in the store's images/ folder"
            case .missing(let p): "image \(p): file not found"
            case .unreadable(let p, let why): "image \(p): cannot be read (\(why))"
            case .tooLarge(let p, let why): "image \(p): too large (\(why))"
            case .unsupported(let p): "image \(p): not a PNG or JPEG file"
            case .corrupt(let p, let why): "image \(p): corrupt (\(why))"
            }
        }
    }

    public static func decode(_ data: Data, name: String) throws -> DecodedImage {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try decodePNG(bytes, name: name)
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try decodeJPEG(bytes, name: name)
        }
        throw Failure.unsupported(name)
    }

    static func checkPixels(_ width: UInt32, _ height: UInt32, name: String, limit: Int = maximumPixels) throws {
        guard width > 0, height > 0 else { throw Failure.corrupt(name, "zero size") }
        let pixels = UInt64(width) * UInt64(height)
        guard pixels <= UInt64(limit), width <= 32_767, height <= 32_767 else {
            throw Failure.tooLarge(name, "\(width)×\(height) pixels; at most \(limit) pixels and 32767 on a side")
        }
    }

    static func decodePNG(_ bytes: [UInt8], name: String, limit: Int = maximumPixels) throws -> DecodedImage {
        // IHDR is always the first chunk: width and height are big-endian at bytes 16…23.
        guard bytes.count >= 33, bytes[12...15].elementsEqual(Array("IHDR".utf8)) else {
            throw Failure.corrupt(name, "no IHDR header")
        }
        func be32(_ i: Int) -> UInt32 { bytes[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        try checkPixels(be32(16), be32(20), name: name, limit: limit)
        final class Reader {
            var bytes: [UInt8]
            var offset = 0
            init(_ b: [UInt8]) { bytes = b }
        }
        let reader = Reader(bytes)
        let surface = withExtendedLifetime(reader) { () -> OpaquePointer in
            cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    let reader = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                    let n = Int(length)
                    guard reader.offset + n <= reader.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
                    reader.bytes.withUnsafeBufferPointer { src in
                        data.update(from: src.baseAddress! + reader.offset, count: n)
                    }
                    reader.offset += n
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(reader).toOpaque())!
        }
        do {
            return DecodedImage(surface: try CairoSurface(owning: surface, call: "PNG decode"))
        } catch {
            throw Failure.corrupt(name, "\(error)")
        }
    }

    static func decodeJPEG(_ bytes: [UInt8], name: String) throws -> DecodedImage {
        let (width, height) = try jpegSize(bytes, name: name)
        try checkPixels(width, height, name: name)
        let (surface, damage) = try jpegSurface(width: width, height: height, name: name) { pixels, stride, message in
            bytes.withUnsafeBufferPointer {
                ww_jpeg_decode_argb32($0.baseAddress, $0.count, pixels, stride, width, height, &message, message.count)
            }
        }
        return DecodedImage(surface: surface, damage: damage)
    }

    /// A JPEG's size in pixels, from its header.
    static func jpegSize(_ bytes: [UInt8], name: String) throws -> (width: UInt32, height: UInt32) {
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let headerOK = bytes.withUnsafeBufferPointer {
            ww_jpeg_dimensions($0.baseAddress, $0.count, &width, &height, &message, message.count)
        }
        guard headerOK == 0 else { throw Failure.corrupt(name, String(cString: message)) }
        return (width, height)
    }

    /// A new RGB24 surface `width`×`height` pixels that `decode` fills through libjpeg (given its
    /// pixels, their stride in bytes and room for libjpeg's message), and what to say when libjpeg
    /// read past damaged data (it then returns more than 0 and leaves the rest grey).
    static func jpegSurface(
        width: UInt32, height: UInt32, name: String,
        decode: (_ pixels: UnsafeMutablePointer<UInt8>?, _ stride: Int, _ message: inout [CChar]) -> Int32
    ) throws -> (surface: CairoSurface, damage: String?) {
        let surface = try CairoSurface(
            owning: cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
            call: "cairo_image_surface_create")
        cairo_surface_flush(surface.pointer)
        var message = [CChar](repeating: 0, count: 256)
        let result = decode(
            cairo_image_surface_get_data(surface.pointer), Int(cairo_image_surface_get_stride(surface.pointer)),
            &message)
        guard result >= 0 else { throw Failure.corrupt(name, String(cString: message)) }
        cairo_surface_mark_dirty(surface.pointer)
        let damage = "damaged JPEG data (libjpeg: \(String(cString: message))); the rest is grey"
        return (surface, result > 0 ? damage : nil)
    }
}

extension DesignImages {
    /// Encodes packed RGB as JPEG (test fixtures, the gallery's sample photo).
    public static func encodeJPEG(rgb: [UInt8], width: Int, height: Int, quality: Int = 88) -> [UInt8]? {
        guard rgb.count == width * height * 3 else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = rgb.withUnsafeBufferPointer {
            ww_jpeg_encode_rgb($0.baseAddress, UInt32(width), UInt32(height), Int32(quality), &out, &length)
        }
        guard status == 0, let out else { return nil }
        defer { ww_jpeg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}

extension DecodedImage {
    /// The image as PNG (tests, previews).
    public func pngBytes() throws -> [UInt8] { try WidgetRenderer.writePNG(surface) }
}

// MARK: - Import

extension DesignImages {
    /// A picture ready to copy into the store: the bytes given, or a scaled-down copy in the same
    /// format when the original has more than `maximumPixels`.
    public struct ImportedPicture {
        public var bytes: Data
        public var pixelWidth: Int
        public var pixelHeight: Int
        /// The original size when the picture was scaled down.
        public var scaledFrom: (width: Int, height: Int)?
        /// As `DecodedImage.damage`.
        public var damage: String?
    }

    /// Checks a picture being imported and scales it down (aspect kept) to at most
    /// `maximumPixels` when it has more, up to `maximumImportPixels` (checked from the header,
    /// before decoding). A JPEG is scaled while it is decoded (libjpeg's DCT scaling, so a 48 MP
    /// photo is never held whole) and written again as JPEG (quality 90); a PNG is decoded whole,
    /// scaled with Cairo's GOOD filter and written again as PNG.
    public static func prepareForImport(_ data: Data, name: String) throws -> ImportedPicture {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let full = try decodePNG(bytes, name: name, limit: maximumImportPixels)
            let (w, h) = (full.pixelWidth, full.pixelHeight)
            guard w * h > maximumPixels else { return ImportedPicture(bytes: data, pixelWidth: w, pixelHeight: h) }
            // A photo saved as PNG compresses poorly: shrink further if the copy would pass the
            // file size limit.
            var budget = Double(maximumPixels)
            for _ in 0..<4 {
                let f = (budget / Double(w * h)).squareRoot()
                let tw = max(1, Int(Double(w) * f)), th = max(1, Int(Double(h) * f))
                let scaled = try scale(full.surface, toWidth: tw, height: th)
                let png = try WidgetRenderer.writePNG(scaled)
                if png.count <= maximumFileBytes {
                    return ImportedPicture(bytes: Data(png), pixelWidth: tw, pixelHeight: th, scaledFrom: (w, h))
                }
                budget /= 2
            }
            throw Failure.tooLarge(
                name,
                """
                \(w)×\(h) pixels; even scaled down to \(Int(budget * 2)) pixels the PNG is over \
                \(maximumFileBytes >> 20) MB (save it as JPEG)
                """
            )
        }
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else { throw Failure.unsupported(name) }
        let (width, height) = try jpegSize(bytes, name: name)
        try checkPixels(width, height, name: name, limit: maximumImportPixels)
        guard Int(width) * Int(height) > maximumPixels else {
            let image = try decodeJPEG(bytes, name: name)
            return ImportedPicture(
                bytes: data, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, damage: image.damage)
        }
        // The largest eighths scale (7/8 … 1/8) that fits.
        var eighths = 7, tw: UInt32 = 0, th: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        while eighths >= 1 {
            guard
                bytes.withUnsafeBufferPointer({
                    ww_jpeg_output_size($0.baseAddress, $0.count, Int32(eighths), &tw, &th, &message, message.count)
                }) == 0
            else {
                throw Failure.corrupt(name, String(cString: message))
            }
            if Int(tw) * Int(th) <= maximumPixels { break }
            eighths -= 1
        }
        let (surface, damage) = try jpegSurface(width: tw, height: th, name: name) { pixels, stride, message in
            bytes.withUnsafeBufferPointer {
                ww_jpeg_decode_argb32_scaled(
                    $0.baseAddress, $0.count, Int32(eighths), pixels, stride, tw, th, &message, message.count)
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        let pixels = cairo_image_surface_get_data(surface.pointer)
        guard ww_jpeg_encode_argb32(pixels, stride, tw, th, 90, &out, &length) == 0, let out else {
            throw Failure.corrupt(name, "could not encode the scaled-down copy")
        }
        defer { ww_jpeg_free(out) }
        return ImportedPicture(
            bytes: Data(UnsafeBufferPointer(start: out, count: length)), pixelWidth: Int(tw), pixelHeight: Int(th),
            scaledFrom: (Int(width), Int(height)), damage: damage)
    }

    /// `surface` drawn into a new one `width`×`height` pixels with Cairo's GOOD filter (it
    /// averages when shrinking).
    static func scale(_ surface: CairoSurface, toWidth width: Int, height: Int) throws -> CairoSurface {
        let format = cairo_image_surface_get_format(surface.pointer)
        let target = try CairoSurface(
            owning: cairo_image_surface_create(format, Int32(width), Int32(height)), call: "cairo_image_surface_create")
        let cr = try CairoContext(surface: target)
        cairo_scale(cr.pointer, Double(width) / Double(surface.width), Double(height) / Double(surface.height))
        cairo_set_source_surface(cr.pointer, surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr.pointer), CAIRO_FILTER_GOOD)
        cairo_set_operator(cr.pointer, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr.pointer)
        try cr.check("scaling")
        cairo_surface_flush(target.pointer)
        return target
    }
}
