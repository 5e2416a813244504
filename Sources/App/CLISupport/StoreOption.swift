import ArgumentParser
import Foundation
import LoginEntryFiles
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

    /// The folder to hand on to a process started later (a detached player, a widget button's
    /// login entry): the one the user chose with `--store` or `$WIDGETWEAVER_HOME`, absolute; nil
    /// when neither was given, so the later process resolves the default itself
    /// (`LoginEntryTarget.storeDirectory`).
    public var explicitDirectory: String? {
        LoginEntryTarget.storeDirectory(path: path, environment: ProcessInfo.processInfo.environment)
    }

    /// What a login entry or timer written for this store points at: every entry both tools
    /// write takes it from here, so `noise autostart`, `noise schedule`, `weaver weather
    /// autorefresh` and `weaver desktop` cannot point at different stores.
    public func loginEntryTarget(executable: URL) -> LoginEntryTarget {
        LoginEntryTarget.resolve(executable: executable, storePath: path)
    }
}
