import CCairo
import Foundation
import SystemCalls
import WidgetDesign

/// The renderer's own fontconfig configuration: only the font files listed here, so a render does
/// not depend on what else the host has installed (a pinned input, like a seed).
///
/// Text uses Inter; what Inter lacks falls back to DejaVu Sans (Arabic, Hebrew, symbols), Noto
/// Sans CJK, then Noto Color Emoji. Icons come from Material Icons (see `SymbolMap`).
public final class FontSystem: @unchecked Sendable {
    /// Font files, in fallback order within each family. Missing files are reported in `missingFiles`.
    public static let fontFiles: [String] = {
        let inter = "/usr/share/fonts/opentype/inter/Inter-"
        return ["Regular", "Light", "Medium", "SemiBold", "Bold", "ExtraBold", "Black"].map { inter + $0 + ".otf" } + [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            // The other font designs (`style.fontDesign`): serif and monospaced from fonts-dejavu-core,
            // rounded from fonts-quicksand.
            "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
        ] + ["Light", "Regular", "Medium", "Bold"].map { "/usr/share/fonts/truetype/quicksand/Quicksand-\($0).ttf" } + [
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
            emojiFile,
            SymbolMap.fontFile,
        ]
    }()

    public static let textFamilies = "Inter, DejaVu Sans, Noto Sans CJK SC, Noto Color Emoji"

    /// The families a text of `design` asks for, in fallback order: the design's own face first,
    /// then the default text families for what it lacks (Quicksand has Latin only, DejaVu Serif and
    /// Mono no CJK). SF Pro Rounded, the seed's rounded face, is not free: Quicksand is the rounded
    /// sans Debian packages (fonts-quicksand) nearest to it.
    public static func textFamilies(for design: FontDesignToken) -> String {
        switch design {
        case .default: textFamilies
        case .rounded: "Quicksand, " + textFamilies
        case .serif: "DejaVu Serif, " + textFamilies
        case .monospaced: "DejaVu Sans Mono, " + textFamilies
        }
    }
    public static let symbolFamily = "Material Icons"
    /// The colour emoji font (see `emojiOnlyInTheEmojiFont`).
    public static let emojiFamily = "Noto Color Emoji"

    /// The one configuration of this process. A fontconfig configuration is thread-safe to
    /// share; Pango font maps are not (Pango's own default map is per thread), so each
    /// `TextEngine` makes its own map over this configuration.
    public static let shared = FontSystem()

    let config: OpaquePointer
    public let missingFiles: [String]

    private init() {
        var missing: [String] = []
        var present: [String] = []
        for file in Self.fontFiles {
            if access(file, F_OK) == 0 { present.append(file) } else { missing.append(file) }
        }
        if let cached = Self.cachedConfig(present, under: Self.cacheBase()) {
            config = cached
        } else {
            let config = FcConfigCreate()!
            // before the files: the scan rule applies as each is added
            Self.load(Self.rules(emojiFontPresent: present.contains(Self.emojiFile)), into: config)
            for file in present where FcConfigAppFontAddFile(config, file) == 0 { missing.append(file) }
            self.config = config
        }
        missingFiles = missing
        // Pango's font map starts fontconfig on a thread of its own (`FcInit`), which parses the
        // system's whole configuration (~20 M instructions, 12 % of a `weaver render`'s CPU) unless
        // a current configuration exists. Ours is the one every text in the process should use anyway.
        FcConfigSetCurrent(config)
    }

    /// The same fonts through fontconfig's cache: a private folder of links to the pinned files and
    /// a cache folder beside it, under `$XDG_CACHE_HOME/widgetweaver` (else `~/.cache`). Adding the
    /// files one by one parses every face of every file (the CJK collections hold dozens) on each
    /// start, ~70 ms of a `weaver render`; the cache is read in about a millisecond. The folder's
    /// name hashes the files' paths, sizes and times, so an upgraded font gets a new cache. Nil
    /// (fall back to adding the files) when the folder cannot be made or fontconfig refuses it.
    static func cachedConfig(_ files: [String], under base: String) -> OpaquePointer? {
        // The scan rules shape what the cache holds (the text fonts' coverage without emoji, from
        // this toolchain's Unicode tables), so they are part of its identity.
        let rules = rules(emojiFontPresent: files.contains(emojiFile))
        // Paths as strings and stat(2) rather than URL and FileManager on this path, which every
        // render start takes: their first use costs ~0.5 ms of type lookups (FileManager's
        // attributes also look the owner up by name), a tenth of what a render of its own takes.
        var identity = "widgetweaver-fonts-3|" + rules
        var names = Set<String>()
        for file in files {
            var info = stat()
            guard stat(file, &info) == 0 else { return nil }
            identity += "|\(file)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            guard names.insert(fileName(file)).inserted else { return nil }
        }
        // FNV-1a 64 over the identity: a stable name across runs (Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let parent = base + "/widgetweaver", root = parent + "/fonts-\(String(hash, radix: 16))"
        let links = root + "/files", cache = root + "/cache"
        // The folder's time says when it was last used (see `pruneFontCaches`).
        utimes(root, nil)
        // The folder of links appears whole or not at all (made aside, then renamed into place), so
        // a process starting at the same moment never caches a half-made folder.
        var linksInfo = stat()
        if stat(links, &linksInfo) != 0 {
            let fm = FileManager.default
            let staging = root + "/files.tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            do {
                try fm.createDirectory(
                    atPath: staging, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                for file in files {
                    try fm.createSymbolicLink(atPath: staging + "/" + fileName(file), withDestinationPath: file)
                }
                if rename(staging, links) != 0 {
                    try? fm.removeItem(atPath: staging)  // another process won
                } else {
                    pruneFontCaches(
                        in: URL(fileURLWithPath: parent), keeping: fileName(root), now: Date())
                }
            } catch {
                try? fm.removeItem(atPath: staging)
                return nil
            }
        }
        // Made once (mode 0700 below an existing folder); a cache folder that exists is used as it is.
        if mkdir(cache, 0o700) != 0 && errno != EEXIST {
            do {
                try FileManager.default.createDirectory(
                    atPath: cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                return nil
            }
        }
        func escaped(_ path: String) -> String {
            path.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let xml = rules + "<dir>\(escaped(links))</dir><cachedir>\(escaped(cache))</cachedir>"
        guard let config = FcConfigCreate() else { return nil }
        guard load(xml, into: config), FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            return nil
        }
        // Every pinned file must have made it in (checked by path, not by count: a collection holds
        // many faces); otherwise use the direct way, which reports what is missing.
        var found = Set<String>()
        if let set = FcConfigGetFonts(config, FcSetSystem), let fonts = set.pointee.fonts {
            for i in 0..<Int(set.pointee.nfont) {
                var path: UnsafeMutablePointer<FcChar8>?
                if let pattern = fonts[i], FcPatternGetString(pattern, FC_FILE, 0, &path) == FcResultMatch, let path {
                    found.insert(String(cString: path))
                }
            }
        }
        guard files.allSatisfy({ found.contains(links + "/" + fileName($0)) }) else {
            FcConfigDestroy(config)
            return nil
        }
        return config
    }

    /// The last component of `path` (its file name).
    static func fileName(_ path: String) -> String {
        // Not split(separator:): its generic machinery's first use costs ~0.1 ms of a render's start.
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Scales fonts without outlines to the size asked for. Noto Color Emoji has one bitmap strike
    /// (109 px); matched as it is, Pango lays every colour emoji out at that size (a line 128 pt
    /// tall in a 17 pt run). The rule: the factor is the pixel size the text asked for over the
    /// font's own, the font's matrix is multiplied by it and its point size divided by it, so the
    /// glyphs and the metrics Pango reads are the requested size. (Desktops get the same effect
    /// from their system configuration, which this renderer does not load.)
    static let scaleBitmapFonts = """
        <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>\
        <edit name="pixelsizefixupfactor" mode="assign"><divide><name target="pattern">pixelsize</name><name \
        target="font">pixelsize</name></divide></edit></match>\
        <match target="font"><test name="outline" compare="eq"><bool>false</bool></test>\
        <edit name="matrix" \
        mode="assign"><times><name>matrix</name><matrix><name>pixelsizefixupfactor</name><double>0</double>\
        <double>0</double><name>pixelsizefixupfactor</name></matrix></times></edit>\
        <edit name="size" \
        mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit></match>
        """

    /// The configuration's rules, before any font is scanned. Without the emoji font the text fonts
    /// keep their emoji (DejaVu's outline 😀 beats an empty box).
    static func rules(emojiFontPresent: Bool) -> String {
        (emojiFontPresent ? emojiOnlyInTheEmojiFont : "") + scaleBitmapFonts + oneCJKFace
    }

    /// Of the ten faces in each Noto Sans CJK collection, the one text asks for (SC). All ten map
    /// the same characters (their charsets are identical; they differ in regional glyph forms), and
    /// "Noto Sans CJK SC" is in every text family list, so it always sorts first among them and the
    /// other nine never draw a character. They were not free: Pango sorts every face of the
    /// configuration for each font it opens (`FcFontSetSort`, 12 times in a small Noise Machine
    /// render), testing and merging each face's 30,000-character charset: 16.7 M of the render's
    /// 70.0 M instructions with all twenty faces, 6.4 M with two (callgrind).
    /// One pattern a face: a pattern's values must all be the font's (fontconfig's `FcListPatternMatchAny`),
    /// so names listed in one pattern would reject nothing. Written out rather than built from the
    /// region names: `weaver render` reads it at every start.
    static let oneCJKFace = """
        <selectfont><rejectfont>\
        <pattern><patelt name="family"><string>Noto Sans CJK JP</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans CJK KR</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans CJK TC</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans CJK HK</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans Mono CJK JP</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans Mono CJK KR</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans Mono CJK SC</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans Mono CJK TC</string></patelt></pattern>\
        <pattern><patelt name="family"><string>Noto Sans Mono CJK HK</string></patelt></pattern>\
        </rejectfont></selectfont>
        """

    static let emojiFile = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// Characters whose default presentation is emoji (Unicode's Emoji_Presentation: 😀, ☕, ⌚…)
    /// are removed from the coverage of every font but Noto Color Emoji when fonts are scanned.
    /// Fontconfig otherwise ranks DejaVu Sans's outline 😀 and ☕ above the colour ones even for a
    /// run whose family is "Noto Color Emoji" (measured: the family order changed nothing); with
    /// the coverage gone, fallback can only find them in the emoji font.
    static let emojiOnlyInTheEmojiFont: String = {
        var charset = ""
        var i = 0
        while i + 1 < emojiPresentationRanges.count {
            let (first, last) = (emojiPresentationRanges[i], emojiPresentationRanges[i + 1])
            charset += first == last ? "<int>\(first)</int>" : "<range><int>\(first)</int><int>\(last)</int></range>"
            i += 2
        }
        return """
            <match target="scan"><test name="family" compare="not_eq"><string>\(emojiFamily)</string></test>\
            <edit name="charset" \
            mode="assign"><minus><name>charset</name><charset>\(charset)</charset></minus></edit></match>
            """
    }()

    /// The characters whose default presentation is emoji, as first, last pairs of runs: what
    /// `computedEmojiPresentationRanges` finds in this toolchain's Unicode tables, written out because
    /// asking the tables for every scalar costs ~0.3 ms of each `weaver render` (issue 41 item 25).
    /// FontSystemTests fails when the two differ (a toolchain with newer Unicode data).
    static let emojiPresentationRanges: [Int] = [
        0x231A, 0x231B, 0x23E9, 0x23EC, 0x23F0, 0x23F0, 0x23F3, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615,
        0x2648, 0x2653, 0x267F, 0x267F, 0x2693, 0x2693, 0x26A1, 0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE,
        0x26C4, 0x26C5, 0x26CE, 0x26CE, 0x26D4, 0x26D4, 0x26EA, 0x26EA, 0x26F2, 0x26F3, 0x26F5, 0x26F5,
        0x26FA, 0x26FA, 0x26FD, 0x26FD, 0x2705, 0x2705, 0x270A, 0x270B, 0x2728, 0x2728, 0x274C, 0x274C,
        0x274E, 0x274E, 0x2753, 0x2755, 0x2757, 0x2757, 0x2795, 0x2797, 0x27B0, 0x27B0, 0x27BF, 0x27BF,
        0x2B1B, 0x2B1C, 0x2B50, 0x2B50, 0x2B55, 0x2B55, 0x1F004, 0x1F004, 0x1F0CF, 0x1F0CF, 0x1F18E, 0x1F18E,
        0x1F191, 0x1F19A, 0x1F1E6, 0x1F1FF, 0x1F201, 0x1F201, 0x1F21A, 0x1F21A, 0x1F22F, 0x1F22F,
        0x1F232, 0x1F236, 0x1F238, 0x1F23A, 0x1F250, 0x1F251, 0x1F300, 0x1F320, 0x1F32D, 0x1F335,
        0x1F337, 0x1F37C, 0x1F37E, 0x1F393, 0x1F3A0, 0x1F3CA, 0x1F3CF, 0x1F3D3, 0x1F3E0, 0x1F3F0,
        0x1F3F4, 0x1F3F4, 0x1F3F8, 0x1F43E, 0x1F440, 0x1F440, 0x1F442, 0x1F4FC, 0x1F4FF, 0x1F53D,
        0x1F54B, 0x1F54E, 0x1F550, 0x1F567, 0x1F57A, 0x1F57A, 0x1F595, 0x1F596, 0x1F5A4, 0x1F5A4,
        0x1F5FB, 0x1F64F, 0x1F680, 0x1F6C5, 0x1F6CC, 0x1F6CC, 0x1F6D0, 0x1F6D2, 0x1F6D5, 0x1F6D8,
        0x1F6DC, 0x1F6DF, 0x1F6EB, 0x1F6EC, 0x1F6F4, 0x1F6FC, 0x1F7E0, 0x1F7EB, 0x1F7F0, 0x1F7F0,
        0x1F90C, 0x1F93A, 0x1F93C, 0x1F945, 0x1F947, 0x1F9FF, 0x1FA70, 0x1FA7C, 0x1FA80, 0x1FA8A,
        0x1FA8E, 0x1FAC6, 0x1FAC8, 0x1FAC8, 0x1FACD, 0x1FADC, 0x1FADF, 0x1FAEA, 0x1FAEF, 0x1FAF8,
    ]

    /// The runs of Emoji_Presentation characters, from the Unicode tables. Every one lies in these two
    /// spans (Unicode 15 emoji-data.txt); all of U+2000…U+1FAFF would take ~3.6 ms.
    static func computedEmojiPresentationRanges() -> [Int] {
        var ranges: [Int] = []
        for value in Array(0x2300...0x2BFF) + Array(0x1F000...0x1FAFF) {
            guard let scalar = Unicode.Scalar(UInt32(value)), scalar.properties.isEmojiPresentation else { continue }
            if let last = ranges.last, last == value - 1 {
                ranges[ranges.count - 1] = value
            } else {
                ranges += [value, value]
            }
        }
        return ranges
    }

    /// Parses configuration elements (the inside of `<fontconfig>`) into `config`; false if
    /// fontconfig refused them.
    @discardableResult
    static func load(_ elements: String, into config: OpaquePointer) -> Bool {
        let xml = "<?xml version=\"1.0\"?><fontconfig>\(elements)</fontconfig>"
        return xml.withCString {
            FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1)
        } != 0
    }

    /// `$XDG_CACHE_HOME` (else `~/.cache`): where `cachedConfig` keeps its folder.
    static func cacheBase() -> String {
        XDGDirectories.ofThisProcess().cacheHome
    }

    /// Days a font cache folder of other fonts is kept after its last use.
    static let unusedFontCacheDays = 30.0

    /// Removes the `fonts-*` folders of earlier font files (made before a font upgrade) that no
    /// process has used for `unusedFontCacheDays`. Not at once: a long-running `weaver serve`
    /// started before the upgrade still opens font files through its folder's links.
    static func pruneFontCaches(in folder: URL, keeping current: String, now: Date) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix("fonts-") && name != current {
            let url = folder.appendingPathComponent(name)
            guard let used = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                now.timeIntervalSince(used) > unusedFontCacheDays * 86_400
            else { continue }
            try? fm.removeItem(at: url)
        }
    }

    deinit { FcConfigDestroy(config) }

    /// A Pango font map over this configuration, for one thread. The caller unrefs it.
    func makeFontMap() -> UnsafeMutablePointer<PangoFontMap> {
        let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        return map
    }

    /// A Pango context at 72 dpi (1 pt = 1 user unit) with hinting off, so text measures the same
    /// at every scale and layout in points matches drawing at 2× and 3×.
    func makeContext(fontMap: UnsafeMutablePointer<PangoFontMap>) -> OpaquePointer {
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        return context
    }
}

/// SwiftUI text styles at the default Dynamic Type size ("Large").
public enum TextStyleMetrics {
    /// (size in points, weight).
    public static func font(_ token: TextStyleToken, fallback: TextStyleToken) -> (size: Double, weight: Int) {
        switch token == .automatic ? fallback : token {
        case .automatic, .body: (17, 400)
        case .caption2: (11, 400)
        case .caption: (12, 400)
        case .footnote: (13, 400)
        case .subheadline: (15, 400)
        case .headline: (17, 600)
        case .title3: (20, 400)
        case .title2: (22, 400)
        case .title: (28, 400)
        }
    }

    public static func weight(_ token: SymbolWeightToken) -> Int {
        switch token {
        case .ultraLight: 200
        case .thin: 200
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        }
    }
}
