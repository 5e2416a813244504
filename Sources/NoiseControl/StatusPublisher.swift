import Foundation

/// Publishes a player's status: writes `status.json` and tells control-socket subscribers, on
/// every change (`publishNow()`) and once per `intervalSeconds` on its own thread, so readers can
/// tell a live player (fresh `updatedAt`) from a dead one.
///
/// **Real-time safety:** none of this may run on the audio thread; `snapshot` is called on the
/// publisher's thread and should read the engine's atomics/state, not lock the render path.
public final class StatusPublisher: @unchecked Sendable {
    // Invariant: the `var`s are accessed with `condition` held.
    private let condition = NSCondition()
    private var isClosed = false
    private var threadDone = true
    private var wakeRequested = false
    private var lastBroadcast: PlayerStatus?

    public let store: StatusStore
    public let server: ControlServer?
    public let intervalSeconds: Double
    private let snapshot: @Sendable () -> PlayerStatus
    private let onError: @Sendable (Error) -> Void
    private let writeLock = NSLock()

    public init(store: StatusStore, server: ControlServer?, intervalSeconds: Double = 1,
                snapshot: @escaping @Sendable () -> PlayerStatus,
                onError: @escaping @Sendable (Error) -> Void = { _ in }) {
        self.store = store
        self.server = server
        self.intervalSeconds = intervalSeconds
        self.snapshot = snapshot
        self.onError = onError
    }

    public func start() {
        condition.lock()
        threadDone = false
        condition.unlock()
        let thread = Thread { [self] in run() }
        thread.name = "StatusPublisher"
        thread.start()
    }

    /// Publishes at once on the caller's thread (after a command changed the player).
    public func publishNow() {
        publish(snapshot())
    }

    /// Stops the thread and publishes `final` (normally the `stopped` status) as the last word.
    public func stop(final: PlayerStatus?) {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !threadDone { condition.wait() }
        condition.unlock()
        if let final { publish(final) }
    }

    private func run() {
        condition.lock()
        while !isClosed {
            _ = condition.wait(until: Date().addingTimeInterval(intervalSeconds))
            if isClosed { break }
            condition.unlock()
            publish(snapshot())
            condition.lock()
        }
        threadDone = true
        condition.broadcast()
        condition.unlock()
    }

    private func publish(_ status: PlayerStatus) {
        writeLock.lock()
        defer { writeLock.unlock() }
        do { try store.write(status) } catch { onError(error) }
        // Subscribers get a line per change; the periodic rewrite that only refreshes updatedAt
        // is not a change for them.
        var comparable = status
        comparable.updatedAt = .distantPast
        condition.lock()
        let changed = comparable != lastBroadcast
        lastBroadcast = comparable
        condition.unlock()
        if changed { server?.broadcast(status: status) }
    }
}
