#if canImport(Glibc)
import Glibc
#endif
import ChangeWatch
import Foundation
import NoiseControl
import SharedStore

/// `weaver render --watch`: draws, then draws again whenever something the widget shows changes,
/// and rewrites the output only when the bytes changed. What wakes it, all in one `poll`, no
/// polling loop:
/// - inotify: the status feed, the Last Mix, variables, Pro, snapshots, designs and their images;
/// - every wall-clock minute;
/// - the exit of the player the status feed names (a pidfd): a player killed with SIGKILL cannot
///   update the feed, and the widget shows a dead player as stopped;
/// - the moment a playing status turns stale by its times (no status write nor heartbeat for
///   `PlayerStatus.staleAfterSeconds`: a hung or stopped (SIGSTOP) player, or any dead one where
///   pidfds are unavailable).
/// SIGINT and SIGTERM end it cleanly (exit 0) after the write in progress.
struct LiveOutput {
    let root: StoreRoot
    let output: String
    let draw: () throws -> [UInt8]

    /// Lateness added to a stale moment before waking: `isStale` holds only strictly after it.
    static let staleWakeMarginSeconds = 0.05

    /// What any widget may depend on, under the store.
    static func watched(_ root: StoreRoot) -> (files: [String], directories: [String]) {
        ([root.status.path, root.lastMix.path, root.variables.path, root.entitlement.path],
         [root.designs.path, root.images.path, root.snapshots.path])
    }

    /// Draws and writes the output (a failure of this first draw is the command's failure), then
    /// watches until a signal.
    func run() throws {
        let (files, directories) = Self.watched(root)
        let watcher = try ChangeWatcher(files: files, directories: directories, minuteTicks: true)
        watcher.stopOnSignals([SIGINT, SIGTERM])
        // Armed before every draw: a player that dies while the widget is drawn from its status
        // still wakes the watcher (after the draw, its status would already read as stale).
        var playerIsLive = try follow(with: watcher)
        var last = try draw()
        try OutputFile.write(last, to: output)
        try watcher.run { change in
            let wasLive = playerIsLive
            playerIsLive = try follow(with: watcher)
            // The stale moment came but the heartbeat moved it on (the player lives): nothing the
            // widget shows changed, so the draw is skipped. A live player costs one such wake
            // per `staleAfterSeconds`, each a read of status.json and a stat of the heartbeat.
            let onlyTheStaleMoment = change.deadline != nil && change.paths.isEmpty && change.minute == nil
                && change.exitedProcess == nil && !change.overflowed
            if onlyTheStaleMoment, wasLive, playerIsLive { return }
            do {
                let bytes = try draw()
                guard bytes != last else { return }
                try OutputFile.write(bytes, to: output)
                last = bytes
            } catch {
                // Keep the last good output (a design mid-edit, a store file set aside) and go on.
                printWarning("not redrawn: \(error)")
            }
        }
    }

    /// Points the watcher at the player the status feed names while it is live (its exit, and the
    /// moment its status would turn stale); at nothing otherwise. Returns whether one is live.
    func follow(with watcher: ChangeWatcher) throws -> Bool {
        let now = Date()
        var live: PlayerStatus?
        switch (try? StatusStore(root: root).read()) ?? .missing {
        case .loaded(let s) where s.state != .stopped && !s.isStale(now: now): live = s
        case .setAside(let reason, let url): printWarning("\(root.status.path): \(reason); moved to \(url.path)")
        default: break
        }
        // Without a pidfd (`.unavailable`: ENOSYS before Linux 5.3, EPERM under a seccomp filter
        // that predates the call) nothing watches the process: a dead player is then noticed at
        // its stale moment below (playing) or at the next minute or store change (paused), as
        // before pidfds were used.
        if let pid = live?.pid { watcher.watchProcess(pid) } else { watcher.stopWatchingProcess() }
        let staleAt = live?.staleDeadline(now: now)
        try watcher.wake(at: staleAt.map { $0.addingTimeInterval(Self.staleWakeMarginSeconds) })
        return live != nil
    }
}
