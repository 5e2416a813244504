import CCairo
import CZlib

/// Writes Cairo ARGB32 pixels (premultiplied, native-endian `0xAARRGGBB`) as a PNG: 8-bit RGBA,
/// or RGB when every pixel is opaque (what Cairo's own writer chooses too), one IDAT chunk,
/// no ancillary chunks. Rows are converted and deflated one at a time, so an image costs no
/// image-sized scratch buffer.
///
/// Why not `cairo_surface_write_to_png`: it goes through libpng at zlib's default level with
/// libpng's adaptive per-row filters, ~7 ms of a ~10 ms small-widget render at 2× on the 2-core
/// VM. Widgets are mostly flat colour, which deflate already finds as long runs without a filter:
/// filter "none" at level 1 is ~6× faster for ~20 % more bytes, and at level 9 is smaller than
/// Cairo's output (figures in docs/rendering.md, "Speed"). The pixels decoded from the file are
/// exactly the surface's: colour is un-premultiplied as `(c × 255 + a/2) / a`, which a reader's
/// rounded premultiply (`c × a / 255` to the nearest, as Cairo's PNG reader does) maps back to
/// exactly `c`; fully transparent pixels are written as 0,0,0,0 (PNGEncoderTests checks both).
public final class PNGEncoder {
    /// zlib's effort: `fast` for every render, `small` for images kept in the repository
    /// (goldens, the gallery).
    public enum Compression: Sendable {
        case fast, small
        var zlibLevel: Int32 { self == .fast ? 1 : 9 }
    }

    /// The deflate state, kept across images (reset, not reallocated: ~400 kB that would otherwise
    /// be allocated and freed per render). Heap-allocated because zlib checks it never moves.
    private let stream: UnsafeMutablePointer<z_stream>
    /// One filtered scanline, and deflate's output before it is appended to the file.
    private var row: [UInt8] = []
    private var output = [UInt8](repeating: 0, count: 64 << 10)

    public init(compression: Compression = .fast) throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(stream, compression.zlibLevel, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY,
                                   zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw RenderError("PNG encode failed: deflateInit2 returned \(status)")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// One image with a temporary encoder.
    public static func encode(argb pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                              ignoringAlpha: Bool = false, compression: Compression = .fast) throws -> [UInt8] {
        try PNGEncoder(compression: compression).encode(argb: pixels, width: width, height: height, rowPixels: rowPixels,
                                                        ignoringAlpha: ignoringAlpha)
    }

    /// Encodes `height` rows of `width` pixels, each row `rowPixels` pixels apart in `pixels`.
    /// Not thread-safe: one encoder per thread (the renderer owns one).
    ///
    /// - Parameters:
    ///   - width, height: 1…32,767 pixels each (far beyond any widget at 3×).
    ///   - rowPixels: ≥ `width` (Cairo's stride in bytes / 4).
    ///   - ignoringAlpha: the top byte is undefined and every pixel opaque (Cairo's RGB24).
    public func encode(argb pixels: UnsafePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
                       ignoringAlpha: Bool = false) throws -> [UInt8] {
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
        if row.count < rowBytes { row = [UInt8](repeating: 0, count: rowBytes) }

        var png: [UInt8] = []
        png.reserveCapacity(64 << 10)
        func put32(_ value: UInt32) { png += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
        func putCRC(from start: Int) { put32(png.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress! + start, UInt32($0.count - start))) }) }

        png += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        put32(13)
        var start = png.count
        png += Array("IHDR".utf8)
        put32(UInt32(width)); put32(UInt32(height))
        png += [8, opaque ? 2 : 6, 0, 0, 0]   // depth 8, RGB or RGBA, deflate, adaptive filtering, no interlace
        putCRC(from: start)

        put32(0)   // the IDAT length, filled in when known
        start = png.count
        png += Array("IDAT".utf8)
        guard deflateReset(stream) == Z_OK else { throw RenderError("PNG encode failed: deflateReset") }
        for y in 0..<height {
            let source = pixels + y * rowPixels
            row.withUnsafeMutableBufferPointer { out in
                // Filter byte 0 ("none"), then straight RGB(A).
                out[0] = 0
                var o = 1
                for x in 0..<width {
                    let p = ignoringAlpha ? source[x] | 0xFF00_0000 : source[x]
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
            try deflateRow(count: rowBytes, flush: Z_NO_FLUSH, into: &png)
        }
        try deflateRow(count: 0, flush: Z_FINISH, into: &png)
        let length = UInt32(png.count - start - 4)
        png[start - 4] = UInt8(length >> 24); png[start - 3] = UInt8((length >> 16) & 0xFF)
        png[start - 2] = UInt8((length >> 8) & 0xFF); png[start - 1] = UInt8(length & 0xFF)
        putCRC(from: start)

        put32(0)
        start = png.count
        png += Array("IEND".utf8)
        putCRC(from: start)
        return png
    }

    /// Feeds the first `count` bytes of `row` to deflate (`Z_FINISH`: ends the stream) and appends
    /// what it writes to `png`.
    private func deflateRow(count: Int, flush: Int32, into png: inout [UInt8]) throws {
        let outputCount = output.count
        var status: Int32 = Z_OK
        row.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.pointee.next_in = input.baseAddress!
                stream.pointee.avail_in = UInt32(count)
                repeat {
                    stream.pointee.next_out = out.baseAddress!
                    stream.pointee.avail_out = UInt32(outputCount)
                    status = deflate(stream, flush)
                    png.append(contentsOf: UnsafeBufferPointer(start: out.baseAddress!, count: outputCount - Int(stream.pointee.avail_out)))
                } while status == Z_OK && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0 || flush == Z_FINISH)
            }
        }
        let expected = flush == Z_FINISH ? Z_STREAM_END : Z_OK
        // Z_BUF_ERROR: no progress possible, which after a drained row only means "nothing to do".
        guard status == expected || (flush != Z_FINISH && status == Z_BUF_ERROR) else {
            throw RenderError("PNG encode failed: deflate returned \(status)")
        }
    }

    /// The pixels of a Cairo ARGB32 or RGB24 image surface (flushed first) as PNG.
    func encode(_ surface: CairoSurface) throws -> [UInt8] {
        cairo_surface_flush(surface.pointer)
        let format = cairo_image_surface_get_format(surface.pointer)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
              let data = cairo_image_surface_get_data(surface.pointer) else {
            throw RenderError("PNG encode failed: not an ARGB32 or RGB24 image surface")
        }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        return try data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * surface.height) {
            try encode(argb: $0, width: surface.width, height: surface.height, rowPixels: stride / 4,
                       ignoringAlpha: format == CAIRO_FORMAT_RGB24)
        }
    }
}
