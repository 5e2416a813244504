import CGtk
import Foundation
import LoginEntryFiles
import NetworkAddress
import SharedStore
import SystemCalls
import WidgetActions
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// Performs a pressed button exactly as `weaver tap` does (`WidgetActionPerformer`), off the GTK
/// thread: starting a player waits for it to answer (seconds at worst), and the widgets keep
/// drawing meanwhile. One queue, so two quick presses are performed in order.
enum ActionRunner {
    private static let queue = DispatchQueue(label: "weaver-desktop.actions")

    /// - Parameter done: called on the main loop after the press, with what it did (nil: refused).
    static func perform(
        _ action: ActionArea, root: StoreRoot, storeDirectory: String?, widgetID: Int,
        done: @escaping (WidgetActionOutcome?) -> Void = { _ in }
    ) {
        run(widgetID: widgetID, done: done) {
            try WidgetActionPerformer.perform(rendered: action, root: root, storeDirectory: storeDirectory)
        }
    }

    /// Takes a press back (the widget's Undo), in order with the presses.
    static func undo(
        _ press: WidgetActionUndo, root: StoreRoot, storeDirectory: String?, widgetID: Int,
        done: @escaping (WidgetActionOutcome?) -> Void
    ) {
        run(widgetID: widgetID, done: done) {
            try WidgetActionPerformer(store: root, storeDirectory: storeDirectory).undo(press)
        }
    }

    private static func run(
        widgetID: Int, done: @escaping (WidgetActionOutcome?) -> Void,
        _ body: @escaping () throws -> WidgetActionOutcome
    ) {
        queue.async {
            var result: WidgetActionOutcome?
            do {
                let outcome = try body()
                for w in outcome.warnings { warn(w) }
                warn("widget \(widgetID): \(outcome.message)", prefix: "weaver desktop: ")
                result = outcome
            } catch {
                warn("widget \(widgetID): \(error)")
            }
            MainLoop.after(milliseconds: 0) { done(result) }
        }
    }
}

/// Work handed to GTK's main loop from any thread (GTK is used from the main thread only).
enum MainLoop {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on the main loop after `milliseconds`.
    static func after(milliseconds: UInt32, _ body: @escaping () -> Void) {
        g_timeout_add(
            milliseconds,
            { data in
                Unmanaged<Job>.fromOpaque(data!).takeRetainedValue().body()
                return 0
            }, Unmanaged.passRetained(Job(body)).toOpaque())
    }
}

/// "Edit in browser": the design's editor in `weaver serve` (started in the background when
/// nothing answers on its port), opened with xdg-open.
enum BrowserEditor {
    /// `weaver serve`'s default port, or `WEAVER_DESKTOP_SERVE_PORT` for a home screen served on another.
    static let port: Int = {
        if let text = ProcessInfo.processInfo.environment["WEAVER_DESKTOP_SERVE_PORT"], let p = Int(text),
            (1...65535).contains(p)
        {
            return p
        }
        return 8765
    }()
    private static let queue = DispatchQueue(label: "weaver-desktop.browser")

    static func url(designID: UUID?) -> String {
        "http://127.0.0.1:\(port)/" + (designID.map { "editor/\($0.uuidString)" } ?? "")
    }

    static func open(designID: UUID?, root: StoreRoot, storeDirectory: String?) {
        queue.async {
            if !isListening() {
                let weaver = executableFolder().appendingPathComponent("weaver").path
                var command = [weaver, "serve", "--port", String(port)]
                if let storeDirectory { command += ["--store", storeDirectory] }
                background(command)
                let end = Date().addingTimeInterval(5)
                while !isListening() && Date() < end { usleep(100_000) }
            }
            background(["xdg-open", url(designID: designID)])
        }
    }

    /// Whether something accepts connections on 127.0.0.1:port.
    static func isListening() -> Bool { LoopbackProbe.accepts(port: port) }

    static func executableFolder() -> URL {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
    }

    /// Starts a program that outlives this one, through `sh -c '… &'`: the shell exits at once
    /// (reaped here) and the program is left to init, so no zombie waits on the host.
    static func background(_ command: [String]) {
        let quoted = command.compactMap { try? LoginEntries.shellWord($0) }
        guard quoted.count == command.count else { return }
        let line = quoted.joined(separator: " ") + " </dev/null >/dev/null 2>&1 &"
        guard let pid = try? Spawn.start("/bin/sh", ["-c", line], environment: ProcessInfo.processInfo.environment)
        else {
            warn("cannot start \(command[0])")
            return
        }
        Spawn.wait(pid)
    }
}
