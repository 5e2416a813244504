import ArgumentParser
import CLISupport
import DesktopWidgets
import Foundation
import SystemCalls
import WidgetDesign
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

extension Weaver {
    struct Desktop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "desktop",
            abstract: "Show widgets on the desktop itself, under other windows, with buttons that work.",
            usage:
                """
                weaver desktop [--autostart enable|disable [--method xdg|systemd]]
                  [--store <dir>]
                  weaver desktop <subcommand>
                """,
            discussion: """
                Without a subcommand, runs the desktop host (GTK): a window for each widget added with \
                'weaver desktop add', on the bottom layer on Wayland compositors with layer-shell \
                (wlroots, KDE) and as a desktop window on X11; on GNOME Wayland the GNOME Shell extension \
                shows them ('weaver desktop gnome install'). Left-click a button to press it (as \
                'weaver tap'); right-click for Edit in browser, Move, Remove from desktop. It redraws \
                when what a widget shows changes. Ctrl-C stops it.
                """,
            subcommands: [Add.self, List.self, Remove.self, Move.self, Gnome.self])

        @OptionGroup var store: StoreOption

        @Option(
            help: ArgumentHelp(
                """
                enable|disable: start 'weaver desktop' at login (an XDG autostart entry, or a systemd user unit \
                with '--method systemd').
                """,
                valueName: "action"))
        var autostart: String?

        @Option(help: ArgumentHelp("With '--autostart enable': xdg (default) or systemd.", valueName: "method"))
        var method: String = "xdg"

        func validate() throws {
            if let autostart, !["enable", "disable"].contains(autostart) {
                throw ValidationError("'--autostart' must be enable or disable; got '\(autostart)'")
            }
            guard DesktopAutostart.Method(rawValue: method) != nil else {
                throw ValidationError("'--method' must be xdg or systemd; got '\(method)'")
            }
        }

        func run() throws {
            if let autostart { return try runAutostart(enable: autostart == "enable") }
            let env = ProcessInfo.processInfo.environment
            guard DesktopSession.hasDisplay(env) else { throw CommandError(DesktopSession.noDisplayMessage) }
            if GnomeExtension.isGnomeWayland(env) { return try runOnGnome() }
            let host = Self.hostExecutable()
            guard FileManager.default.isExecutableFile(atPath: host.path) else {
                throw CommandError(
                    "the desktop host \(host.path) is missing: it is installed with weaver (make install builds it)")
            }
            let arguments = [host.path] + (store.explicitDirectory.map { ["--store", $0] } ?? [])
            let argv = arguments.map { strdup($0) } + [nil]
            execv(host.path, argv)
            throw CommandError("cannot start \(host.path): \(SystemCallError.reason(errno))")
        }

        /// `weaver-desktop`, beside this weaver.
        static func hostExecutable() -> URL { programBesideWeaver("weaver-desktop") }

        func runAutostart(enable: Bool) throws {
            let exe =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let entry = DesktopAutostart(target: store.loginEntryTarget(executable: URL(fileURLWithPath: exe)))
            if enable {
                for url in try entry.install(DesktopAutostart.Method(rawValue: method)!) { print("Wrote \(url.path)") }
                print("The desktop widgets start at login.")
            } else {
                for url in try entry.remove() { print("Removed \(url.path)") }
                print("The desktop widgets no longer start at login.")
            }
        }
    }
}

/// What `add` and `move` share: where the widget goes.
struct PlacementOptions: ParsableArguments {
    @Option(numeric: ArgumentHelp("Top-left corner in points from the monitor's corner, e.g. 40,60.", valueName: "x,y"))
    var at: String?

    @Option(help: ArgumentHelp("top-left|top-right|bottom-left|bottom-right|center.", valueName: "corner"))
    var anchor: String?

    @Option(numeric: ArgumentHelp("Points from the monitor's edges with '--anchor', 0…1000.", valueName: "points"))
    var margin: Int?

    func validate(required: Bool) throws {
        if at != nil, anchor != nil { throw ValidationError("give '--at' or '--anchor', not both") }
        if required, at == nil, anchor == nil, margin != nil {
            throw ValidationError("'--margin' goes with '--anchor'")
        }
        if let at, Placement.parsePoint(at) == nil {
            throw ValidationError(
                """
                '--at' must be X,Y in points, each 0…\(Placement.coordinateRange.upperBound), e.g. 40,60; got \
                '\(at)'
                """)
        }
        if let anchor, Anchor(rawValue: anchor) == nil {
            throw ValidationError("'--anchor' must be one of \(Anchor.names); got '\(anchor)'")
        }
        if let margin, !Placement.marginRange.contains(margin) {
            throw ValidationError(
                "'--margin' \(margin) is out of range; allowed 0…\(Placement.marginRange.upperBound)")
        }
        if margin != nil, at != nil { throw ValidationError("'--margin' goes with '--anchor', not '--at'") }
    }

    /// nil when no place was given.
    var placement: Placement? {
        if let at, let p = Placement.parsePoint(at) { return .at(x: p.x, y: p.y) }
        if let anchor { return .anchor(Anchor(rawValue: anchor)!, marginPoints: margin ?? 24) }
        return nil
    }
}

extension Weaver.Desktop {
    struct Add: ParsableCommand {
        // Every command names itself: the default, `String(describing: Self.self)`, costs a scan
        // of the whole conformance table at each start of `weaver` (issue 41 item 25).
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Put a design (or the Noise Machine widget: 'noise-machine') on the desktop.",
            usage:
                """
                weaver desktop add <design> [--family <family>]
                  [--at <x,y> | --anchor <corner> [--margin <points>]]
                  [--monitor <n|all>] [--store <dir>]
                """,
            discussion:
                """
                Without a place it goes to the top-right corner, 24 points in. A running 'weaver desktop' shows it \
                at once.
                """
        )

        @Argument(help: "Design ID, unique ID prefix or name; 'noise-machine' for the Noise Machine widget.")
        var design: String

        @Option(help: ArgumentHelp("small|medium|large|circular|rectangular|inline.", valueName: "family"))
        var family: String = "small"

        @OptionGroup var place: PlacementOptions

        @Option(
            numeric: ArgumentHelp("Monitor number (0 first, 0…15) or 'all' for a copy on each.", valueName: "n|all"))
        var monitor: String = "0"

        @OptionGroup var store: StoreOption

        func validate() throws {
            guard WidgetFamily.parse(family) != nil else {
                throw ValidationError(
                    "'--family' must be one of small, medium, large, circular, rectangular, inline; got '\(family)'")
            }
            guard MonitorChoice.parse(monitor) != nil else {
                throw ValidationError("'--monitor' must be a number 0…15 or 'all'; got '\(monitor)'")
            }
            try place.validate(required: true)
        }

        func run() throws {
            let reference: String
            let name: String
            if ["noise-machine", "noise"].contains(design.lowercased()) {
                reference = PinnedWidget.noiseMachineDesign
                name = "Noise Machine"
            } else {
                let found = try store.library.resolve(design)
                reference = found.id.uuidString
                name = found.name
            }
            let family = WidgetFamily.parse(family)!
            let placement = place.placement ?? .anchor(.topRight, marginPoints: 24)
            var added: PinnedWidget?
            try DesktopWidgetList.update(store.root, warn: { printWarning($0) }) { list in
                guard list.widgets.count < DesktopWidgetList.maxWidgets else {
                    throw CommandError(
                        """
                        the desktop already has \(DesktopWidgetList.maxWidgets) widgets, the most it holds; remove \
                        one first ('weaver desktop list')
                        """
                    )
                }
                let widget = PinnedWidget(
                    id: list.nextID, design: reference, family: family, placement: placement,
                    monitor: MonitorChoice.parse(monitor)!)
                list.widgets.append(widget)
                added = widget
            }
            guard let added else { return }
            print(
                """
                Added \(name) (\(family.rawValue)) as desktop widget \(added.id), \(added.placement), \
                \(added.monitor).
                """
            )
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the widgets on the desktop.")

        @Flag(help: "As JSON.")
        var json = false

        @OptionGroup var store: StoreOption

        func run() throws {
            let list = try DesktopWidgetList.load(store.root, warn: { printWarning($0) })
            let names =
                (try? store.library.summaries()).map {
                    Dictionary($0.map { ($0.id.uuidString, $0.name) }, uniquingKeysWith: { a, _ in a })
                } ?? [:]
            func name(_ w: PinnedWidget) -> String {
                w.isNoiseMachine ? "Noise Machine" : names[w.design] ?? "(design \(w.design.prefix(8)) is gone)"
            }
            if json {
                printJSON(
                    .array(
                        list.widgets.map { w in
                            .object([
                                "id": .number(Double(w.id)), "design": .string(w.design), "name": .string(name(w)),
                                "family": .string(w.family.rawValue), "place": .string(w.placement.description),
                                "monitor": .string(w.monitor.description),
                            ])
                        }))
                return
            }
            guard !list.widgets.isEmpty else {
                print("No widgets on the desktop; add one with 'weaver desktop add DESIGN'.")
                return
            }
            for w in list.widgets {
                print(
                    """
                    \(pad(String(w.id), 4))\(pad(clip(name(w), 28), 30))\(pad(w.family.rawValue, 13))\
                    \(pad(w.placement.description, 18))\(w.monitor)
                    """
                )
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take a widget off the desktop (its design is kept).")

        @Argument(help: "The widget's number from 'weaver desktop list'.")
        var id: Int

        @OptionGroup var store: StoreOption

        func run() throws {
            try DesktopWidgetList.update(store.root, warn: { printWarning($0) }) { list in
                guard list.widget(id) != nil else { throw CommandError(Self.missing(id, list)) }
                list.widgets.removeAll { $0.id == id }
            }
            print("Removed desktop widget \(id).")
        }

        static func missing(_ id: Int, _ list: DesktopWidgetList) -> String {
            list.widgets.isEmpty
                ? "there is no desktop widget \(id): the desktop has none"
                : """
                there is no desktop widget \(id); the desktop has \
                \(list.widgets.map { String($0.id) }.joined(separator: ", ")) (see 'weaver desktop list')
                """
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a widget to another place or monitor.",
            usage:
                """
                weaver desktop move <id> [--at <x,y> | --anchor <corner>]
                  [--margin <points>] [--monitor <n|all>] [--store <dir>]
                """
        )

        @Argument(help: "The widget's number from 'weaver desktop list'.")
        var id: Int

        @OptionGroup var place: PlacementOptions

        @Option(numeric: ArgumentHelp("Monitor number (0…15) or 'all'.", valueName: "n|all"))
        var monitor: String?

        @OptionGroup var store: StoreOption

        func validate() throws {
            try place.validate(required: false)
            if let monitor, MonitorChoice.parse(monitor) == nil {
                throw ValidationError("'--monitor' must be a number 0…15 or 'all'; got '\(monitor)'")
            }
            if place.placement == nil, monitor == nil, place.margin == nil {
                throw ValidationError("say where: '--at X,Y', '--anchor CORNER [--margin N]' or '--monitor N|all'")
            }
        }

        func run() throws {
            var moved: PinnedWidget?
            try DesktopWidgetList.update(store.root, warn: { printWarning($0) }) { list in
                guard let i = list.widgets.firstIndex(where: { $0.id == id }) else {
                    throw CommandError(Remove.missing(id, list))
                }
                if let p = place.placement {
                    list.widgets[i].placement = p
                } else if let margin = place.margin {
                    guard case .anchor(let a, _) = list.widgets[i].placement else {
                        throw CommandError(
                            "desktop widget \(id) is placed with '--at'; '--margin' needs '--anchor' too")
                    }
                    list.widgets[i].placement = .anchor(a, marginPoints: margin)
                }
                if let monitor { list.widgets[i].monitor = MonitorChoice.parse(monitor)! }
                moved = list.widgets[i]
            }
            if let moved { print("Moved desktop widget \(id): \(moved.placement), \(moved.monitor).") }
        }
    }
}
