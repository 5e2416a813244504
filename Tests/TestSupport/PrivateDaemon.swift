import Foundation

/// One private daemon of a test rig (PulseAudio, PipeWire and its helpers, dbus-daemon, Xvfb,
/// sway): started as a child of the test process, ready when its probe says so, stopped by its
/// PID. The rigs (`PulseServer`, `PipeWireServer`, `SessionBus`, `XvfbServer`, `SwayServer`) say
/// what to start and how to tell it is ready; starting, waiting and stopping are written here once.
public final class PrivateDaemon: @unchecked Sendable {
    public let process: ChildProcess
    private var stopped = false

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Starts `tool` and waits up to `readySeconds` for `isReady` (polled every 20 ms). A daemon that
    /// exits or does not become ready in time is stopped, and the failure names it with the end of
    /// its standard error.
    public init(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], readySeconds: Double = 10,
        isReady: (ChildProcess) -> Bool
    ) throws {
        process = try ChildProcess(tool, arguments, environment: environment)
        let ready = Wait.until(readySeconds) { [process] () -> Bool? in
            if isReady(process) { return true }
            return process.poll() != nil ? false : nil
        }
        guard ready == true else {
            let log = String(decoding: process.stderr, as: UTF8.self).suffix(600)
            let exited = process.poll() != nil
            stop()
            throw Failure(
                description:
                    "\((tool as NSString).lastPathComponent) \(exited ? "exited" : "was not ready") "
                    + "within \(Int(readySeconds)) s: \(log)")
        }
    }

    public var pid: pid_t { process.pid }

    /// Stops the daemon by its PID (SIGTERM, or `signal`) and reaps it; later calls do nothing.
    public func stop(signal: Int32 = SIGTERM) {
        guard !stopped else { return }
        stopped = true
        process.signal(signal)
        process.wait()
    }

    deinit { stop() }

    /// Runs a client of a rig's daemon (`pactl`, `gdbus`, `xprop`, `swaymsg`) to its end.
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws
        -> Products.Result
    {
        let child = try ChildProcess(tool, arguments, environment: environment)
        let status = child.wait()
        return Products.Result(status: status, stdout: child.stdout, stderr: child.stderr)
    }
}
