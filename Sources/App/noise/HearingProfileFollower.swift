import ChangeWatch
import Foundation
import NoiseControl
import NoiseEngine
import SharedStore

/// Keeps a playing `--hearing auto` correction on the device's stored profile: when `noise hearing
/// calibrate` or the browser's Calibrate page saves it (or `noise hearing remove` removes it), the
/// player takes the new one within a fraction of a second instead of at the next `noise play`.
///
/// Why through the control socket: the change is then one more `hearing` request, handled where
/// `noise set --hearing` is (one place that combines it with the notch, ramps it in without a gap
/// and says it in `noise status`), in turn with every other client's.
///
/// It follows only while the correction playing is the device's profile or none: one set since by
/// `noise set --hearing FILE|iso226:PHON` is the user's choice and is kept. (A correction turned
/// off with `noise set --hearing off` while the device had no profile cannot be told from auto
/// without one, and is followed.)
final class HearingProfileFollower: Sendable {
    let device: String
    let store: HearingProfileStore
    let watcher: ChangeWatcher
    let client: ControlClient

    /// How `noise status` names the correction this follows (as `PlaybackSession.applyHearing`).
    static func label(device: String) -> String { "the profile of \(device)" }

    /// - Throws: `ChangeWatchError` when the store's folder cannot be watched.
    init(device: String, store: StoreRoot, client: ControlClient = ControlClient()) throws {
        self.device = device
        self.store = HearingProfileStore(root: store)
        self.client = client
        // The file, through its folder: calibration saves by renaming a temporary over it.
        watcher = try ChangeWatcher(files: [self.store.url(device: device).path])
    }

    /// Starts watching on a thread of its own; `stop()` ends it.
    func start(status: @escaping @Sendable () -> PlayerStatus) {
        let label = Self.label(device: device)
        watcher.start(
            { [self] _ in
                let playing = status().hearing
                guard playing == nil || playing?.hasPrefix(label) == true else { return }
                apply(label: label)
            },
            onError: { Terminal.printError("warning: not following the hearing profile: \($0)") })
    }

    func stop() {
        watcher.stop()
        watcher.wait()
    }

    /// Loads the device's profile and hands it to the player (none, or one still being calibrated: off).
    private func apply(label: String) {
        do {
            let loaded = try store.load(device: device)
            for m in loaded.messages { Terminal.printError("warning: \(m)") }
            let curve = loaded.profile.flatMap { $0.complete ? $0.correction : nil }
            let response = try client.send(
                .hearing(label: label, centresHz: curve?.centresHz ?? [], gainsDb: curve?.gainsDb ?? []))
            if case .error(let message) = response {
                Terminal.printError("warning: the player refused the new hearing profile: \(message)")
            } else {
                let bands = curve.map { "\($0.centresHz.count) bands" }
                Terminal.printError(
                    bands.map { "Hearing correction: the profile of \(device), saved again (\($0))." }
                        ?? "Hearing correction off: \(device) has no calibrated profile now.")
            }
        } catch {
            Terminal.printError("warning: cannot take the new hearing profile of \(device): \(error)")
        }
    }
}
