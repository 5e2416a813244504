import Foundation
import LiveWidgets
import SharedStore

#if canImport(Glibc)
    import Glibc
#endif

/// `weaver render --watch`: draws, then draws again whenever something the widget shows may have
/// changed (`StoreWakeups`: store files, the minute, the player's exit or stale moment, the moment
/// the drawing asked for, such as a countdown's next second; one `poll`, no polling loop), and rewrites the output only
/// when the bytes changed. SIGINT and SIGTERM end it cleanly (exit 0) after the write in progress.
struct LiveOutput {
    let root: StoreRoot
    let output: String
    /// The output's bytes, and when the widget asks to be drawn again (`WidgetLayout.redrawAt`).
    let draw: () throws -> (bytes: [UInt8], redrawAt: Date?)

    /// Draws and writes the output (a failure of this first draw is the command's failure), then
    /// watches until a signal.
    func run() throws {
        let wakeups = try StoreWakeups(root: root, warn: { printWarning($0) })
        wakeups.watcher.stopOnSignals([SIGINT, SIGTERM])
        var last: [UInt8]?
        try wakeups.run {
            guard let previous = last else {
                let (bytes, redrawAt) = try draw()
                try OutputFile.write(bytes, to: output)
                last = bytes
                try wakeups.redraw(at: redrawAt)
                return
            }
            do {
                let (bytes, redrawAt) = try draw()
                try wakeups.redraw(at: redrawAt)
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
