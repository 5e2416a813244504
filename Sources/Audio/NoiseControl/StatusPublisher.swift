import Foundation
import PlayerLiveness

/// Publishes a player's status: tells control-socket subscribers and rewrites `status.json` on
/// every change (`publishNow()` after a command, and a check once per `intervalSeconds` on its own
/// thread for changes the engine makes by itself).
///
/// **A quiet night:** `status.json` is written (atomically, with fsync) only when the status
/// *means* something new (`PlayerStatus.differsMeaningfully`): not for the level meter, not for
/// the timer counting down. Liveness goes to the `heartbeat` instead, a file under
/// `$XDG_RUNTIME_DIR` whose mtime is refreshed each interval with no data and no fsync.
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
    private var lastWritten: PlayerStatus?

    public let store: StatusStore
    public let server: ControlServer?
    public let intervalSeconds: Double
    public let heartbeat: PlayerHeartbeat?
    private let snapshot: @Sendable () -> PlayerStatus
    private let onError: @Sendable (Error) -> Void
    private let writeLock = NSLock()

    public init(
        store: StatusStore, server: ControlServer?, intervalSeconds: Double = 1,
        heartbeat: PlayerHeartbeat? = nil,
        snapshot: @escaping @Sendable () -> PlayerStatus,
        onError: @escaping @Sendable (Error) -> Void = { _ in }
    ) {
        self.store = store
        self.server = server
        self.intervalSeconds = intervalSeconds
        self.heartbeat = heartbeat
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
        if let final { publish(final, force: true) }
        heartbeat?.stop()
    }

    private func run() {
        condition.lock()
        while !isClosed {
            _ = condition.wait(until: Date().addingTimeInterval(intervalSeconds))
            if isClosed { break }
            condition.unlock()
            heartbeat?.beat()
            publish(snapshot())
            condition.lock()
        }
        threadDone = true
        condition.broadcast()
        condition.unlock()
    }

    private func publish(_ status: PlayerStatus, force: Bool = false) {
        writeLock.lock()
        defer { writeLock.unlock() }
        if force || status.differsMeaningfully(from: lastWritten) {
            do {
                try store.write(status)
                lastWritten = status
            } catch { onError(error) }
        }
        // Subscribers (a socket, no disk) get a line per change, the level meter included; a
        // status that differs only in updatedAt is not a change for them.
        var comparable = status
        comparable.updatedAt = .distantPast
        condition.lock()
        let changed = comparable != lastBroadcast
        lastBroadcast = comparable
        condition.unlock()
        if changed { server?.broadcast(status: status) }
    }
}
