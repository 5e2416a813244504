import ArgumentParser
import NoiseEngine
import SharedStore

/// Starts a live player for `noise resume` when none runs: the same session as `noise play`, in
/// the foreground (a systemd `Type=simple` unit owns the process), with default output settings.
enum PlayerLauncher {
    static func startPlayer(mix: Mix, presetID: String?, store: StoreRoot = StoreRoot.resolve()) throws {
        let settings = try PlaybackOptions.parse([]).parsed()
        Terminal.installInterruptHandlers()
        let session = PlaybackSession(
            mix: mix, label: presetID ?? "Last Mix", presetID: presetID,
            seed: UInt64.random(in: 0...UInt64(UInt32.max)), settings: settings, store: store)
        try session.run(timerSeconds: nil, fadeSeconds: RenderPlan.defaultFadeSeconds)
    }
}
