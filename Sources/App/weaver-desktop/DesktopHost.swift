import CGtk
import DesktopWidgets
import Foundation
import LiveWidgets
import LoginEntryFiles
import SharedStore
import Synchronization
import WidgetDesign
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// The desktop host: a window for each widget in the store's desktop.json (on each monitor it
/// names), drawn by the one renderer, kept up to date by `StoreWakeups` (the same wake-ups as
/// `weaver serve` and `render --watch`: store files, the minute, the player's exit), plus the
/// list file itself. GTK runs on the main thread; the watcher's thread only schedules work there.
final class DesktopHost {
    let root: StoreRoot
    let storeDirectory: String?
    let display: OpaquePointer
    /// Wayland with the layer-shell protocol (wlroots compositors, KDE): bottom-layer surfaces.
    let usesLayerShell: Bool
    let isX11: Bool
    let renderer = WidgetRenderer()
    /// Log each draw to standard error (`WEAVER_DESKTOP_LOG_DRAWS=1`): the tests time redraws by it.
    let logsDraws = ProcessInfo.processInfo.environment["WEAVER_DESKTOP_LOG_DRAWS"] == "1"
    private(set) var windows: [WindowKey: WidgetWindow] = [:]
    private var wakeups: StoreWakeups?
    /// Set by the watcher's thread, cleared by the main thread: at most one refresh queued.
    private let refreshQueued = Atomic(false)

    struct WindowKey: Hashable {
        var widgetID: Int
        var monitor: Int
    }

    /// The one host: GTK's C callbacks reach it through here, on the main thread only.
    nonisolated(unsafe) static var shared: DesktopHost?

    init(root: StoreRoot, storeDirectory: String?, display: OpaquePointer) {
        self.root = root
        self.storeDirectory = storeDirectory
        self.display = display
        let wayland = ww_gdk_is_wayland(display) != 0
        usesLayerShell = wayland && gtk_layer_is_supported() != 0
        isX11 = ww_gdk_is_x11(display) != 0
    }

    static func main(arguments: [String]) -> Int32 {
        var storeDirectory: String?
        var rest = arguments[...]
        while let a = rest.popFirst() {
            switch a {
            case "--store":
                guard let dir = rest.popFirst() else { return fail("'--store' needs a folder") }
                storeDirectory = dir
            default:
                return fail("unknown argument '\(a)' (weaver-desktop is started by 'weaver desktop')")
            }
        }
        let env = ProcessInfo.processInfo.environment
        guard env["WAYLAND_DISPLAY"]?.isEmpty == false || env["DISPLAY"]?.isEmpty == false else {
            return fail(DesktopSession.noDisplayMessage)
        }
        // The widgets are drawn with Cairo, never GL. Without this, GDK probes GLX at start-up for
        // its visuals, which on Mesa's software driver maps libLLVM: 100 MB resident instead of 46
        // (measured: debug build, two widgets, Xvfb). A user's own GDK_GL setting is kept.
        setenv("GDK_GL", "disable", 0)
        guard gtk_init_check(nil, nil) != 0, let display = gdk_display_get_default() else {
            return fail("cannot open the display (\(DesktopSession.describe(env))): is the graphical session running?")
        }
        let root = StoreRoot.resolve(override: storeDirectory)
        // What a button hands on (a "resume at login" entry, a player it starts) names the store
        // chosen by `$WIDGETWEAVER_HOME` too, as every other command does; nil means the default.
        let handedOn = LoginEntryTarget.storeDirectory(path: storeDirectory, environment: env)
        let host = DesktopHost(root: root, storeDirectory: handedOn, display: display)
        shared = host
        if ww_gdk_is_wayland(display) != 0, !host.usesLayerShell {
            warn(
                """
                this Wayland compositor has no layer-shell protocol (GNOME has none): widgets are ordinary windows \
                there, not on the desktop layer
                """
            )
        }
        do {
            try host.start()
        } catch {
            return fail("\(error)")
        }
        for sig in [SIGINT, SIGTERM] {
            g_unix_signal_add(
                sig,
                { _ in
                    gtk_main_quit()
                    return 0
                }, nil)
        }
        gtk_main()
        host.wakeups?.stop()
        host.wakeups?.wait()
        return 0
    }

    func start() throws {
        let wakeups = try StoreWakeups(root: root, alsoWatching: [DesktopWidgetList.url(root).path], warn: { warn($0) })
        self.wakeups = wakeups
        // A monitor plugged in or out: windows for `--monitor all` and fallbacks follow.
        for signal in ["monitor-added", "monitor-removed"] {
            g_signal_connect_data(
                UnsafeMutableRawPointer(display), signal, unsafeBitCast(Self.onMonitorsChanged, to: GCallback.self),
                nil, nil, GConnectFlags(rawValue: 0))
        }
        reconcile()
        let shown = windows.count
        warn(
            """
            showing \(shown) widget window\(shown == 1 ? "" : "s") from \
            \(DesktopWidgetList.url(root).path)\
            \(usesLayerShell ? " on the bottom layer" : isX11 ? " as X11 desktop windows" : "")
            """,
            prefix: "weaver desktop: ")
        // The watcher's first call repeats the draw above (same layouts: nothing is redrawn); it also
        // covers a change made between that draw and the watch starting.
        wakeups.start(
            { DesktopHost.shared?.scheduleRefresh() },
            onError: { error in warn("stopped watching the store: \(error)") })
        // Once the windows are up and drawn: see CodeResidency.
        g_timeout_add_seconds(
            2,
            { _ in
                CodeResidency.trim()
                return 0
            }, nil)
    }

    private static let onMonitorsChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = {
        _, _, _ in
        DesktopHost.shared?.monitorsChanged = true
        DesktopHost.shared?.scheduleRefresh()
    }
    /// Set when monitors came or went: every window is placed again at the next refresh.
    private var monitorsChanged = false

    /// From any thread: refresh on the main loop (once, however many wake-ups arrive meanwhile).
    func scheduleRefresh() {
        guard refreshQueued.exchange(true, ordering: .acquiringAndReleasing) == false else { return }
        g_idle_add(
            { _ in
                DesktopHost.shared?.refreshQueued.store(false, ordering: .releasing)
                DesktopHost.shared?.reconcile()
                return 0
            }, nil)
    }

    /// Makes the windows match desktop.json and the monitors, then lays every widget out again and
    /// redraws those whose layout changed.
    func reconcile() {
        let list: DesktopWidgetList
        do {
            list = try DesktopWidgetList.load(root, warn: { warn($0) })
        } catch {
            warn("\(DesktopWidgetList.url(root).path): \(error); keeping the widgets shown")
            return
        }
        let monitorCount = Int(gdk_display_get_n_monitors(display))
        var wanted: Set<WindowKey> = []
        for pinned in list.widgets {
            for monitor in pinned.monitor.monitors(count: monitorCount) {
                let key = WindowKey(widgetID: pinned.id, monitor: monitor)
                wanted.insert(key)
                if let existing = windows[key] {
                    if existing.pinned != pinned {
                        existing.pinned = pinned
                        existing.place()
                    }
                } else {
                    windows[key] = WidgetWindow(host: self, pinned: pinned, monitor: monitor)
                }
            }
        }
        for (key, window) in windows where !wanted.contains(key) {
            window.close()
            windows[key] = nil
        }
        if monitorsChanged {
            monitorsChanged = false
            for window in windows.values { window.place() }
        }
        let now = Date()
        var designs: [String: Result<WidgetSpec, any Error>] = [:]
        for window in windows.values.sorted(by: { ($0.pinned.id, $0.monitor) < ($1.pinned.id, $1.monitor) }) {
            let design =
                designs[window.pinned.design]
                ?? Result { try window.pinned.loadDesign(root: root, now: now, warn: { warn($0) }) }
            designs[window.pinned.design] = design
            window.update(design: design, now: now)
        }
    }

    func monitorGeometry(_ index: Int) -> GdkRectangle {
        var rect = GdkRectangle()
        if let monitor = gdk_display_get_monitor(display, Int32(index)) {
            gdk_monitor_get_geometry(monitor, &rect)
        }
        return rect
    }

    /// Removes a widget from desktop.json (the right-click menu); the file's wake-up closes it.
    func remove(widgetID: Int) {
        do {
            try DesktopWidgetList.update(root, warn: { warn($0) }) { list in
                list.widgets.removeAll { $0.id == widgetID }
            }
        } catch {
            warn("cannot remove widget \(widgetID): \(error)")
        }
    }

    /// Stores a widget's new place after a move (points from its monitor's corner).
    func store(widgetID: Int, at point: (x: Int, y: Int)) {
        do {
            try DesktopWidgetList.update(root, warn: { warn($0) }) { list in
                guard let i = list.widgets.firstIndex(where: { $0.id == widgetID }) else { return }
                list.widgets[i].placement = .at(x: max(0, point.x), y: max(0, point.y))
            }
        } catch {
            warn("cannot store widget \(widgetID)'s new place: \(error)")
        }
    }
}

func warn(_ message: String, prefix: String = "warning: ") {
    FileHandle.standardError.write(Data((prefix + message + "\n").utf8))
}

func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    return 1
}
