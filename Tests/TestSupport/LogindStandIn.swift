import Foundation

/// A stand-in systemd-logind (dbus-python) on a private bus, recording what it is asked
/// (`Inhibit`, the lock's release, `Suspend`, `PowerOff`): what a player's `--then` and idle lock
/// talk to in tests, since a container has no logind and a real one would suspend the machine.
/// A player finds it through `environment` (`DBUS_SYSTEM_BUS_ADDRESS`, which sd-bus honours).
public final class LogindStandIn: @unchecked Sendable {
    public static let script = #"""
        import os, sys, dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        log = open(sys.argv[1], 'a', buffering=1)
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(os.environ['STANDIN_BUS'])
        name = dbus.service.BusName('org.freedesktop.login1', bus)
        class Manager(dbus.service.Object):
            @dbus.service.method('org.freedesktop.login1.Manager', in_signature='ssss', out_signature='h')
            def Inhibit(self, what, who, why, mode):
                r, w = os.pipe()
                log.write('Inhibit %s|%s|%s|%s\n' % (what, who, why, mode))
                def closed(fd, condition):
                    log.write('released\n')
                    os.close(fd)
                    return False
                GLib.io_add_watch(r, GLib.IO_HUP, closed)
                fd = dbus.types.UnixFd(w)
                os.close(w)
                return fd
            @dbus.service.method('org.freedesktop.login1.Manager', in_signature='b')
            def Suspend(self, interactive):
                log.write('Suspend %s\n' % bool(interactive))
            @dbus.service.method('org.freedesktop.login1.Manager', in_signature='b')
            def PowerOff(self, interactive):
                log.write('PowerOff %s\n' % bool(interactive))
        Manager(bus, '/org/freedesktop/login1')
        print('ready', flush=True)
        GLib.MainLoop().run()
        """#

    public let bus: SessionBus
    public let log: URL
    let child: ChildProcess

    /// Starts a private bus and the stand-in on it; throws when it does not say "ready" in 10 s.
    public init() throws {
        bus = try SessionBus()
        log = bus.directory.appendingPathComponent("logind.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let script = bus.directory.appendingPathComponent("logind.py")
        try Data(Self.script.utf8).write(to: script)
        child = try ChildProcess(
            "/usr/bin/python3", [script.path, log.path], environment: ["STANDIN_BUS": bus.address])
        let child = child
        guard eventually(10, { String(decoding: child.stdout, as: UTF8.self).contains("ready") }) else {
            stop()
            throw SessionBus.Failure(
                description: "stand-in logind did not start: \(String(decoding: child.stderr, as: UTF8.self))")
        }
    }

    /// What a player should be given to talk to this logind.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address] }

    /// The calls so far, one line each ("Suspend False").
    public func calls() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func stop() {
        child.signal(SIGTERM)
        _ = child.wait(timeoutSeconds: 5)
        bus.stop()
    }
}
