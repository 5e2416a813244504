import NoiseEngine
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT/SIGTERM/SIGHUP; long-running commands poll it and finish cleanly.
let interruptRequested = Atomic<Bool>(false)
/// Which of those signals arrived first (0: none).
let caughtSignalNumber = Atomic<Int32>(0)
/// Posted by those signals (and by the render thread as it ends): the player's main thread sleeps
/// on it instead of polling.
let sessionWake = WakeSignal()

enum Terminal {
    static func installInterruptHandlers() {
        // A parent may have started us with these blocked (a child inherits the signal mask).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigaddset(&unblock, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        // Touch the globals first: their lazy initialisation must not first run inside a handler.
        _ = interruptRequested.load(ordering: .relaxed)
        _ = caughtSignalNumber.load(ordering: .relaxed)
        _ = sessionWake
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                // The first signal asks for a clean stop (fade out, save, exit 0); a second one means
                // "now", even if the output is stuck in a blocking write. Only async-signal-safe calls.
                if !caughtSignalNumber.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged {
                    _exit(128 + number)
                }
                interruptRequested.store(true, ordering: .relaxed)
                sessionWake.post()
            }
        }
        // A closed pipe (`noise render -o - | head`) is reported as EPIPE by write, not a signal.
        signal(SIGPIPE, SIG_IGN)
    }

    static var caughtSignal: Int32 { caughtSignalNumber.load(ordering: .relaxed) }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    static func printError(_ text: String) {
        writeStderr(text + "\n")
    }

    /// A one-line progress bar on stderr, redrawn in place at most every 0.2 s.
    struct ProgressBar {
        var lastDraw = -1.0
        let clock = ContinuousClock()
        let start: ContinuousClock.Instant

        init() { start = clock.now }

        mutating func update(done: Int64, total: Int64, sampleRate: Int) {
            let elapsed =
                Double((clock.now - start).components.attoseconds) / 1e18
                + Double((clock.now - start).components.seconds)
            guard elapsed - lastDraw >= 0.2 || done == total else { return }
            lastDraw = elapsed
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            let width = 30
            let filled = Int(fraction * Double(width))
            let audio = Double(done) / Double(sampleRate)
            let speed = elapsed > 0 ? audio / elapsed : 0
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let text =
                "\r[\(bar)] \(Int(fraction * 100))%  \(formatDuration(audio)) rendered, \(Int(speed))x real time "
            writeStderr(done == total ? text + "\n" : text)
        }
    }
}

/// Unbuffered write to fd 2 (no shared `FILE*`, so no data race under Swift 6); a failed write
/// is dropped, as for `writeStdout`.
func writeStderr(_ text: String) { try? FileDescriptorIO.writeAll(2, Array(text.utf8)) }

func formatDuration(_ seconds: Double) -> String {
    // Milliseconds are kept when there are any: 1.5 s is "1.5s", not "1s".
    let ms = Int((max(0, seconds) * 1000).rounded())
    let s = ms / 1000
    var fraction = ms % 1000 == 0 ? "" : "." + String(String(1000 + ms % 1000).dropFirst())
    while fraction.hasSuffix("0") { fraction.removeLast() }
    if s >= 3600 { return "\(s / 3600)h\(String(format2(s % 3600 / 60)))m\(format2(s % 60))\(fraction)s" }
    if s >= 60 { return "\(s / 60)m\(format2(s % 60))\(fraction)s" }
    return "\(s)\(fraction)s"
}

private func format2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
