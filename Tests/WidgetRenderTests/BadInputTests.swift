import Foundation
import SharedStore
import Testing
import WidgetDesign
import WidgetInputs

@testable import WidgetRender

/// Issue 10 point 11: bad images, unknown symbols, enormous or unusual text never crash; they
/// draw a placeholder and warn, naming the file or field, in bounded time.
@Suite struct BadInputTests {
    let renderer = WidgetRenderer()

    func storeWithImage(_ name: String, _ bytes: [UInt8]) throws -> StoreRoot {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ww-bad-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data(bytes).write(to: dir.appendingPathComponent("images/\(name)"))
        return StoreRoot(url: dir)
    }

    func posterWarnings(_ root: StoreRoot, file: String) throws -> (WidgetLayout, RenderInputs) {
        var d = Fixtures.design("poster")
        d.image = ImageSpec(fileName: file)
        var loading: [String] = []
        let inputs = RenderInputs.gather(
            for: d, root: root, now: Fixtures.now, timeZone: Fixtures.timeZone, locale: Fixtures.locale,
            warn: { loading.append($0) })
        var l = renderer.layout(design: d, family: .small, scale: 2, inputs: inputs)
        _ = try renderer.png(l, images: inputs.images)
        l.warnings += loading
        return (l, inputs)
    }

    /// A PNG whose header claims `width`×`height` (nothing after IHDR).
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, 6, 0, 0, 0] + be(0)
    }

    /// Issue 28 item 24: an unreadable pro.json is set aside and the render's caller hears it
    /// through `warn` (the home screen logs it as its own); the library wrote it to stderr.
    @Test func anUnreadableEntitlementIsToldToTheCaller() throws {
        let root = try storeWithImage("unused.png", [])
        try Data("{\"unlocked\": tru".utf8).write(to: root.entitlement)
        var heard: [String] = []
        let inputs = RenderInputs.gather(
            for: Fixtures.design("poster"), root: root, now: Fixtures.now, timeZone: Fixtures.timeZone,
            locale: Fixtures.locale, warn: { heard.append($0) })
        #expect(!inputs.context.isPro)
        #expect(
            heard.contains {
                $0.hasPrefix("\(root.entitlement.path) could not be read (")
                    && $0.contains("; it was moved to \(root.entitlement.path).corrupt-")
                    && $0.hasSuffix("; Pro is locked until 'weaver pro unlock'")
            }, "\(heard)")
        #expect(!FileManager.default.fileExists(atPath: root.entitlement.path))
        // Told once: the file is out of the way, and a missing file is the free tier, quietly.
        heard.removeAll()
        _ = RenderInputs.gather(
            for: nil, root: root, now: Fixtures.now, timeZone: Fixtures.timeZone, locale: Fixtures.locale,
            warn: { heard.append($0) })
        #expect(!heard.contains { $0.contains("pro.json") }, "\(heard)")
    }

    @Test func missingImageDrawsThePlaceholderAndNamesTheFile() throws {
        let root = try storeWithImage("other.png", [])
        let (l, _) = try posterWarnings(root, file: "gone.jpg")
        #expect(l.warnings.contains { $0.contains("gone.jpg") && $0.contains("not found") }, "\(l.warnings)")
        #expect(l.elements.contains { $0.text == "Photo unavailable" })
    }

    @Test func oversizedImageIsRefusedBeforeDecoding() throws {
        let root = try storeWithImage("huge.png", Self.pngHeader(width: 100_000, height: 100_000))
        let (l, inputs) = try posterWarnings(root, file: "huge.png")
        #expect(inputs.images.isEmpty)
        #expect(
            l.warnings.contains { $0.contains("huge.png") && $0.contains("too large") && $0.contains("100000×100000") },
            "\(l.warnings)")
        // A JPEG that claims 60000×60000 in its header.
        var jpeg = Fixtures.samplePhotoJPEG
        if let sof = (0..<jpeg.count - 9).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) {
            jpeg[sof + 5] = 0xEA
            jpeg[sof + 6] = 0x60
            jpeg[sof + 7] = 0xEA
            jpeg[sof + 8] = 0x60
        }
        #expect(throws: DesignImages.Failure.self) { try DesignImages.decode(Data(jpeg), name: "big.jpg") }
    }

    @Test func corruptImagesWarnAndNeverCrash() throws {
        let truncatedPNG = Array(try Fixtures.samplePhoto.pngBytes().prefix(400))
        let truncatedJPEG = Array(Fixtures.samplePhotoJPEG.prefix(200))
        // Cut after its header: libjpeg decodes what there is and fills the rest with grey; the
        // picture is drawn and the damage named.
        let cutJPEG = Array(Fixtures.samplePhotoJPEG.prefix(Fixtures.samplePhotoJPEG.count / 3))
        let (cut, cutInputs) = try posterWarnings(try storeWithImage("cut.jpg", cutJPEG), file: "cut.jpg")
        #expect(cutInputs.images["cut.jpg"] != nil)
        #expect(cut.warnings.contains { $0.contains("cut.jpg") && $0.contains("damaged JPEG") }, "\(cut.warnings)")
        for (name, bytes) in [
            ("bad.png", truncatedPNG), ("bad.jpg", truncatedJPEG), ("text.png", Array("hello".utf8)),
            ("empty.jpg", [UInt8]()), ("header.png", Self.pngHeader(width: 10, height: 10)),
        ] {
            let root = try storeWithImage(name, bytes)
            let (l, _) = try posterWarnings(root, file: name)
            #expect(l.warnings.contains { $0.contains(name) }, "\(name): \(l.warnings)")
        }
        let traversal = try storeWithImage("ok.png", [])
        let (l, _) = try posterWarnings(traversal, file: "../pro.json")
        #expect(l.warnings.contains { $0.contains("bare file name") })
    }

    @Test func jpegAndPNGDecodeToTheRightSize() throws {
        let jpeg = try DesignImages.decode(Data(Fixtures.samplePhotoJPEG), name: "s.jpg")
        #expect(jpeg.pixelWidth == 720 && jpeg.pixelHeight == 480)
        let png = try DesignImages.decode(Data(try jpeg.pngBytes()), name: "s.png")
        #expect(png.pixelWidth == 720 && png.pixelHeight == 480)
    }

    @Test func unknownSymbolsWarnAndDrawTheFallback() {
        var d = Fixtures.design("classic")
        d.symbol = SymbolSpec(name: "totally.made.up")
        let l = renderer.layout(design: d, family: .small, scale: 2, inputs: Fixtures.inputs())
        #expect(l.warnings.contains { $0.contains("symbol.name") && $0.contains("totally.made.up") })
        #expect(l.elements.contains { if case .symbol(let g, _, _) = $0.primitive { g.isFallback } else { false } })
    }

    @Test func enormousTextIsBoundedInTimeAndLines() throws {
        var d = Fixtures.design("classic")
        // ~800 kB (the template engine caps output at 1 MB)
        d.primaryText = String(repeating: "Lorem ipsum dolor sit amet ", count: 30_000)
        d.secondaryText = String(repeating: "x", count: 200_000)
        let start = Date()
        let l = renderer.layout(design: d, family: .large, scale: 2, inputs: Fixtures.inputs())
        _ = try renderer.png(l)
        #expect(Date().timeIntervalSince(start) < 5)
        let run = try #require(l.elements.compactMap(\.textRun).first { $0.text.hasPrefix("Lorem") })
        #expect(run.isTruncated && run.lineCount <= 2)
    }

    @Test func rtlCJKAndEmojiHaveGlyphsAndMarkupIsLiteral() throws {
        let engine = TextEngine(fonts: .shared)
        for text in ["مرحبا بالعالم", "שלום", "你好，世界", "こんにちは", "안녕하세요", "🌧️☕️🎧", "Ünïcödé — “quotes” → ✓"] {
            #expect(engine.unknownGlyphCount(text, family: FontSystem.textFamilies) == 0, "\(text)")
        }
        var d = Fixtures.design("classic")
        d.primaryText = "<span foreground='red'>x</span> &amp; {{"
        let l = renderer.layout(design: d, family: .medium, scale: 2, inputs: Fixtures.inputs())
        #expect(l.elements.contains { $0.text == "<span foreground='red'>x</span> &amp; {{" })
        #expect(XMLCheck.isWellFormed(try renderer.svg(l)))
    }

    /// Noto Color Emoji is a bitmap font with one strike (109 px): unless fontconfig scales it to
    /// the size asked for, every colour emoji is laid out ~128 pt tall and pushes the rest of the
    /// widget out. Emoji lines must be about as tall as plain ones.
    @Test(arguments: ["A 👍 B", "👍🏽", "🇮🇪 Dublin", "👨‍👩‍👧", "1️⃣", "🏳️‍🌈"])
    func colourEmojiAreDrawnAtTheTextSize(_ text: String)
        throws
    {
        let engine = TextEngine(fonts: .shared)
        var plain = TextRun(text: "A B", sizePoints: 17, colour: .white)
        var emoji = TextRun(text: text, sizePoints: 17, colour: .white)
        let plainSize = engine.measure(&plain, width: 300), emojiSize = engine.measure(&emoji, width: 300)
        #expect(engine.unknownGlyphCount(text, family: FontSystem.textFamilies) == 0, "\(text)")
        #expect(
            emojiSize.height <= plainSize.height * 1.4,
            "\(text): \(emojiSize.height) pt tall, plain text \(plainSize.height) pt")
        #expect(emoji.lineCount == 1, "\(text)")
        // And drawn at that size: the ink stays within the measured box (a 109 px bitmap would not).
        let (element, ink, _) = try primaryTextAlone(text)
        #expect(
            ink.maxY >= 0 && Double(ink.maxY) <= element.rect.maxY + 2,
            "\(text): ink to y \(ink.maxY), rect ends at \(element.rect.maxY)")
    }

    /// Characters whose default presentation is emoji are drawn in colour from the emoji font
    /// (DejaVu Sans's outline 😀 and ☕ were drawn before: fontconfig ranked them first).
    @Test(arguments: ["😀", "☕", "⌚", "👍🏽"]) func emojiAreDrawnInColour(_ text: String) throws {
        let image = try primaryTextAlone("A " + text + " B").image
        // The run is white text: clearly coloured opaque pixels (channels > 60 apart) are emoji ink.
        var coloured = 0
        for p in image.argb where p >> 24 > 200 {
            let r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
            if max(r, g, b) - min(r, g, b) > 60 { coloured += 1 }
        }
        #expect(
            coloured >= 5, "\(text): \(coloured) coloured pixels (an outline glyph in white has none; ☕ at 1× has 9)")
    }

    /// A classic medium widget with `text` as its primary text, laid out at 1×; that text's element
    /// drawn alone (no background, no corners), and the pixels its ink covers (alpha > 40/255).
    func primaryTextAlone(_ text: String) throws -> (
        element: LayoutElement, ink: (minX: Int, maxX: Int, maxY: Int), image: PixelImage
    ) {
        var d = Fixtures.design("classic")
        d.primaryText = text
        let full = renderer.layout(design: d, family: .medium, scale: 1, inputs: Fixtures.inputs())
        let element = try #require(full.elements.first { $0.text == text })
        var alone = full
        alone.elements = [element]
        alone.cornerRadius = 0
        let image = try renderer.pixels(alone)
        var minX = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.argb[y * image.width + x] >> 24 > 40 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
        }
        return (element, (minX, maxX, maxY), image)
    }

    /// Text is drawn from the layout it was measured with, wrapped at the box it was measured in;
    /// Pango puts right-to-left lines at that box's right edge, so the drawer shifts them back.
    /// Either way the ink must stay inside the element's rect (what JSON and taps report).
    @Test(arguments: ["مرحبا بالعالم", "שלום עולם", "Hello"]) func textInkStaysInItsRect(_ text: String) throws {
        let (element, ink, _) = try primaryTextAlone(text)
        let minX = ink.minX, maxX = ink.maxX
        #expect(maxX >= minX, "\(text): nothing drawn")
        #expect(
            Double(minX) >= element.rect.minX - 1 && Double(maxX + 1) <= element.rect.maxX + 1,
            "\(text): ink x \(minX)…\(maxX + 1), rect \(element.rect.minX)…\(element.rect.maxX)")
        #expect(
            element.rect.width < 364 / 2, "\(text): short text in a medium widget, a rect \(element.rect.width) pt wide"
        )
    }

    @Test func corruptSnapshotsShowTheHonestEmptyState() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ww-bad-snap-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        for name in ["weather.json", "calendar.json", "reminders.json"] {
            try Data("{\"broken\": [".utf8).write(to: dir.appendingPathComponent("snapshots/\(name)"))
        }
        let root = StoreRoot(url: dir)
        for (t, file) in [("weather", "weather.json"), ("next-up", "calendar.json"), ("reminders", "reminders.json")] {
            let d = Fixtures.design(t)
            var warnings: [String] = []
            let inputs = RenderInputs.gather(
                for: d, root: root, now: Fixtures.now, timeZone: Fixtures.timeZone, locale: Fixtures.locale,
                warn: { warnings.append($0) })
            let l = renderer.layout(design: d, family: .medium, scale: 2, inputs: inputs)
            // Not "no snapshot yet": the file is there and unreadable, and the warning names it.
            #expect(
                l.elements.contains { $0.text == "snapshots/\(file) could not be read." },
                "\(t): \(l.elements.compactMap(\.text))")
            #expect(
                warnings.contains { $0.contains("snapshots/\(file)") && $0.contains("not valid JSON") },
                "\(t): \(warnings)")
        }
    }
}
