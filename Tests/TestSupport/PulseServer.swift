import Foundation

/// A private PulseAudio server with a null sink named `test`, started for one test and stopped
/// after it (no hardware, root or not). Settings follow shared/notes/linux-audio-testing.md:
/// `--enable-memfd=no` (16.1 aborts without it when a client leaves during a recording) and
/// `norewinds=1` on the null sink (exact monitor captures).
public final class PulseServer: @unchecked Sendable {
    public let directory: URL
    public var environment: [String: String] {
        ["HOME": directory.appendingPathComponent("home").path, "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path]
    }
    var server: pid_t?

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public init() throws {
        directory = try Products.temporaryDirectory("pulse")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("run"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try start()
    }

    deinit { stop() }

    public func start() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            throw Failure(description: "pulseaudio is not installed (make test installs it)")
        }
        server = try spawnDetached("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--enable-memfd=no", "--log-target=stderr",
            "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=test rate=48000 norewinds=1"])
        for _ in 0..<200 {
            if (try? run("/usr/bin/pactl", ["info"]))?.status == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "PulseAudio did not come up within 10 s")
    }

    /// Starts a long-running tool with posix_spawn rather than Foundation's `Process`, whose child
    /// monitor on Linux was seen blocking in wait4 on a still-running server, hanging every later
    /// `Process.waitUntilExit` in the test.
    func spawnDetached(_ tool: String, _ arguments: [String]) throws -> pid_t {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        // Test threads block signals and a child inherits the mask: give it an empty one, so SIGINT
        // and SIGTERM reach it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT); sigaddset(&defaults, SIGTERM); sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tool, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw Failure(description: "cannot start \(tool): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() {
        guard let server else { return }
        Glibc.kill(server, SIGKILL)
        var status: Int32 = 0
        waitpid(server, &status, 0)
        self.server = nil
    }

    public func stop() {
        guard let server else { return }
        Glibc.kill(server, SIGTERM)
        var status: Int32 = 0
        waitpid(server, &status, 0)
        self.server = nil
    }

    public func run(_ tool: String, _ arguments: [String]) throws -> Products.Result {
        let child = try ChildProcess(tool, arguments, environment: environment)
        let status = child.wait()
        return Products.Result(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// Records the null sink's monitor until `stop` is called on the returned recorder.
    public func record(to url: URL) throws -> Recorder {
        let pid = try spawnDetached("/usr/bin/parec", ["-d", "test.monitor", "--latency-msec=20", "--rate=48000", "--channels=2",
                                                       "--format=s16le", "--file-format=wav", url.path])
        Thread.sleep(forTimeInterval: 0.3)
        return Recorder(pid: pid, url: url)
    }

    public struct Recorder {
        let pid: pid_t
        public let url: URL
        public func stop() throws -> WAVFile {
            Glibc.kill(pid, SIGINT)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return try WAVFile(path: url.path)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
