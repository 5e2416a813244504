import Foundation

/// A private D-Bus session bus (`dbus-daemon --session`-like config in a temporary folder),
/// started for one test and stopped by its PID. Monitoring is allowed, so `dbus-monitor` can
/// watch signals and method calls.
public final class SessionBus: @unchecked Sendable {
    public let directory: URL
    public private(set) var address = ""
    var daemon: PrivateDaemon?

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// `DBUS_SESSION_BUS_ADDRESS` for clients of this bus: the socket's path without the daemon's
    /// guid, as systemd sets it (`unix:path=/run/user/UID/bus`), so a client can reach a daemon
    /// restarted on the same socket (a guid in the address would have to match the new daemon's).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/bus"] }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            throw Failure(description: "dbus-daemon is not installed (make test installs the dbus package)")
        }
        directory = try Products.temporaryDirectory("dbus")
        let config = directory.appendingPathComponent("session.conf")
        try Data(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8
        ).write(to: config)
        try start()
    }

    /// A new daemon on the same socket (the session bus restarting under its clients).
    public func restart() throws {
        stop()
        try start()
    }

    private func start() throws {
        let config = directory.appendingPathComponent("session.conf")
        // It prints its address once it listens.
        let started = try PrivateDaemon(
            "/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address"], readySeconds: 5
        ) { String(decoding: $0.stdout, as: UTF8.self).contains("\n") }
        daemon = started
        address = String(String(decoding: started.process.stdout, as: UTF8.self).prefix { $0 != "\n" })
    }

    deinit { stop() }

    public func stop() {
        daemon?.stop()
        daemon = nil
    }

    /// Runs a client (`playerctl`, `gdbus`, `busctl`) on this bus, with `environment` added.
    public func run(_ tool: String, _ arguments: [String], environment extra: [String: String] = [:]) throws
        -> Products.Result
    {
        try PrivateDaemon.run(tool, arguments, environment: environment.merging(extra) { $1 })
    }

    /// Starts `dbus-monitor` with `matches` (match rules); read its messages with `Monitor.messages`.
    public func monitor(_ matches: [String]) throws -> Monitor {
        let child = try ChildProcess("/usr/bin/dbus-monitor", ["--address", address] + matches)
        let monitor = Monitor(process: child)
        // It prints NameAcquired for itself once it is listening.
        _ = eventually(5) { monitor.text.contains("NameAcquired") }
        return monitor
    }

    public final class Monitor: @unchecked Sendable {
        let process: ChildProcess
        init(process: ChildProcess) { self.process = process }

        public var text: String { String(decoding: process.stdout, as: UTF8.self) }

        /// One message as dbus-monitor prints it: "signal"/"method call"…, the bus's receive
        /// time (seconds since 1970), the member and the printed body.
        public struct Message: Sendable {
            public var kind: String
            public var time: Double
            public var member: String
            public var header: String
            public var body: String
        }

        public var messages: [Message] {
            var result: [Message] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let first = line.first, first != " " {
                    guard let t = line.range(of: " time=") else { continue }
                    let kind = String(line[..<t.lowerBound])
                    let time = Double(line[t.upperBound...].prefix { $0 != " " }) ?? 0
                    let member =
                        line.range(of: "member=").map {
                            String(line[$0.upperBound...].prefix { $0 != " " && $0 != ";" })
                        } ?? ""
                    result.append(Message(kind: kind, time: time, member: member, header: String(line), body: ""))
                } else if !result.isEmpty {
                    result[result.count - 1].body += line + "\n"
                }
            }
            return result
        }

        /// Waits up to `seconds` for a message matching `predicate`.
        public func waitFor(_ seconds: Double, _ predicate: (Message) -> Bool) -> Message? {
            Wait.until(seconds) { messages.first(where: predicate) }
        }

        public func stop() {
            process.signal(SIGTERM)
            process.wait()
        }
    }
}
