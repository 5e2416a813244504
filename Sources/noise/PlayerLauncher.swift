import NoiseEngine
import SharedStore

/// Starts a live player for `noise resume` when none runs.
///
/// Contract for the engine side: play `mix` in this process (foreground, like `noise play`, so a
/// systemd `Type=simple` unit can own it), with `presetID` as its preset; publish status to
/// `store` and listen on the control socket while playing; return when playback ends.
enum PlayerLauncher {
    static func startPlayer(mix: Mix, presetID: String?, store: StoreRoot = StoreRoot.resolve()) throws {
        throw CLIError("starting a player from 'noise resume' is not wired yet (the live engine is being built)")
    }
}
