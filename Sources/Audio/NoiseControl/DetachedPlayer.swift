import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `noise resume` in a session of its own and waits until it answers on the control socket:
/// what a status-bar click (`setsid -f noise resume`) does, for callers that are not a shell
/// (`noise resume --detach`, widget buttons). The player is the ordinary foreground `noise resume`,
/// so there is one way to start a player from the Last Mix, not two.
public struct DetachedPlayer: Sendable {
    /// The `noise` executable to run.
    public var noise: URL
    /// Passed as `--store` when the user chose a store folder explicitly.
    public var storeDirectory: String?
    /// The environment the player gets (sound server, runtime folder, store).
    public var environment: [String: String]
    /// How long to wait for the player's socket before giving up.
    public var timeoutSeconds: Double

    public init(
        noise: URL, storeDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, timeoutSeconds: Double = 10
    ) {
        self.noise = noise
        self.storeDirectory = storeDirectory
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Where the detached player's standard error goes: next to the control socket (a private folder).
    public var logURL: URL {
        ControlPaths.socketURL(environment: environment).deletingLastPathComponent().appendingPathComponent(
            "player.log")
    }

    /// Starts the player and returns its status once it answers. Throws when it exits first (the
    /// message carries the end of its error output) or does not answer within `timeoutSeconds`.
    /// - Parameter command: the `noise` subcommand and its arguments: `resume` (the Last Mix), or
    ///   `play --preset ID` (a Play Preset button); `--store` is added after them.
    public func start(_ command: [String] = ["resume"]) throws -> (pid: pid_t, status: PlayerStatus?) {
        let socket = ControlPaths.socketURL(environment: environment)
        try ControlPaths.prepareDirectory(for: socket)
        let arguments = command + (storeDirectory.map { ["--store", $0] } ?? [])
        let pid = try Spawn.start(
            noise.path, arguments, environment: environment, stderrPath: logURL.path,
            newSession: true)
        let client = ControlClient(socketPath: socket, timeoutSeconds: 2)
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        // A bounded wait for a child that is starting, checked every 20 ms.
        while Date() < deadline {
            // The socket first: a `noise resume` that found a player already running hands over and exits 0.
            if client.isPlayerRunning() {
                Spawn.reapInBackground(pid)
                if case .ok(let status)? = try? client.send(.status) { return (pid, status) }
                return (pid, nil)
            }
            if let code = Spawn.exitStatus(pid) {
                throw Failure(
                    description:
                        """
                        the player exited (status \(code)) before it started \
                        playing\(logTail().map { ": \($0)" } ?? "")
                        """
                )
            }
            usleep(20_000)
        }
        kill(pid, SIGTERM)
        Spawn.reapInBackground(pid)
        throw Failure(
            description:
                "the player did not answer within \(Int(timeoutSeconds)) s (its messages are in \(logURL.path))")
    }

    /// The last lines of the player's error output, for a failure message.
    func logTail() -> String? {
        guard let data = try? Data(contentsOf: logURL), !data.isEmpty else { return nil }
        let lines = String(decoding: data.suffix(2048), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.suffix(3).joined(separator: " / ")
    }

    /// The `noise` executable: `$WIDGETWEAVER_NOISE`, else the one beside this program (the two are
    /// built and installed together), else the first on `$PATH`.
    public static func locateNoise(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        beside executable: URL = currentExecutable()
    ) throws -> URL {
        if let explicit = environment["WIDGETWEAVER_NOISE"], explicit.hasPrefix("/") {
            guard access(explicit, X_OK) == 0 else {
                throw Failure(description: "WIDGETWEAVER_NOISE names \(explicit), which is not an executable")
            }
            return URL(fileURLWithPath: explicit)
        }
        let sibling = executable.deletingLastPathComponent().appendingPathComponent("noise")
        if access(sibling.path, X_OK) == 0 { return sibling }
        if let found = Spawn.which("noise", environment: environment) { return URL(fileURLWithPath: found) }
        throw Failure(
            description:
                """
                cannot find the 'noise' program: not beside \(executable.path) and not on $PATH (set \
                WIDGETWEAVER_NOISE to its path)
                """
        )
    }

    public static func currentExecutable() -> URL {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }
}
