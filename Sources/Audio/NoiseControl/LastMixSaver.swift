import Foundation
import NoiseEngine

/// Saves the playing mix as the Last Mix without touching the store on every slider step: the
/// first change is written at once, later ones are coalesced so at most one write happens per
/// `minimumIntervalSeconds`, and `flush()` writes whatever is pending (call it when playback stops).
///
/// Runs its own control thread. **Real-time safety:** `submit` takes a lock and may allocate; call
/// it from a control thread, never from the audio render callback.
///
/// Each write is a locked read-modify-write, so it keeps `resumeOnLaunch` as `noise autostart`
/// set it even while the player runs.
public final class LastMixSaver: @unchecked Sendable {
    // Invariant: every stored property below `condition` is read and written with it held.
    private let condition = NSCondition()
    private var pending: Snapshot?
    private var lastWriteAt: Date = .distantPast
    private var isClosed = false
    private var threadDone = false
    private var writes = 0
    /// Serialises writes so a `flush()` and the thread never write an older snapshot after a newer one.
    private let writeLock = NSLock()

    public let store: LastMixStore
    public let minimumIntervalSeconds: Double
    private let onError: @Sendable (Error) -> Void

    struct Snapshot {
        var mix: Mix
        var presetID: String?
        var wasPlaying: Bool
    }

    public init(
        store: LastMixStore, minimumIntervalSeconds: Double = 1,
        onError: @escaping @Sendable (Error) -> Void = { _ in }
    ) {
        self.store = store
        self.minimumIntervalSeconds = minimumIntervalSeconds
        self.onError = onError
        let thread = Thread { [self] in run() }
        thread.name = "LastMixSaver"
        thread.start()
    }

    /// Records the mix to save; returns at once.
    public func submit(mix: Mix, presetID: String?, wasPlaying: Bool) {
        condition.lock()
        pending = Snapshot(mix: mix, presetID: presetID, wasPlaying: wasPlaying)
        condition.signal()
        condition.unlock()
    }

    /// Writes the pending snapshot now, if any (blocking, on the caller's thread).
    public func flush() {
        writeLock.lock()
        defer { writeLock.unlock() }
        condition.lock()
        let snapshot = pending
        pending = nil
        condition.unlock()
        if let snapshot { write(snapshot) }
    }

    /// Flushes and stops the thread. The saver accepts no more work afterwards.
    public func close() {
        flush()
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !threadDone { condition.wait() }
        condition.unlock()
    }

    /// Writes so far (for tests and diagnostics).
    public var writeCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return writes
    }

    private func run() {
        condition.lock()
        while !isClosed {
            guard pending != nil else {
                condition.wait()
                continue
            }
            let due = lastWriteAt.addingTimeInterval(minimumIntervalSeconds)
            if Date() < due {
                _ = condition.wait(until: due)
                continue
            }
            condition.unlock()
            flush()
            condition.lock()
        }
        threadDone = true
        condition.broadcast()
        condition.unlock()
    }

    private func write(_ s: Snapshot) {
        do {
            try store.update { last in
                last.mix = s.mix
                last.presetID = s.presetID
                last.wasPlaying = s.wasPlaying
            }
        } catch {
            onError(error)
        }
        condition.lock()
        lastWriteAt = Date()
        writes += 1
        condition.unlock()
    }
}
