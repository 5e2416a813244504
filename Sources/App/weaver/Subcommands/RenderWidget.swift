import ArgumentParser
import CLISupport
import Foundation
import WidgetActions
import WidgetDataKeys
import WidgetDesign
import WidgetInputs
import WidgetRender

/// What `render` and `tap` share: which design, which family, the clock, the store.
struct WidgetSelection: ParsableArguments {
    @Argument(help: "Design ID, unique ID prefix, or name (default: the default design).")
    var design: String?

    @Option(
        help: ArgumentHelp(
            "Render a catalogue template's starter design instead of a saved one (see 'weaver templates').",
            valueName: "template"))
    var template: String?

    @Option(help: ArgumentHelp("small|medium|large|circular|rectangular|inline.", valueName: "family"))
    var family: String = "small"

    @Option(help: ArgumentHelp("light|dark.", valueName: "appearance"))
    var appearance: String = "dark"

    @Flag(
        help:
            """
            Unlock Pro for this command only, without storing it: the action bar (and, for tap, its buttons), \
            matched sets, custom variables.
            """
    )
    var pro = false

    @OptionGroup var clock: ClockOptions
    @OptionGroup var store: StoreOption

    func validate() throws {
        guard WidgetFamily.parse(family) != nil else {
            throw ValidationError(
                "'--family' must be one of small, medium, large, circular, rectangular, inline; got '\(family)'")
        }
        guard Appearance(rawValue: appearance) != nil else {
            throw ValidationError("'--appearance' must be light or dark; got '\(appearance)'")
        }
        if design != nil, template != nil {
            throw ValidationError("give a DESIGN or '--template', not both")
        }
        if let template, TemplateCatalogue.find(template) == nil {
            throw ValidationError("'--template' must be one of: \(TemplateCatalogue.ids); got '\(template)'")
        }
    }

    var widgetFamily: WidgetFamily { WidgetFamily.parse(family)! }

    /// Pro as `--pro` asks, for the layout and for what `tap` performs alike: true, or nil to
    /// follow the store's entitlement.
    var isPro: Bool? { pro ? true : nil }

    /// The design to draw: `--template`, DESIGN, or the library's default design. An empty
    /// library draws the Noise Machine widget, so the first `weaver render` a new user types
    /// shows something of theirs (the player) instead of an error.
    func loadDesign(now: Date) throws -> WidgetSpec {
        if let template { return try TemplateCatalogue.find(template)!.design(now: now) }
        let lib = store.library
        if let design { return try lib.load(lib.resolve(design).id) }
        guard let id = try lib.defaultID() else {
            if try lib.summaries().isEmpty {
                printWarning(
                    """
                    no designs yet: drawing the Noise Machine widget (make a design with 'weaver designs new \
                    --template classic', or see 'weaver templates')
                    """
                )
                return try TemplateCatalogue.find("noise-machine")!.design(now: now)
            }
            throw CommandError(
                """
                no default design: name one (see 'weaver designs'), set one with 'weaver designs default DESIGN', \
                or use '--template noise-machine'
                """
            )
        }
        return try lib.load(id)
    }

    /// Lays the design out with everything the store holds now.
    /// - Parameter live: the caller draws again each second when the layout asks (`--watch`).
    func layout(scale: Int, live: Bool = false) throws -> (
        layout: WidgetLayout, inputs: RenderInputs, renderer: WidgetRenderer
    ) {
        let (now, timeZone, locale) = try clock.resolved()
        let spec = try loadDesign(now: now)
        let root = store.root
        var inputs = RenderInputs.gather(
            for: spec, root: root, now: now, timeZone: timeZone, locale: locale,
            appearance: Appearance(rawValue: appearance)!, isPro: isPro,
            warn: { printWarning($0) })
        inputs.redrawsEachSecond = live
        let renderer = WidgetRenderer()
        let layout = renderer.layout(design: spec, family: widgetFamily, scale: scale, inputs: inputs)
        return (layout, inputs, renderer)
    }
}

extension Weaver {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Draw a design (or the Noise Machine widget) as PNG, SVG, layout JSON or text.",
            discussion:
                """
                The format comes from '--format', else the '-o' file's extension, else png (txt on a terminal). \
                Files are written atomically. Sizes in points: small 170×170, medium 364×170, large 364×382, \
                circular 76×76, rectangular 172×76, inline 257×26; '--scale' multiplies pixels.
                """
        )

        @OptionGroup var selection: WidgetSelection

        @Option(numeric: ArgumentHelp("Pixels per point, 1…3.", valueName: "n"))
        var scale: Int = 2

        @Option(help: ArgumentHelp("png|svg|json|txt.", valueName: "format"))
        var format: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or - for standard output.", valueName: "file"))
        var output: String = "-"

        @Option(
            help: ArgumentHelp(
                "Paint this colour behind the widget in PNG output (e.g. '#1C1C1E'; default: transparent).",
                valueName: "#rrggbb"))
        var backdrop: String?

        @Flag(
            help:
                """
                Keep running and draw again when what the widget shows changes; the file is rewritten only when \
                the output changed. Ctrl-C stops.
                """
        )
        var watch = false

        func validate() throws {
            guard WidgetRenderer.scales.contains(scale) else {
                throw ValidationError("'--scale' must be 1, 2 or 3; got \(scale)")
            }
            if let format, RenderFormat(rawValue: format.lowercased()) == nil {
                throw ValidationError("'--format' must be png, svg, json or txt; got '\(format)'")
            }
            if let backdrop, RGBA(hexString: backdrop) == nil {
                throw ValidationError("'--backdrop' must be a colour like '#1C1C1E'; got '\(backdrop)'")
            }
            if watch, output == "-", [.png, .svg].contains(resolvedFormat) {
                throw ValidationError(
                    """
                    '--watch' to standard output works for txt and json (a line per change); give '-o FILE' for \
                    \(resolvedFormat.rawValue)
                    """
                )
            }
            if format == nil, output != "-", RenderFormat.from(path: output) == nil {
                throw ValidationError(
                    """
                    cannot tell the format from '\(output)': give '--format png|svg|json|txt' or use a .png, .svg, \
                    .json or .txt name
                    """
                )
            }
        }

        var resolvedFormat: RenderFormat {
            if let format { return RenderFormat(rawValue: format.lowercased())! }
            if output != "-", let f = RenderFormat.from(path: output) { return f }
            return isatty(STDOUT_FILENO) != 0 ? .txt : .png
        }

        func run() throws {
            guard watch else { return try OutputFile.write(try draw().bytes, to: output) }
            try LiveOutput(root: selection.store.root, output: output, draw: draw).run()
        }

        /// The one-shot render's renderer, kept to the process's end: its teardown (Pango's font maps
        /// and fontsets, FreeType faces, Cairo's caches) took ~0.8 M instructions of a `weaver
        /// render` that exits a moment later (issue 41 item 25). `--watch` draws with a new one each time.
        nonisolated(unsafe) static var keptToExit: WidgetRenderer?

        func draw() throws -> (bytes: [UInt8], redrawAt: Date?) {
            let (layout, inputs, renderer) = try selection.layout(scale: scale, live: watch)
            if !watch { Self.keptToExit = renderer }
            for warning in layout.warnings { printWarning(warning) }
            var bytes = try renderer.render(
                layout, format: resolvedFormat, images: inputs.images,
                backdrop: backdrop.flatMap { RGBA(hexString: $0) })
            // A line per change on standard output, so a status bar can read it line by line.
            if watch, output == "-", bytes.last != 0x0A { bytes.append(0x0A) }
            return (bytes, layout.redrawAt)
        }
    }

    struct Tap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tap",
            abstract: "Press a widget's button at a point (in points) and perform its action.",
            usage:
                """
                weaver tap [<design>] [--template <template>] [--family <family>]
                  --at <x,y> [--dry-run] [<options>]
                """,
            discussion:
                """
                Lays the widget out exactly as 'weaver render' does and finds the action whose rectangle holds \
                X,Y. With nothing there it exits 1 naming the nearest button. '--dry-run' only says which action \
                it found.
                """
        )

        @OptionGroup var selection: WidgetSelection

        @Option(numeric: ArgumentHelp("The point, in points from the top-left corner, e.g. 30,40.", valueName: "x,y"))
        var at: String

        @Flag(help: "Find the action and print it, without performing it.")
        var dryRun = false

        func validate() throws { _ = try point() }

        func point() throws -> Point {
            let parts = at.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                throw ValidationError("'--at' must be X,Y in points, e.g. 30,40; got '\(at)'")
            }
            return Point(x: x, y: y)
        }

        func run() throws {
            let (layout, _, _) = try selection.layout(scale: 1)
            let p = try point()
            guard p.x >= 0, p.y >= 0, p.x < layout.width, p.y < layout.height else {
                throw CommandError(
                    """
                    \(at) is outside the \(selection.widgetFamily.rawValue) widget \
                    (\(Int(layout.width))×\(Int(layout.height)) points)
                    """
                )
            }
            guard let action = layout.action(at: p) else {
                // Without Pro the action bar is not laid out: say so when the point is on it.
                if selection.isPro == nil {
                    var withPro = selection
                    withPro.pro = true
                    if let why = ProOnlyButtons.missMessage(
                        at: p, written: at, layout: layout, proLayout: try withPro.layout(scale: 1).layout)
                    {
                        throw CommandError(why)
                    }
                }
                if let nearest = layout.nearestAction(to: p) {
                    throw CommandError(
                        """
                        no button at \(at); the nearest is \(TapDescription.describe(nearest.action)) \
                        \(String(format: "%.0f", nearest.distance)) pt away
                        """
                    )
                }
                throw CommandError("no button at \(at): this widget has no buttons")
            }
            if dryRun {
                print("found \(TapDescription.describe(action))")
                return
            }
            print(try TapDescription.perform(action, store: selection.store, isPro: selection.isPro))
        }
    }
}

enum TapDescription {
    static func describe(_ a: ActionArea) -> String {
        var s = a.kind.rawValue
        if let l = a.layer { s += " layer \(l)" }
        if let t = a.title { s += " \"\(t)\"" }
        let r = a.rect
        s += " at \(Int(r.x)),\(Int(r.y)) \(Int(r.width))×\(Int(r.height))"
        return s
    }

    /// Performs a tapped action and returns what it did (warnings go to standard error).
    static func perform(_ action: ActionArea, store: StoreOption, isPro: Bool?) throws -> String {
        let outcome = try WidgetActionPerformer.perform(
            rendered: action, root: store.root, storeDirectory: store.explicitDirectory, isPro: isPro)
        for w in outcome.warnings { printWarning(w) }
        return outcome.message
    }
}

/// Writes a whole rendition to `-o`: atomically for a file, straight through for `-`, FIFOs and
/// devices (`OutputTarget`, shared with `noise render`).
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try OutputTarget(path: path, option: "-o", exampleName: "widget.png").write(bytes)
        } catch let failure as OutputTarget.Failure {
            throw CommandError(failure.description)
        }
    }
}
