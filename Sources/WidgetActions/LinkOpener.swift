#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NoiseControl

/// Opens links on the desktop with `xdg-open`, found on `$PATH` and started directly (argv, no
/// shell), so nothing in a link is ever interpreted as a command.
public enum LinkOpener {
    /// Starts `xdg-open LINK` and waits for it (it hands the link to the desktop's handler and
    /// exits). Throws `WidgetActionError` when xdg-open is missing or fails.
    public static func xdgOpen(_ link: String, environment: [String: String]) throws {
        guard let opener = Spawn.which("xdg-open", environment: environment) else {
            throw WidgetActionError("cannot open \(link): xdg-open is not installed (Debian: apt install xdg-utils)")
        }
        let pid: pid_t
        do {
            // "--" is not understood by xdg-open; a link cannot start with "-" (OpenURLPolicy).
            pid = try Spawn.start(opener.path, [link], environment: environment)
        } catch {
            throw WidgetActionError("cannot open \(link): \(error)")
        }
        let status = Spawn.wait(pid)
        guard status == 0 else {
            throw WidgetActionError("xdg-open could not open \(link) (exit status \(status))")
        }
    }
}
