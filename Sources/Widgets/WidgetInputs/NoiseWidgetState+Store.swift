import Foundation
import NoiseControl
import SharedStore
import WidgetRender

/// The Noise Machine widget's state read from the Last Mix and the status feed (`status.json`).
extension NoiseWidgetState {
    /// The state now: a live (non-stale) status wins; otherwise the Last Mix, shown stopped (a
    /// dead player is stopped, whatever it last said). Messages name set-aside or repaired files.
    public static func load(from root: StoreRoot, now: Date, warn: (String) -> Void = { _ in }) -> NoiseWidgetState {
        var lastMix: LastMix?
        do {
            let loaded = try LastMixStore(root: root).load()
            loaded.messages.forEach(warn)
            lastMix = loaded.lastMix
        } catch {
            warn("\(root.lastMix.path): \(error)")
        }
        var status: PlayerStatus?
        do {
            switch try StatusStore(root: root).read() {
            case .loaded(let s): status = s.effective(now: now)
            case .missing: break
            case .setAside(let reason, let url): warn(SetAsideNotice.text(root.status, reason: reason, movedTo: url))
            }
        } catch {
            warn("\(root.status.path): \(error)")
        }
        return make(status: status, lastMix: lastMix, now: now)
    }
}
