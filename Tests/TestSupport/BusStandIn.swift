import Foundation

/// A stand-in system service (a dbus-python script) on a private bus, writing each call it is
/// asked to a log: what the player's system-bus clients (logind, rtkit) talk to in tests, since a
/// container has neither and a real logind would suspend the machine. The script gets the log's
/// path and `arguments`, finds the bus in `STANDIN_BUS` and prints "ready" once its name is owned.
/// A player finds it through `environment` (`DBUS_SYSTEM_BUS_ADDRESS`, which sd-bus honours).
open class BusStandIn: @unchecked Sendable {
    public let bus: SessionBus
    public let log: URL
    let child: ChildProcess
    /// Whether `stop()` stops the bus too (it was started here).
    let ownsBus: Bool

    /// Starts `script` (saved as `name.py`) on `bus`, or on a private bus of its own; throws when
    /// it does not say "ready" in 10 s.
    public init(name: String, script: String, arguments: [String] = [], on bus: SessionBus? = nil) throws {
        ownsBus = bus == nil
        self.bus = try bus ?? SessionBus()
        log = self.bus.directory.appendingPathComponent("\(name).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let file = self.bus.directory.appendingPathComponent("\(name).py")
        try Data(script.utf8).write(to: file)
        child = try ChildProcess(
            "/usr/bin/python3", [file.path, log.path] + arguments, environment: ["STANDIN_BUS": self.bus.address])
        let child = child
        guard eventually(10, { String(decoding: child.stdout, as: UTF8.self).contains("ready") }) else {
            stop()
            throw SessionBus.Failure(
                description: "stand-in \(name) did not start: \(String(decoding: child.stderr, as: UTF8.self))")
        }
    }

    /// What a player should be given to talk to this service.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address] }

    /// The calls so far, one line each ("Suspend False").
    public func calls() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func stop() {
        child.signal(SIGTERM)
        _ = child.wait(timeoutSeconds: 5)
        if ownsBus { bus.stop() }
    }
}

/// A player beside a private PulseAudio, with a private bus as its system bus and, when asked, a
/// stand-in service on that bus (`LogindTests`, `RealtimeKitTests`): the same player is run with
/// and without the service to show both paths.
public struct SystemBusRig: Sendable {
    public let bus: SessionBus
    public let pulse: PulseServer
    public let standIn: BusStandIn?
    /// The store, the PulseAudio server and the bus, for `Products.run("noise", …)`.
    public let env: [String: String]

    /// - Parameter standIn: starts the service on the rig's bus; nil for a bus without it.
    public init(standIn start: ((SessionBus) throws -> BusStandIn)? = nil) throws {
        bus = try SessionBus()
        pulse = try PulseServer()
        standIn = try start?(bus)
        env = TestStore(at: pulse.directory.appendingPathComponent("store")).environment(
            pulse.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 })
    }

    /// The stand-in's calls so far (none without one).
    public func calls() -> [String] { standIn?.calls() ?? [] }

    public func stop() {
        standIn?.stop()
        pulse.stop()
        bus.stop()
    }
}
