import CairoCanvas
import Foundation
import Testing
import WidgetDesign

@testable import WidgetRender

/// The renderer's own PNG writer: valid files (structure and CRCs checked here, pixels decoded by
/// Cairo's libpng reader), and exactly the pixels the surface held.
@Suite struct PNGEncoderTests {
    /// Widgets as PNG decode to exactly the pixels drawn (transparent corners, antialiased edges,
    /// a photo, lock-screen white on transparent, an opaque backdrop).
    @Test(arguments: [
        ("noise-machine", WidgetFamily.small, 2), ("classic", .medium, 2), ("poster", .small, 3),
        ("clock", .circular, 2), ("weather", .large, 1),
    ])
    func widgetRoundTripsExactly(_ template: String, _ family: WidgetFamily, _ scale: Int) throws {
        let renderer = WidgetRenderer()
        let design = template == "poster" ? Fixtures.posterWithPhoto() : Fixtures.design(template)
        let inputs = Fixtures.inputs(images: ["sunset.jpg": Fixtures.samplePhoto])
        let layout = renderer.layout(design: design, family: family, scale: scale, inputs: inputs)
        for backdrop in [nil, RGBA(hex: 0x2C3A55)] {
            let drawn = try renderer.pixels(layout, images: inputs.images, backdrop: backdrop)
            let png = try renderer.png(layout, images: inputs.images, backdrop: backdrop)
            let chunks = try Self.chunks(png)
            #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
            #expect(Self.colourType(chunks) == (backdrop == nil ? 6 : 2), "RGBA with transparency, RGB when opaque")
            let decoded = try PixelImage(png: png)
            #expect(decoded == drawn, "\(template) \(family) @\(scale)x backdrop \(backdrop == nil ? "none" : "set")")
        }
    }

    @Test func cornersAreTransparent() throws {
        let renderer = WidgetRenderer()
        let layout = renderer.layout(
            design: Fixtures.design("noise-machine"), family: .small, scale: 2, inputs: Fixtures.inputs())
        let image = try PixelImage(png: renderer.png(layout))
        #expect(image.width == 340 && image.height == 340)
        for (x, y) in [(0, 0), (339, 0), (0, 339), (339, 339), (2, 2)] {
            #expect(image.argb[y * image.width + x] == 0, "corner pixel (\(x), \(y))")
        }
        #expect(image.argb[170 * image.width + 170] >> 24 == 0xFF, "the middle is opaque")
    }

    /// Every valid premultiplied (alpha, colour) pair survives the trip through straight alpha:
    /// x is the colour (≤ alpha), y the alpha.
    @Test func everyPremultipliedValueRoundTrips() throws {
        var argb = [UInt32](repeating: 0, count: 256 * 256)
        for a in 0..<256 {
            for c in 0...a {
                argb[a * 256 + c] = UInt32(a) << 24 | UInt32(c) << 16 | UInt32(a - c) << 8 | UInt32(c / 2)
            }
        }
        let image = PixelImage(width: 256, height: 256, argb: argb)
        for compression in [PNGEncoder.Compression.fast, .small] {
            let png = try image.png(compression: compression)
            #expect(Self.colourType(try Self.chunks(png)) == 6)
            #expect(try PixelImage(png: png) == image)
        }
    }

    /// Rows that step by the same amount down the image (a gradient over texture) go through the
    /// "up" filter: each filtered row is then one repeated value and the file is tiny, where
    /// unfiltered rows of noise would barely compress. Decoding gives the pixels back exactly.
    @Test func gradientRowsUseTheUpFilter() throws {
        var state: UInt32 = 12345
        let texture = (0..<256).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return state >> 8
        }
        var argb = [UInt32](repeating: 0, count: 256 * 256)
        for y in 0..<256 {
            for x in 0..<256 {
                let t = texture[x], step = UInt32(y)
                let r = (t &+ step) & 0xFF, g = ((t >> 8) &+ 2 &* step) & 0xFF, b = ((t >> 16) &+ 3 &* step) & 0xFF
                argb[y * 256 + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        let image = PixelImage(width: 256, height: 256, argb: argb)
        let png = try image.png(compression: .fast)
        #expect(Self.colourType(try Self.chunks(png)) == 2)
        #expect(png.count < 4_000, "\(png.count) bytes: the rows were not filtered")
        #expect(try PixelImage(png: png) == image)
    }

    @Test func rowPaddingIsSkippedAndSizesAreChecked() throws {
        // 3 pixels wide in rows of 5: the two padding pixels must not appear.
        let rows: [UInt32] = [
            0xFF11_2233, 0xFF44_5566, 0x8040_2010, 0xDEAD_BEEF, 0xDEAD_BEEF,
            0x0000_0000, 0xFFFF_FFFF, 0xFF00_0000, 0xDEAD_BEEF, 0xDEAD_BEEF,
        ]
        let png = try rows.withUnsafeBufferPointer {
            try PNGEncoder.encode(argb: $0.baseAddress!, width: 3, height: 2, rowPixels: 5)
        }
        let decoded = try PixelImage(png: png)
        #expect(decoded.argb == [0xFF11_2233, 0xFF44_5566, 0x8040_2010, 0x0000_0000, 0xFFFF_FFFF, 0xFF00_0000])
        #expect(throws: RenderError.self) {
            try rows.withUnsafeBufferPointer {
                try PNGEncoder.encode(argb: $0.baseAddress!, width: 6, height: 1, rowPixels: 5)
            }
        }
    }

    @Test func smallCompressionIsSmallerAndTheSame() throws {
        let renderer = WidgetRenderer()
        let layout = renderer.layout(
            design: Fixtures.design("classic"), family: .medium, scale: 2, inputs: Fixtures.inputs())
        let image = try renderer.pixels(layout)
        let fast = try image.png(compression: .fast), small = try image.png(compression: .small)
        #expect(small.count < fast.count)
        #expect(try PixelImage(png: fast) == PixelImage(png: small))
    }

    // MARK: PNG structure, checked independently of zlib and libpng

    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    /// The chunks of a PNG, after checking the signature, each length and each CRC-32.
    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        struct Invalid: Error, CustomStringConvertible { var description: String }
        guard png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Invalid(description: "no PNG signature")
        }
        var chunks: [Chunk] = []
        var i = 8
        func be32(_ at: Int) -> UInt32 { png[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while i < png.count {
            guard i + 12 <= png.count else { throw Invalid(description: "truncated chunk at \(i)") }
            let length = Int(be32(i))
            guard i + 12 + length <= png.count else { throw Invalid(description: "chunk at \(i) runs past the end") }
            let typeAndData = Array(png[i + 4..<i + 8 + length])
            guard crc32(typeAndData) == be32(i + 8 + length) else {
                throw Invalid(description: "bad CRC in chunk at \(i)")
            }
            chunks.append(
                Chunk(type: String(decoding: typeAndData[0..<4], as: UTF8.self), data: Array(typeAndData[4...])))
            i += 12 + length
        }
        return chunks
    }

    static func colourType(_ chunks: [Chunk]) -> UInt8? {
        guard let header = chunks.first, header.type == "IHDR", header.data.count == 13 else { return nil }
        return header.data[9]
    }

    /// CRC-32 (ISO 3309, as PNG uses it), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
