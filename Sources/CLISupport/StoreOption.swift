import ArgumentParser
import Foundation
import SharedStore

/// `--store DIR`, taken by every command of both tools that reads or writes the shared store, so
/// they resolve the same folder the same way (`StoreRoot.resolve`).
public struct StoreOption: ParsableArguments, Sendable {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            """
            The shared store folder (default: $WIDGETWEAVER_HOME, else $XDG_STATE_HOME/widgetweaver, else \
            ~/.local/state/widgetweaver).
            """,
            valueName: "dir"))
    public var path: String?

    public init() {}

    public var root: StoreRoot { StoreRoot.resolve(override: path) }

    /// The folder to hand on to a process started later (a login entry, a timer, a detached
    /// player): the one the user chose with `--store` or `$WIDGETWEAVER_HOME`, absolute; nil when
    /// neither was given, so the later process resolves the default itself. Every login entry
    /// both tools write takes it from here, so `noise autostart`, `weaver weather autorefresh`
    /// and `weaver desktop` cannot point at different stores.
    public var explicitDirectory: String? {
        Self.explicitDirectory(path: path, environment: ProcessInfo.processInfo.environment)
    }

    public static func explicitDirectory(path: String?, environment: [String: String]) -> String? {
        if let path, !path.isEmpty { return URL(fileURLWithPath: path).standardizedFileURL.path }
        if let home = environment["WIDGETWEAVER_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).standardizedFileURL.path
        }
        return nil
    }
}
