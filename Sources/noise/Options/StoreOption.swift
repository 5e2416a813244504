import ArgumentParser
import Foundation
import SharedStore

/// `--store DIR`, taken by every command that reads or writes the shared store.
struct StoreOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The shared store folder.", discussion:
        "Default: $WIDGETWEAVER_HOME, else $XDG_STATE_HOME/widgetweaver (~/.local/state/widgetweaver).",
        valueName: "DIR"))
    var store: String?

    var root: StoreRoot { StoreRoot.resolve(override: store) }

    /// The folder to hand on to a process started later (autostart), when the user chose one.
    var explicitDirectory: String? {
        if let store, !store.isEmpty { return URL(fileURLWithPath: store).standardizedFileURL.path }
        if let home = ProcessInfo.processInfo.environment["WIDGETWEAVER_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).standardizedFileURL.path
        }
        return nil
    }
}
