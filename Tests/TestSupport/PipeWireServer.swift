import Foundation

/// A private PipeWire for one test: `pipewire`, `wireplumber` (the session manager) and
/// `pipewire-pulse` (PipeWire's PulseAudio service, which `noise play --output pulse` talks to),
/// with their own session bus, runtime folder and home, and a null sink `test` (play to it with
/// `--device test`: making it the default needs WirePlumber's metadata, which comes up later and
/// answered "Not supported" before that). Stopped by PID.
///
/// Measured in this container (Debian 12, PipeWire 0.3.65, WirePlumber 0.4.13, root, no udev, no
/// sound card, no rtkit): the stock configuration runs as is. Without devices WirePlumber makes a
/// dummy `auto_null` sink; module-rt falls back from rtkit to sched_setscheduler (SCHED_FIFO 88
/// as root). What it needs: a private `XDG_RUNTIME_DIR` (sockets `pipewire-0` and `pulse/native`),
/// a session bus for WirePlumber (it logs and goes on without the system bus), a scratch `HOME`.
/// Gaps seen by hand came from the player, not PipeWire: a debug build of `noise` renders slower
/// than real time (10 s of audio in 12 s of CPU), so like the PulseAudio test this one means
/// something in the release build `make test` uses (there: 0.0003 dB, the same 184,003 frames).
public final class PipeWireServer: @unchecked Sendable {
    public let directory: URL
    public let bus: SessionBus
    var processes: [PrivateDaemon] = []

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public var environment: [String: String] {
        bus.environment.merging([
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("home/.config").path,
            "XDG_STATE_HOME": directory.appendingPathComponent("home/.local/state").path,
        ]) { $1 }
    }

    public init() throws {
        for tool in ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/pipewire-pulse", "/usr/bin/pactl"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw Failure(
                description: "\(tool) is not installed (make test installs pipewire, wireplumber, pipewire-pulse)")
        }
        directory = try Products.homeAndRuntimeDirectory("pipewire")
        bus = try SessionBus()
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    func start() throws {
        // Ready when its socket exists.
        let socket = directory.appendingPathComponent("run/pipewire-0").path
        processes.append(
            try PrivateDaemon("/usr/bin/pipewire", [], environment: environment, readySeconds: 5) { _ in
                FileManager.default.fileExists(atPath: socket)
            })
        // WirePlumber has no readiness of its own to wait for: the null sink's appearance below is it.
        processes.append(try PrivateDaemon("/usr/bin/wireplumber", [], environment: environment) { _ in true })
        processes.append(
            try PrivateDaemon("/usr/bin/pipewire-pulse", [], environment: environment) { _ in
                (try? self.run("/usr/bin/pactl", ["info"]))?.status == 0
            })
        let load = try run(
            "/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=test", "rate=48000", "channels=2"])
        guard load.status == 0 else { throw Failure(description: "cannot load the null sink: \(load.stderrText)") }
        guard
            eventually(
                5,
                { (try? self.run("/usr/bin/pactl", ["list", "short", "sinks"]))?.stdoutText.contains("test") == true })
        else {
            throw Failure(description: "the null sink did not appear")
        }
    }

    /// The server's version line (`pactl info`), for test logs.
    public var serverName: String {
        ((try? run("/usr/bin/pactl", ["info"]))?.stdoutText ?? "").split(separator: "\n").first {
            $0.hasPrefix("Server Name")
        }.map(String.init) ?? "?"
    }

    public func stop() {
        for process in processes.reversed() { process.stop() }
        processes = []
        bus.stop()
    }

    public func run(_ tool: String, _ arguments: [String]) throws -> Products.Result {
        try PrivateDaemon.run(tool, arguments, environment: environment)
    }

    /// Records the null sink's monitor (as `PulseServer.record`) until `stop` is called.
    public func record(to url: URL) throws -> PulseServer.Recorder {
        let recorder = try ChildProcess(
            "/usr/bin/parec",
            [
                "-d", "test.monitor", "--latency-msec=20", "--rate=48000", "--channels=2",
                "--format=s16le", "--file-format=wav", url.path,
            ], environment: environment)
        PulseServer.Recorder.waitUntilRecording(run)
        return PulseServer.Recorder(process: recorder, url: url)
    }
}
