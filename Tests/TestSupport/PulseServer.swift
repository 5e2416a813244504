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
    var server: PrivateDaemon?
    /// The server's socket in PULSE_SERVER syntax, for clients inside the test process.
    public var address: String { "unix:" + directory.appendingPathComponent("run/pulse/native").path }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public init() throws {
        directory = try Products.homeAndRuntimeDirectory("pulse")
        try start()
    }

    deinit { stop() }

    public func start() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else {
            throw Failure(description: "pulseaudio is not installed (make test installs it)")
        }
        server = try PrivateDaemon(
            "/usr/bin/pulseaudio",
            [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--enable-memfd=no", "--log-target=stderr",
                "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=test rate=48000 norewinds=1",
            ], environment: environment
        ) { _ in (try? self.run("/usr/bin/pactl", ["info"]))?.status == 0 }
    }

    /// Starts a long-running tool (see `ChildProcess`: not Foundation's `Process`).
    func spawnDetached(_ tool: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(tool, arguments, environment: environment)
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() {
        server?.stop(signal: SIGKILL)
        server = nil
    }

    public func stop() {
        server?.stop()
        server = nil
    }

    public func run(_ tool: String, _ arguments: [String]) throws -> Products.Result {
        try PrivateDaemon.run(tool, arguments, environment: environment)
    }

    /// Records the null sink's monitor until `stop` is called on the returned recorder.
    public func record(to url: URL) throws -> Recorder {
        let recorder = try spawnDetached(
            "/usr/bin/parec",
            [
                "-d", "test.monitor", "--latency-msec=20", "--rate=48000", "--channels=2",
                "--format=s16le", "--file-format=wav", url.path,
            ])
        Recorder.waitUntilRecording(run)
        return Recorder(process: recorder, url: url)
    }

    public struct Recorder {
        let process: ChildProcess
        public let url: URL

        /// Waits (up to 5 s) until the server lists a recording stream, so nothing played after
        /// `record` returns is missed.
        static func waitUntilRecording(_ run: (String, [String]) throws -> Products.Result) {
            _ = eventually(5) {
                (try? run("/usr/bin/pactl", ["list", "short", "source-outputs"]))?.stdoutText.isEmpty == false
            }
        }
        /// Seconds of audio in the file so far (48 kHz, 2 channels, 16 bits: 192,000 bytes a second;
        /// the header's few bytes cancel out of `waitForAudio`'s difference).
        public var recordedSeconds: Double {
            let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            return Double(bytes ?? 0) / 192_000
        }

        /// Waits until `seconds` more audio than now have reached the file (the monitor delivers in
        /// real time, so this is at least `seconds`, and longer when parec is slowed by a busy
        /// machine, where a fixed sleep would record too little); false after `seconds` × 3 + 5 s.
        @discardableResult
        public func waitForAudio(_ seconds: Double) -> Bool {
            let target = recordedSeconds + seconds
            return eventually(seconds * 3 + 5) { recordedSeconds >= target }
        }

        public func stop() throws -> WAVFile {
            process.signal(SIGINT)
            process.wait()
            return try WAVFile(path: url.path)
        }
    }
}
