#if canImport(Glibc)
import Glibc
#endif
import ChangeWatch
import Foundation
import SharedStore

/// `weaver render --watch`: draws again whenever something the widget shows changes (the status
/// feed, the Last Mix, variables, Pro, snapshots, designs and their images — inotify, no polling —
/// and every wall-clock minute) and rewrites the output only when the bytes changed. SIGINT and
/// SIGTERM end it cleanly (exit 0) after the write in progress.
struct LiveOutput {
    let root: StoreRoot
    let output: String
    var last: [UInt8]
    let draw: () throws -> [UInt8]

    /// What any widget may depend on, under the store.
    static func watched(_ root: StoreRoot) -> (files: [String], directories: [String]) {
        ([root.status.path, root.lastMix.path, root.variables.path, root.entitlement.path],
         [root.designs.path, root.images.path, root.snapshots.path])
    }

    func run() throws {
        let (files, directories) = Self.watched(root)
        let watcher = try ChangeWatcher(files: files, directories: directories, minuteTicks: true)
        watcher.stopOnSignals([SIGINT, SIGTERM])
        var state = self
        try watcher.run { _ in
            do {
                let bytes = try state.draw()
                guard bytes != state.last else { return }
                try OutputFile.write(bytes, to: state.output)
                state.last = bytes
            } catch {
                // Keep the last good output (a design mid-edit, a store file set aside) and go on.
                printWarning("not redrawn: \(error)")
            }
        }
    }
}
