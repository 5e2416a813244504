import Foundation
import LoginEntryFiles
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// `systemctl --user …` after a login entry changed (noise autostart, the data refresh timer,
/// schedules): best effort, since without a running user manager the files take effect at the
/// next login anyway. One place for both tools, through `Spawn` (not Foundation's `Process`).
public enum UserSystemd {
    public static let systemctl = "/usr/bin/systemctl"

    /// Runs `systemctl --user <arguments>` and waits; nil when it worked or there is no user
    /// manager to tell, else a note for the user saying what failed and when the change applies.
    public static func run(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        guard LoginEntries.systemdIsRunning(), access(systemctl, X_OK) == 0 else { return nil }
        let command = "systemctl --user " + arguments.joined(separator: " ")
        guard let pid = try? Spawn.start(systemctl, ["--user"] + arguments, environment: environment) else {
            return "note: could not run '\(command)'; the change takes effect at the next login"
        }
        if Spawn.wait(pid) != 0 {
            return "note: '\(command)' failed; the change takes effect at the next login"
        }
        return nil
    }
}
