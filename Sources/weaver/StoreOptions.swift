import ArgumentParser
import SharedStore

/// `--store DIR`, shared by every command that reads or writes the shared store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Store folder (default: $WIDGETWEAVER_HOME, else $XDG_STATE_HOME/widgetweaver, else ~/.local/state/widgetweaver).",
        valueName: "dir"))
    var storePath: String?

    var root: StoreRoot { StoreRoot.resolve(override: storePath) }
}
