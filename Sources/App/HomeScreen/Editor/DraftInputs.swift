import Foundation
import WidgetDesign
import WidgetRender

/// The store's inputs read once per redraw of the Editor's dock, not once per picture: the page
/// asks for six sizes of one draft together, naming the redraw (`draw=N`); the first request
/// reads the inputs (variables, snapshots, the player's status, decoded images) and the other
/// five draw from the same value, so the six pictures also agree on the moment they show.
/// A new redraw (an edit, a store change, a tried button) has a new name and reads afresh.
final class DraftInputs: @unchecked Sendable {
    struct Key: Hashable {
        var redraw: String
        var spec: WidgetSpec
        var trial: [String: String]
        var sample: Bool
        var appearance: Appearance
    }

    /// A dock draws six pictures per redraw; a few redraws (two tabs, a superseded redraw still
    /// being answered) may overlap. Older entries are dropped first, and every entry after
    /// `lifetimeSeconds`: decoded photos are large, and a redraw's requests arrive together.
    static let capacity = 4
    static let lifetimeSeconds = 2.0
    private let lock = NSLock()
    private var entries: [(key: Key, inputs: RenderInputs, readAt: TimeInterval)] = []

    /// The inputs for `key`, read by `read` only when no request of the same redraw read them.
    func inputs(for key: Key, read: () -> RenderInputs) -> RenderInputs {
        let kept: RenderInputs? = lock.withLock {
            let now = ProcessInfo.processInfo.systemUptime
            entries.removeAll { now - $0.readAt > Self.lifetimeSeconds }
            return entries.first { $0.key == key }?.inputs
        }
        if let kept { return kept }
        let fresh = read()
        lock.withLock {
            guard !entries.contains(where: { $0.key == key }) else { return }
            entries.append((key, fresh, ProcessInfo.processInfo.systemUptime))
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        }
        return fresh
    }

    /// How many redraws' inputs are kept now (for tests).
    var count: Int { lock.withLock { entries.count } }
}
