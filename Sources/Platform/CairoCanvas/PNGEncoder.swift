import CCairo
import CDeflate

/// Writes Cairo ARGB32 pixels (premultiplied, native-endian `0xAARRGGBB`) as a PNG: 8-bit RGBA,
/// or RGB when every pixel is opaque (what Cairo's own writer chooses too), one IDAT chunk,
/// no ancillary chunks.
///
/// Why not `cairo_surface_write_to_png`: it goes through libpng at zlib's default level with
/// libpng's adaptive per-row filters: most of a small-widget render at 2× on the 2-core VM.
/// Widgets are mostly flat colour, which deflate already finds as long matches without a filter:
/// libdeflate at level 1 with filter "none" (or "up" on gradient rows) is several times faster,
/// for files ~1.2–2.3× the size (figures in docs/rendering.md, "Speed"). The pixels
/// decoded from the file are exactly the surface's: colour is un-premultiplied as
/// `(c × 255 + a/2) / a`, which a reader's rounded premultiply (`c × a / 255` to the nearest, as
/// Cairo's PNG reader does) maps back to exactly `c`; fully transparent pixels are written as
/// 0,0,0,0 (PNGEncoderTests checks both).
public final class PNGEncoder {
    /// Compression effort: `fast` for every render, `small` for images kept in the repository
    /// (goldens, the gallery).
    public enum Compression: Sendable {
        case fast, small
        var level: Int32 { self == .fast ? 1 : 9 }
    }

    private let compressor: OpaquePointer
    /// The filtered scanlines and the compressed stream, kept between images so a render
    /// allocates neither (they grow to the largest image seen).
    private var scanlines: [UInt8] = []
    private var compressed: [UInt8] = []

    public init(compression: Compression = .fast) throws {
        guard let compressor = libdeflate_alloc_compressor(compression.level) else {
            throw RenderError("PNG encode failed: libdeflate_alloc_compressor returned nil (out of memory)")
        }
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// One image with a temporary encoder.
    public static func encode(
        argb pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
        ignoringAlpha: Bool = false, compression: Compression = .fast
    ) throws -> [UInt8] {
        try PNGEncoder(compression: compression).encode(
            argb: pixels, width: width, height: height, rowPixels: rowPixels,
            ignoringAlpha: ignoringAlpha)
    }

    /// Encodes `height` rows of `width` pixels, each row `rowPixels` pixels apart in `pixels`.
    /// Not thread-safe: one encoder per thread (each renderer owns one).
    ///
    /// - Parameters:
    ///   - width, height: 1…32,767 pixels each (far beyond any widget at 3×).
    ///   - rowPixels: ≥ `width` (Cairo's stride in bytes / 4).
    ///   - ignoringAlpha: the top byte is undefined and every pixel opaque (Cairo's RGB24).
    public func encode(
        argb pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
        ignoringAlpha: Bool = false
    ) throws -> [UInt8] {
        guard (1...32_767).contains(width), (1...32_767).contains(height), rowPixels >= width else {
            throw RenderError("PNG encode failed: bad image size \(width)×\(height) (row of \(rowPixels) pixels)")
        }
        var opaque = true
        for y in 0..<height where opaque && !ignoringAlpha {
            let row = pixels + y * rowPixels
            for x in 0..<width where row[x] < 0xFF00_0000 {
                opaque = false
                break
            }
        }
        let channels = opaque ? 3 : 4
        let rowBytes = 1 + width * channels
        let rawCount = rowBytes * height
        if scanlines.count < rawCount { scanlines = [UInt8](repeating: 0, count: rawCount) }
        scanlines.withUnsafeMutableBytes { bytes in
            let out = bytes.baseAddress!
            for y in 0..<height {
                let row = pixels + y * rowPixels
                var o = y * rowBytes
                out.storeBytes(of: 0, toByteOffset: o, as: UInt8.self)  // filter "none", then straight RGB(A)
                o += 1
                if opaque {
                    for x in 0..<width {
                        let p = row[x]
                        out.storeBytes(of: UInt8(truncatingIfNeeded: p >> 16), toByteOffset: o, as: UInt8.self)
                        out.storeBytes(of: UInt8(truncatingIfNeeded: p >> 8), toByteOffset: o + 1, as: UInt8.self)
                        out.storeBytes(of: UInt8(truncatingIfNeeded: p), toByteOffset: o + 2, as: UInt8.self)
                        o += 3
                    }
                    continue
                }
                for x in 0..<width {
                    let p = row[x]
                    let a = p >> 24
                    var straight = p
                    if a == 0 {
                        straight = 0
                    } else if a != 255 {
                        let r = min(255, (((p >> 16) & 0xFF) * 255 + a / 2) / a)
                        let g = min(255, (((p >> 8) & 0xFF) * 255 + a / 2) / a)
                        let b = min(255, ((p & 0xFF) * 255 + a / 2) / a)
                        straight = a << 24 | r << 16 | g << 8 | b
                    }
                    // Bytes R, G, B, A in memory: swap Cairo's R and B within the word.
                    let rgba = (straight & 0xFF00_FF00) | ((straight >> 16) & 0xFF) | ((straight & 0xFF) << 16)
                    out.storeBytes(of: rgba.littleEndian, toByteOffset: o, as: UInt32.self)
                    o += 4
                }
            }
        }
        scanlines.withUnsafeMutableBufferPointer { out in
            // Filter "up" (each byte minus the one above) where it leaves more equal neighbours
            // than no filter: gradients, which deflate at level 1 otherwise stores almost as
            // literals (a medium classic widget: 74 kB unfiltered, 51 kB so). Bottom row first,
            // so the row above is still unfiltered when a row is filtered.
            for y in stride(from: height - 1, to: 0, by: -1) {
                let row = pixels + y * rowPixels, above = row - rowPixels
                var sameAcross = 0, sameStepDown = 0
                for x in 1..<max(1, width) {
                    if row[x] == row[x - 1] { sameAcross &+= 1 }
                    if row[x] &- above[x] == row[x - 1] &- above[x - 1] { sameStepDown &+= 1 }
                }
                guard sameStepDown > sameAcross else { continue }
                let start = y * rowBytes
                out[start] = 2
                for i in (start + 1)..<(start + rowBytes) { out[i] = out[i] &- out[i - rowBytes] }
            }
        }
        let bound = libdeflate_zlib_compress_bound(compressor, rawCount)
        if compressed.count < bound { compressed = [UInt8](repeating: 0, count: bound) }
        let compressedCount = scanlines.withUnsafeBufferPointer { input in
            compressed.withUnsafeMutableBufferPointer { output in
                libdeflate_zlib_compress(compressor, input.baseAddress!, rawCount, output.baseAddress!, bound)
            }
        }
        guard compressedCount > 0, compressedCount <= UInt32.max else {
            throw RenderError("PNG encode failed: libdeflate_zlib_compress wrote nothing")
        }

        // signature 8, IHDR 25, IDAT 12 + data, IEND 12.
        var png: [UInt8] = []
        png.reserveCapacity(8 + 25 + 12 + compressedCount + 12)
        func put32(_ value: UInt32) {
            png.append(UInt8(value >> 24))
            png.append(UInt8((value >> 16) & 0xFF))
            png.append(UInt8((value >> 8) & 0xFF))
            png.append(UInt8(value & 0xFF))
        }
        /// A chunk: length, type, data, CRC-32 of type and data.
        func chunk(_ type: StaticString, _ data: UnsafeBufferPointer<UInt8>) {
            put32(UInt32(data.count))
            let start = png.count
            png.append(contentsOf: UnsafeBufferPointer(start: type.utf8Start, count: 4))
            png.append(contentsOf: data)
            put32(
                png.withUnsafeBufferPointer { UInt32(libdeflate_crc32(0, $0.baseAddress! + start, $0.count - start)) })
        }
        png.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let w = UInt32(width), h = UInt32(height)
        // Width, height, depth 8, RGB (2) or RGBA (6), deflate, adaptive filtering, no interlace.
        let header: [UInt8] = [
            UInt8(w >> 24), UInt8((w >> 16) & 0xFF), UInt8((w >> 8) & 0xFF), UInt8(w & 0xFF),
            UInt8(h >> 24), UInt8((h >> 16) & 0xFF), UInt8((h >> 8) & 0xFF), UInt8(h & 0xFF),
            8, opaque ? 2 : 6, 0, 0, 0,
        ]
        header.withUnsafeBufferPointer { chunk("IHDR", $0) }
        compressed.withUnsafeBufferPointer { chunk("IDAT", UnsafeBufferPointer(rebasing: $0[0..<compressedCount])) }
        chunk("IEND", UnsafeBufferPointer(start: nil, count: 0))
        return png
    }

    /// The pixels of a Cairo ARGB32 or RGB24 image surface (flushed first) as PNG.
    public func encode(_ surface: CairoSurface) throws -> [UInt8] {
        cairo_surface_flush(surface.pointer)
        let format = cairo_image_surface_get_format(surface.pointer)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
            let data = cairo_image_surface_get_data(surface.pointer)
        else {
            throw RenderError("PNG encode failed: not an ARGB32 or RGB24 image surface")
        }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        return try data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * surface.height) {
            try encode(
                argb: $0, width: surface.width, height: surface.height, rowPixels: stride / 4,
                ignoringAlpha: format == CAIRO_FORMAT_RGB24)
        }
    }
}
