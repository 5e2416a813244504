#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LiveWidgets
import SharedStore

/// `weaver render --watch`: draws, then draws again whenever something the widget shows may have
/// changed (`StoreWakeups`: store files, the minute, the player's exit or stale moment, one `poll`,
/// no polling loop), and rewrites the output only when the bytes changed. SIGINT and SIGTERM end
/// it cleanly (exit 0) after the write in progress.
struct LiveOutput {
    let root: StoreRoot
    let output: String
    let draw: () throws -> [UInt8]

    /// Draws and writes the output (a failure of this first draw is the command's failure), then
    /// watches until a signal.
    func run() throws {
        let wakeups = try StoreWakeups(root: root, warn: { printWarning($0) })
        wakeups.watcher.stopOnSignals([SIGINT, SIGTERM])
        var last: [UInt8]?
        try wakeups.run {
            guard let previous = last else {
                let bytes = try draw()
                try OutputFile.write(bytes, to: output)
                last = bytes
                return
            }
            do {
                let bytes = try draw()
                guard bytes != previous else { return }
                try OutputFile.write(bytes, to: output)
                last = bytes
            } catch {
                // Keep the last good output (a design mid-edit, a store file set aside) and go on.
                printWarning("not redrawn: \(error)")
            }
        }
    }
}
