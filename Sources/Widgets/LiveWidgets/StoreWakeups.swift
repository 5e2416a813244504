import ChangeWatch
import Foundation
import NoiseControl
import SharedStore

/// What wakes a live widget (the home screen of `weaver serve`, and `weaver render --watch`), all
/// in one `poll` of a `ChangeWatcher`, no polling loop:
/// - inotify: the status feed, the Last Mix, variables, Pro, snapshots, designs and their images;
/// - every wall-clock minute (clocks, relative times);
/// - the exit of the player the status feed names (a pidfd): a player killed with SIGKILL cannot
///   update the feed, which keeps saying "playing", and widgets show a dead player as stopped;
/// - the moment a playing status turns stale by its times (no status write nor heartbeat for
///   `PlayerStatus.staleAfterSeconds`: a hung or stopped (SIGSTOP) player, or any dead one where
///   pidfds are unavailable);
/// - the moment the widget last drawn asked for (`redraw(at:)`, from `WidgetLayout.redrawAt`): a
///   countdown's next second in its last minute, its next minute crossing before that, a clock's
///   next second. Nothing once it asks for none (a countdown that has ended).
///
/// The player is followed again before every draw, so one that dies while widgets are drawn from
/// its status still wakes the watcher (after that draw its status already reads as stale).
public final class StoreWakeups: @unchecked Sendable {
    /// Lateness added to a stale moment before waking: `isStale` holds only strictly after it.
    public static let staleWakeMarginSeconds = 0.05

    public let root: StoreRoot
    /// The watcher all wake-ups come through; `stopOnSignals` and `stop` are the caller's to use.
    public let watcher: ChangeWatcher
    private let warn: @Sendable (String) -> Void
    /// Whether the last `followPlayer` found a live player. Touched only on the watcher's thread
    /// (or before it runs).
    private var playerIsLive = false
    /// The live player's stale moment (with the margin), and the moment the widget asked for.
    /// Both share the watcher's one `wake(at:)` timer: it is armed for the earlier.
    private var staleMoment: Date?
    private var requestedMoment: Date?

    /// What any widget may depend on, under the store.
    public static func watched(_ root: StoreRoot) -> (files: [String], directories: [String]) {
        (
            [root.status.path, root.lastMix.path, root.variables.path, root.entitlement.path],
            [root.designs.path, root.images.path, root.snapshots.path]
        )
    }

    /// - Parameter warn: told when the status feed had to be set aside (unreadable), with its path.
    /// - Parameter alsoWatching: more files that wake the watcher (the desktop host's list of widgets).
    /// - Throws: `ChangeWatchError` naming the call that failed.
    public init(
        root: StoreRoot, alsoWatching extraFiles: [String] = [], warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.root = root
        self.warn = warn
        let (files, directories) = Self.watched(root)
        watcher = try ChangeWatcher(files: files + extraFiles, directories: directories, minuteTicks: true)
    }

    /// Points the watcher at the player the status feed names while it is live (its exit, and the
    /// moment its status would turn stale), at nothing otherwise. Returns whether one is live.
    /// Call before `ChangeWatcher.run` or from its callback (the watcher's thread).
    @discardableResult
    public func followPlayer(now: Date = Date()) throws -> Bool {
        var live: PlayerStatus?
        switch (try? StatusStore(root: root).read()) ?? .missing {
        case .loaded(let s) where s.state != .stopped && !s.isStale(now: now): live = s
        case .setAside(let reason, let url): warn(SetAsideNotice.text(root.status, reason: reason, movedTo: url))
        default: break
        }
        // Without a pidfd (`.unavailable`: ENOSYS before Linux 5.3, EPERM under a seccomp filter
        // that predates the call) nothing watches the process: a dead player is then noticed at
        // its stale moment below (playing) or at the next minute or store change (paused).
        if let pid = live?.pid { watcher.watchProcess(pid) } else { watcher.stopWatchingProcess() }
        let staleAt = live?.staleDeadline(now: now)
        staleMoment = staleAt.map { $0.addingTimeInterval(Self.staleWakeMarginSeconds) }
        try arm()
        playerIsLive = live != nil
        return playerIsLive
    }

    /// Asks to be woken at `moment` to draw again (nil: no such moment), replacing the last
    /// request. Call from the redraw callback (the watcher's thread) with the new drawing's
    /// `WidgetLayout.redrawAt`.
    public func redraw(at moment: Date?) throws {
        requestedMoment = moment
        try arm()
    }

    private func arm() throws {
        let moments = [staleMoment, requestedMoment].compactMap { $0 }
        try watcher.wake(at: moments.min())
    }

    /// Follows the player again after `change` and says whether widgets may show something new.
    /// False only when the stale moment alone woke the watcher and the player lives on (its
    /// heartbeat moved the moment on): a playing player costs one such wake per
    /// `staleAfterSeconds`, each a read of status.json and a `stat` of the heartbeat, no draw.
    public func needsRedraw(after change: ChangeSet, now: Date = Date()) throws -> Bool {
        let wasLive = playerIsLive
        // The moment the widget asked for has come: draw (the drawing asks for its next one).
        let requestedIsDue = change.deadline != nil && requestedMoment.map { $0 <= now } == true
        if requestedIsDue { requestedMoment = nil }
        let isLive = try followPlayer(now: now)
        let onlyTheStaleMoment =
            change.deadline != nil && change.paths.isEmpty && change.minute == nil
            && change.exitedProcess == nil && !change.overflowed && !requestedIsDue
        return !(onlyTheStaleMoment && wasLive && isLive)
    }

    /// Follows the player, calls `redraw`, then watches until stopped (or a signal given to
    /// `watcher.stopOnSignals`), calling `redraw` on this thread whenever widgets may show
    /// something new. An error thrown by `redraw` (the first one included) ends the watch and is
    /// rethrown: a caller that wants to go on after a failed draw catches it in `redraw`.
    @discardableResult
    public func run(_ redraw: () throws -> Void) throws -> ChangeWatcher.StopReason {
        try followPlayer()
        try redraw()
        return try watcher.run { change in
            if try needsRedraw(after: change) { try redraw() }
        }
    }

    /// `run` on a thread of its own; errors go to `onError`. `stop()` then `wait()` end it.
    public func start(
        _ redraw: @escaping @Sendable () -> Void, onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        watcher.start(running: { [self] in try run(redraw) }, onError: onError)
    }

    public func stop() { watcher.stop() }

    /// Waits for the thread `start` made to end (after `stop()`).
    public func wait() { watcher.wait() }
}
