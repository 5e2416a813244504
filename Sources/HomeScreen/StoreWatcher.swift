import ChangeWatch
import Foundation
import ServiceLifecycle
import SharedStore

/// Refreshes the home screen when anything a widget shows changes: the status feed, the Last Mix,
/// variables, Pro, snapshots, designs and their images (inotify, the same watcher as
/// `weaver render --watch`), and at every minute for clocks and relative times.
public struct StoreWatcher: Service {
    let root: StoreRoot
    let server: HomeScreenServer

    public init(root: StoreRoot, server: HomeScreenServer) {
        self.root = root
        self.server = server
    }

    /// What the home screen depends on.
    public static func paths(_ root: StoreRoot) -> (files: [String], directories: [String]) {
        ([root.status.path, root.lastMix.path, root.variables.path, root.entitlement.path],
         [root.designs.path, root.images.path, root.snapshots.path])
    }

    public func run() async throws {
        let (files, directories) = Self.paths(root)
        let watcher = try ChangeWatcher(files: files, directories: directories, minuteTicks: true)
        let server = self.server
        watcher.start({ _ in server.refresh() }, onError: { error in
            FileHandle.standardError.write(Data("warning: live updates stopped: \(error)\n".utf8))
        })
        try? await gracefulShutdown()
        watcher.stop()
        watcher.wait()
    }
}
