import Foundation
import NoiseControl
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Opens links on the desktop with `xdg-open`, found on `$PATH` and started directly (argv, no
/// shell), so nothing in a link is ever interpreted as a command.
public enum LinkOpener {
    /// How long a press waits for xdg-open to say whether it could open the link. Without a
    /// desktop environment xdg-open may run the browser itself, in the foreground: past this the
    /// link counts as opened and the child is left to run (in its own session).
    public static let answerWaitSeconds = 3.0

    /// Starts `xdg-open LINK` and waits up to `answerWaitSeconds` for its answer. Throws
    /// `WidgetActionError` when xdg-open is missing or fails.
    public static func xdgOpen(_ link: String, environment: [String: String]) throws {
        guard let opener = Spawn.which("xdg-open", environment: environment) else {
            throw WidgetActionError("cannot open \(link): xdg-open is not installed (Debian: apt install xdg-utils)")
        }
        let pid: pid_t
        do {
            // A link never starts with "-" (OpenURLPolicy), so it cannot pass for an option.
            pid = try Spawn.start(opener, [link], environment: environment, newSession: true)
        } catch {
            throw WidgetActionError("cannot open \(link): \(error)")
        }
        let deadline = Date().addingTimeInterval(answerWaitSeconds)
        while Date() < deadline {
            if let status = Spawn.exitStatus(pid) {
                guard status == 0 else {
                    throw WidgetActionError("xdg-open could not open \(link) (exit status \(status))")
                }
                return
            }
            usleep(10_000)
        }
        // Still running: the browser itself, most likely. A long-lived caller must not keep a zombie.
        Spawn.reapInBackground(pid)
    }
}
