import Foundation
import LiveWidgets
import ServiceLifecycle
import SharedStore

/// Refreshes the home screen when anything a widget shows changes, through the wake-ups
/// `weaver render --watch` has (`StoreWakeups`): the store's files (inotify), every minute for
/// clocks and relative times, the exit of the player the status feed names (a pidfd: a player
/// killed with SIGKILL leaves the feed saying "playing"), and the moment its status turns stale.
public struct StoreWatcher: Service {
    let root: StoreRoot
    let server: HomeScreenServer

    public init(root: StoreRoot, server: HomeScreenServer) {
        self.root = root
        self.server = server
    }

    public func run() async throws {
        let warn: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("warning: \($0)\n".utf8)) }
        let wakeups = try StoreWakeups(root: root, warn: warn)
        let server = self.server
        // Its first refresh comes after the player is followed: a player that died since the
        // server's first drawing (before this service started) is shown stopped now.
        // A countdown's tile asks for its next second (or minute): the watcher wakes then.
        wakeups.start(
            { try? wakeups.redraw(at: server.refresh()) }, onError: { error in warn("live updates stopped: \(error)") })
        try? await gracefulShutdown()
        wakeups.stop()
        wakeups.wait()
    }
}
