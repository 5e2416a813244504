import Foundation
import Synchronization
import WidgetDesign

/// The Editor's unsaved drafts, one per design, kept by the server (not in the library) so a
/// reloaded page finds its edits. Held in memory: a draft lives as long as this `weaver serve`.
/// Bounded: at most `capacity` drafts; the least recently touched goes first.
public final class DraftStore: Sendable {
    public static let capacity = 64

    private struct Held {
        var spec: WidgetSpec
        var touched: UInt64
    }
    private struct State {
        var drafts: [String: Held] = [:]
        var clock: UInt64 = 0
    }
    private let state = Mutex(State())

    public init() {}

    public func draft(_ id: String) -> WidgetSpec? {
        state.withLock { s in
            guard var held = s.drafts[id] else { return nil }
            s.clock += 1
            held.touched = s.clock
            s.drafts[id] = held
            return held.spec
        }
    }

    public func set(_ id: String, _ spec: WidgetSpec) {
        state.withLock { s in
            s.clock += 1
            s.drafts[id] = Held(spec: spec, touched: s.clock)
            while s.drafts.count > Self.capacity,
                let oldest = s.drafts.min(by: { $0.value.touched < $1.value.touched })?.key
            {
                s.drafts[oldest] = nil
            }
        }
    }

    public func discard(_ id: String) {
        _ = state.withLock { $0.drafts.removeValue(forKey: id) }
    }
}
