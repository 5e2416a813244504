import Foundation
import Hummingbird
import NIOCore
import NoiseEngine

/// The browser app's scripts, style sheets and icon: the files under `Resources/` (a folder per area), embedded in the
/// binary at build time (Package.swift's `.embedInCode`), so one binary still serves the whole app offline and
/// loads nothing from elsewhere.
///
/// Two markers are resolved once, when a file is first served: a line `// @include NAME.js` is replaced by that
/// file (the pages' shared prelude, the pure logic `node --test` checks), and `/* @colourBands */ []` by
/// `ColourName.bands` as JSON, so the mixer's slider names a colour as the server does.
enum WebAssets {
    struct Asset: Sendable {
        let path: String
        let contentType: String
        let text: String
    }

    static let javaScript = "text/javascript; charset=utf-8"
    static let styleSheet = "text/css; charset=utf-8"
    static let svg = "image/svg+xml"

    /// Everything served under `/static/` from `Resources/`.
    static let served: [Asset] = [
        Asset(path: AppShell.stylesheetPath, contentType: styleSheet, text: text(PackageResources.shell_css)),
        Asset(path: "/static/app.css", contentType: styleSheet, text: text(PackageResources.app_css)),
        Asset(path: "/static/app.js", contentType: javaScript, text: script(PackageResources.app_js)),
        Asset(path: "/static/editor.css", contentType: styleSheet, text: text(PackageResources.editor_css)),
        Asset(path: "/static/editor.js", contentType: javaScript, text: script(PackageResources.editor_js)),
        // The Noise page's board of sounds (Resources/Noise).
        Asset(path: "/static/board.js", contentType: javaScript, text: script(PackageResources.board_js)),
        Asset(path: "/static/board.css", contentType: styleSheet, text: text(PackageResources.board_css)),
        // Noise → Calibrate (Resources/Noise).
        Asset(path: "/static/calibrate.js", contentType: javaScript, text: script(PackageResources.calibrate_js)),
        Asset(path: "/static/calibrate.css", contentType: styleSheet, text: text(PackageResources.calibrate_css)),
        Asset(path: "/static/pages.css", contentType: styleSheet, text: text(PackageResources.pages_css)),
        Asset(path: "/static/library.js", contentType: javaScript, text: script(PackageResources.library_js)),
        Asset(path: "/static/data.js", contentType: javaScript, text: script(PackageResources.data_js)),
        Asset(path: "/static/night.js", contentType: javaScript, text: script(PackageResources.night_js)),
        Asset(path: "/static/night.css", contentType: styleSheet, text: text(PackageResources.night_css)),
        // The tab's icon; `/favicon.ico` too, which browsers ask for whatever the page links (was a 404).
        Asset(path: "/static/icon.svg", contentType: svg, text: text(PackageResources.icon_svg)),
        Asset(path: "/favicon.ico", contentType: svg, text: text(PackageResources.icon_svg)),
    ]

    /// The files a script may include, by name.
    static let includable: [String: [UInt8]] = [
        "prelude.js": PackageResources.prelude_js,
        "colourname.js": PackageResources.colourname_js,
        "editorlogic.js": PackageResources.editorlogic_js,
        "boardlogic.js": PackageResources.boardlogic_js,
        "request.js": PackageResources.request_js,
        "element.js": PackageResources.element_js,
    ]

    /// The text a request for `path` is answered with.
    static func asset(_ path: String) -> Asset? {
        served.first { $0.path == path }
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A script with its `// @include` lines replaced and the colour bands written in.
    static func script(_ bytes: [UInt8]) -> String {
        var lines: [Substring] = []
        for line in text(bytes).split(separator: "\n", omittingEmptySubsequences: false) {
            let marker = "// @include "
            if line.hasPrefix(marker), let included = includable[String(line.dropFirst(marker.count))] {
                // The included file ends with a newline, which the split of this file adds back.
                lines.append(Substring(script(included).dropLast()))
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n").replacingOccurrences(of: "/* @colourBands */ []", with: colourBands)
    }

    /// `ColourName.bands` as `[[below, name], …, [null, name]]` (the last band has no upper bound).
    static var colourBands: String {
        let bands = ColourName.bands.map { band -> String in
            let below = band.below.isFinite ? "\(band.below)" : "null"
            let name = (try? JSONSerialization.data(withJSONObject: band.name, options: [.fragmentsAllowed])) ?? Data()
            return "[\(below), " + String(decoding: name, as: UTF8.self) + "]"
        }
        return "[" + bands.joined(separator: ", ") + "]"
    }

    /// Registers every served file: `Cache-Control: no-store` comes from the server's headers, as for every
    /// answer, so a new binary's files are used at once.
    static func register(on router: Router<BasicRequestContext>) {
        for asset in served {
            router.get(.init(stringLiteral: asset.path)) { _, _ in Routes.body(asset.text, type: asset.contentType) }
        }
    }
}
