import CCairo
import Foundation
import TestSupport
import Testing
import WidgetDesign

@testable import WidgetRender

/// The renderer's font cache folder: made once, reused, and old folders of earlier fonts removed
/// only after they went unused for a month.
@Suite struct FontSystemTests {
    /// Two small pinned files, so each test builds its fontconfig cache quickly.
    let files = FontSystem.fontFiles.filter { $0.hasSuffix("Inter-Regular.otf") || $0.hasSuffix("DejaVuSans.ttf") }

    @Test func theCacheFolderHoldsThePinnedFilesAndIsReused() throws {
        try #require(files.count == 2, "fonts-inter and fonts-dejavu-core are installed by make deps")
        let base = try Products.temporaryDirectory("fonts")
        let first = try #require(FontSystem.cachedConfig(files, under: base.path))
        FcConfigDestroy(first)
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: base.appendingPathComponent("widgetweaver").path)
        #expect(folders.count == 1 && folders[0].hasPrefix("fonts-"))
        let folder = base.appendingPathComponent("widgetweaver").appendingPathComponent(folders[0])
        let links = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("files").path)
            .sorted()
        #expect(links == ["DejaVuSans.ttf", "Inter-Regular.otf"])
        let again = try #require(FontSystem.cachedConfig(files, under: base.path))
        FcConfigDestroy(again)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: base.appendingPathComponent("widgetweaver").path)
                == folders)
    }

    /// The written-out Emoji_Presentation runs (kept so a render need not ask the Unicode tables for
    /// ~5,000 scalars at start-up) are what this toolchain's tables say, and the scan rule keeps them.
    @Test func theEmojiRunsAreTheUnicodeTables() {
        #expect(FontSystem.emojiPresentationRanges == FontSystem.computedEmojiPresentationRanges())
        #expect(FontSystem.emojiOnlyInTheEmojiFont.contains("<range><int>\(0x1F600)</int>") == false)
        #expect(
            FontSystem.emojiOnlyInTheEmojiFont.contains("<range><int>\(0x1F5FB)</int><int>\(0x1F64F)</int></range>"))
        #expect(FontSystem.emojiOnlyInTheEmojiFont.contains("<int>\(0x2B50)</int>"))
    }

    /// Each Noto Sans CJK collection holds ten faces with one character set; only the SC face, the
    /// one text asks for, is in the configuration (Pango sorted all twenty for every font it opened).
    @Test func oneFaceOfEachCJKCollectionIsConfigured() throws {
        let cjk = FontSystem.fontFiles.filter { $0.contains("NotoSansCJK") }
        try #require(cjk.count == 2, "fonts-noto-cjk is installed by make deps")
        let base = try Products.temporaryDirectory("fonts")
        let config = try #require(FontSystem.cachedConfig(cjk, under: base.path))
        defer { FcConfigDestroy(config) }
        var families: [String] = []
        let set = try #require(FcConfigGetFonts(config, FcSetSystem))
        for i in 0..<Int(set.pointee.nfont) {
            var family: UnsafeMutablePointer<FcChar8>?
            if let pattern = set.pointee.fonts[i], FcPatternGetString(pattern, FC_FAMILY, 0, &family) == FcResultMatch,
                let family
            {
                families.append(String(cString: family))
            }
        }
        #expect(families == ["Noto Sans CJK SC", "Noto Sans CJK SC"])
    }

    @Test func foldersOfEarlierFontsGoAfterAMonthUnused() throws {
        try #require(files.count == 2)
        let base = try Products.temporaryDirectory("fonts")
        let parent = base.appendingPathComponent("widgetweaver")
        let fm = FileManager.default
        let day = 86_400.0
        for (name, age) in [("fonts-0ld", 40 * day), ("fonts-recent", 2 * day), ("other", 40 * day)] {
            let url = parent.appendingPathComponent(name)
            try fm.createDirectory(at: url.appendingPathComponent("files"), withIntermediateDirectories: true)
            try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
        }
        let config = try #require(FontSystem.cachedConfig(files, under: base.path))
        FcConfigDestroy(config)
        let left = try fm.contentsOfDirectory(atPath: parent.path).sorted()
        #expect(left.count == 3)
        #expect(!left.contains("fonts-0ld"))
        #expect(left.contains("fonts-recent") && left.contains("other"))
    }

    /// A folder in use is touched at every start, so an old folder still used is kept.
    @Test func aFolderInUseIsMarkedUsed() throws {
        try #require(files.count == 2)
        let base = try Products.temporaryDirectory("fonts")
        FcConfigDestroy(try #require(FontSystem.cachedConfig(files, under: base.path)))
        let parent = base.appendingPathComponent("widgetweaver")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: parent.path).first)
        let folder = parent.appendingPathComponent(name)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-90 * 86_400)], ofItemAtPath: folder.path)
        FcConfigDestroy(try #require(FontSystem.cachedConfig(files, under: base.path)))
        let used = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate] as? Date)
        #expect(Date().timeIntervalSince(used) < 3600)
    }

    /// The families Pango drew `text` with, in order of the runs.
    static func familiesDrawn(_ text: String, design: FontDesignToken, engine: TextEngine) -> [String] {
        let run = TextRun(text: text, sizePoints: 17, colour: .black)
        let layout = engine.makeLayout(run, width: nil, family: FontSystem.textFamilies(for: design))
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var families: [String] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            var runNode = n.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self).pointee.runs
            while let r = runNode {
                if let font = r.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item.pointee
                    .analysis.font, let description = pango_font_describe(font)
                {
                    families.append(String(cString: pango_font_description_get_family(description)))
                    pango_font_description_free(description)
                }
                runNode = r.pointee.next
            }
            node = n.pointee.next
        }
        return families
    }

    /// Issue 41.18: each font design draws Latin text in its own family (Quicksand, DejaVu Serif,
    /// DejaVu Sans Mono; Inter by default), and what that face lacks (CJK) still falls back.
    @Test func eachFontDesignDrawsInItsFamily() throws {
        #expect(FontSystem.shared.missingFiles.isEmpty, "make deps installs every pinned font")
        let engine = TextEngine(fonts: .shared)
        let expected: [FontDesignToken: String] = [
            .default: "Inter", .rounded: "Quicksand", .serif: "DejaVu Serif", .monospaced: "DejaVu Sans Mono",
        ]
        for face in FontDesignToken.allCases {
            #expect(Self.familiesDrawn("Weekly review", design: face, engine: engine) == [expected[face]!], "\(face)")
            #expect(Self.familiesDrawn("会议", design: face, engine: engine).first?.hasPrefix("Noto Sans CJK") == true)
        }
    }
}
