import Foundation

/// A stand-in systemd-logind (dbus-python) on a private bus, recording what it is asked
/// (`Inhibit`, the lock's release, `Suspend`, `PowerOff`): what a player's `--then` and idle lock
/// talk to in tests, since a container has no logind and a real one would suspend the machine.
/// A player finds it through `environment` (`DBUS_SYSTEM_BUS_ADDRESS`, which sd-bus honours).
public final class LogindStandIn: BusStandIn, @unchecked Sendable {
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

    /// Starts a private bus and the stand-in on it (or on `bus`); throws when it does not say
    /// "ready" in 10 s.
    public init(on bus: SessionBus? = nil) throws {
        try super.init(name: "logind", script: Self.script, on: bus)
    }
}
