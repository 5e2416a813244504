import CCairo
import CZlib

/// Writes Cairo ARGB32 pixels (premultiplied, native-endian `0xAARRGGBB`) as a PNG: 8-bit RGBA,
/// or RGB when every pixel is opaque (what Cairo's own writer chooses too), one IDAT chunk,
/// no ancillary chunks.
///
/// Why not `cairo_surface_write_to_png`: it goes through libpng at zlib's default level with
/// libpng's adaptive per-row filters, ~7 ms of a ~10 ms small-widget render at 2× on the 2-core
/// VM. Widgets are mostly flat colour, which deflate already finds as long runs without a filter:
/// filter "none" at level 1 is ~6× faster for ~20 % more bytes, and at level 9 is smaller than
/// Cairo's output (figures in docs/rendering.md, "Speed"). The pixels decoded from the file are
/// exactly the surface's: colour is un-premultiplied as `(c × 255 + a/2) / a`, which a reader's
/// rounded premultiply (`c × a / 255` to the nearest, as Cairo's PNG reader does) maps back to
/// exactly `c`; fully transparent pixels are written as 0,0,0,0 (PNGEncoderTests checks both).
public enum PNGEncoder {
    /// zlib's effort: `fast` for every render, `small` for images kept in the repository
    /// (goldens, the gallery).
    public enum Compression: Sendable {
        case fast, small
        var zlibLevel: Int32 { self == .fast ? 1 : 9 }
    }

    /// Encodes `height` rows of `width` pixels, each row `rowPixels` pixels apart in `pixels`.
    ///
    /// - Parameters:
    ///   - width, height: 1…32,767 pixels each (far beyond any widget at 3×).
    ///   - rowPixels: ≥ `width` (Cairo's stride in bytes / 4).
    ///   - ignoringAlpha: the top byte is undefined and every pixel opaque (Cairo's RGB24).
    public static func encode(argb pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                              ignoringAlpha: Bool = false, compression: Compression = .fast) throws -> [UInt8] {
        guard (1...32_767).contains(width), (1...32_767).contains(height), rowPixels >= width else {
            throw RenderError("PNG encode failed: bad image size \(width)×\(height) (row of \(rowPixels) pixels)")
        }
        var opaque = true
        for y in 0..<height where opaque && !ignoringAlpha {
            let row = pixels + y * rowPixels
            for x in 0..<width where row[x] < 0xFF00_0000 { opaque = false; break }
        }
        let channels = opaque ? 3 : 4
        let rowBytes = 1 + width * channels
        let rawCount = rowBytes * height
        // The filtered scanlines deflate reads: filter byte 0 ("none"), then straight RGB(A).
        let raw = [UInt8](unsafeUninitializedCapacity: rawCount) { out, count in
            var o = 0
            for y in 0..<height {
                let row = pixels + y * rowPixels
                out[o] = 0; o += 1
                for x in 0..<width {
                    let p = ignoringAlpha ? row[x] | 0xFF00_0000 : row[x]
                    let a = p >> 24
                    var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    if a == 0 {
                        r = 0; g = 0; b = 0
                    } else if a != 255 {
                        r = min(255, (r * 255 + a / 2) / a)
                        g = min(255, (g * 255 + a / 2) / a)
                        b = min(255, (b * 255 + a / 2) / a)
                    }
                    out[o] = UInt8(truncatingIfNeeded: r)
                    out[o + 1] = UInt8(truncatingIfNeeded: g)
                    out[o + 2] = UInt8(truncatingIfNeeded: b)
                    if !opaque { out[o + 3] = UInt8(truncatingIfNeeded: a) }
                    o += channels
                }
            }
            count = rawCount
        }

        var stream = z_stream()
        let initStatus = deflateInit2_(&stream, compression.zlibLevel, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY,
                                       zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw RenderError("PNG encode failed: deflateInit2 returned \(initStatus)") }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(rawCount)))

        // signature 8, IHDR 25, IDAT header 8, data, IDAT CRC 4, IEND 12.
        let headerCount = 8 + 25 + 8
        var png = [UInt8](repeating: 0, count: headerCount + bound + 4 + 12)
        var fileLength = 0
        var deflateStatus: Int32 = Z_OK
        png.withUnsafeMutableBufferPointer { out in
            let base = out.baseAddress!
            var o = 0
            func put(_ bytes: [UInt8]) { for byte in bytes { base[o] = byte; o += 1 } }
            func put32(_ value: UInt32) { put([UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]) }
            func crc(from start: Int) -> UInt32 { UInt32(crc32(0, base + start, UInt32(o - start))) }

            put([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            put32(13)
            var start = o
            put(Array("IHDR".utf8))
            put32(UInt32(width)); put32(UInt32(height))
            put([8, opaque ? 2 : 6, 0, 0, 0])   // depth 8, RGB or RGBA, deflate, adaptive filtering, no interlace
            put32(crc(from: start))

            put32(0)   // IDAT length, filled in below
            start = o
            put(Array("IDAT".utf8))
            raw.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!)
                stream.avail_in = UInt32(rawCount)
                stream.next_out = base + o
                stream.avail_out = UInt32(bound)
                deflateStatus = deflate(&stream, Z_FINISH)
            }
            guard deflateStatus == Z_STREAM_END else { return }
            let compressed = Int(stream.total_out)
            o += compressed
            let lengthAt = start - 4
            base[lengthAt] = UInt8(compressed >> 24); base[lengthAt + 1] = UInt8((compressed >> 16) & 0xFF)
            base[lengthAt + 2] = UInt8((compressed >> 8) & 0xFF); base[lengthAt + 3] = UInt8(compressed & 0xFF)
            put32(crc(from: start))

            put32(0)
            start = o
            put(Array("IEND".utf8))
            put32(crc(from: start))
            fileLength = o
        }
        guard deflateStatus == Z_STREAM_END else { throw RenderError("PNG encode failed: deflate returned \(deflateStatus)") }
        png.removeLast(png.count - fileLength)
        return png
    }

    /// The pixels of a Cairo ARGB32 or RGB24 image surface (flushed first) as PNG.
    static func encode(_ surface: CairoSurface, compression: Compression = .fast) throws -> [UInt8] {
        cairo_surface_flush(surface.pointer)
        let format = cairo_image_surface_get_format(surface.pointer)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
              let data = cairo_image_surface_get_data(surface.pointer) else {
            throw RenderError("PNG encode failed: not an ARGB32 or RGB24 image surface")
        }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        return try data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * surface.height) {
            try encode(argb: $0, width: surface.width, height: surface.height, rowPixels: stride / 4,
                       ignoringAlpha: format == CAIRO_FORMAT_RGB24, compression: compression)
        }
    }
}
