import Foundation

/// A private PulseAudio server with a null sink named `test`, started for one test and stopped
/// after it (no hardware, root or not). Settings follow shared/notes/linux-audio-testing.md:
/// `--enable-memfd=no` (16.1 aborts without it when a client leaves during a recording) and
/// `norewinds=1` on the null sink (exact monitor captures).
public final class PulseServer: @unchecked Sendable {
    public let directory: URL
    public var environment: [String: String] {
        [
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path,
        ]
    }
    var server: ChildProcess?
    /// The server's socket in PULSE_SERVER syntax, for clients inside the test process.
    public var address: String { "unix:" + directory.appendingPathComponent("run/pulse/native").path }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public init() throws {
        directory = try Products.temporaryDirectory("pulse")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try start()
    }

    deinit { stop() }

    public func start() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            throw Failure(description: "pulseaudio is not installed (make test installs it)")
        }
        server = try spawnDetached(
            "/usr/bin/pulseaudio",
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--enable-memfd=no", "--log-target=stderr",
                "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=test rate=48000 norewinds=1",
            ])
        for _ in 0..<200 {
            if (try? run("/usr/bin/pactl", ["info"]))?.status == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "PulseAudio did not come up within 10 s")
    }

    /// Starts a long-running tool (see `ChildProcess`: not Foundation's `Process`).
    func spawnDetached(_ tool: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(tool, arguments, environment: environment)
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() {
        guard let server else { return }
        server.signal(SIGKILL)
        server.wait()
        self.server = nil
    }

    public func stop() {
        guard let server else { return }
        server.signal(SIGTERM)
        server.wait()
        self.server = nil
    }

    public func run(_ tool: String, _ arguments: [String]) throws -> Products.Result {
        let child = try ChildProcess(tool, arguments, environment: environment)
        let status = child.wait()
        return Products.Result(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// Records the null sink's monitor until `stop` is called on the returned recorder.
    public func record(to url: URL) throws -> Recorder {
        let recorder = try spawnDetached(
            "/usr/bin/parec",
            [
                "-d", "test.monitor", "--latency-msec=20", "--rate=48000", "--channels=2",
                "--format=s16le", "--file-format=wav", url.path,
            ])
        Thread.sleep(forTimeInterval: 0.3)
        return Recorder(process: recorder, url: url)
    }

    public struct Recorder {
        let process: ChildProcess
        public let url: URL
        public func stop() throws -> WAVFile {
            process.signal(SIGINT)
            process.wait()
            return try WAVFile(path: url.path)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
