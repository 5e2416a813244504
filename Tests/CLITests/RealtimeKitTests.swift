import Foundation
import TestSupport
import Testing

/// Issue 41 item 24: where SCHED_FIFO is refused, `noise play` asks rtkit (the desktop's
/// RealtimeKit1 on the system bus) for real time, then a nice level, and says which applied. The
/// player runs without CAP_SYS_NICE (`setpriv`: the tests run as root, who is never refused) and
/// finds a stand-in rtkit (dbus-python) on a private bus through `DBUS_SYSTEM_BUS_ADDRESS`.
@Suite(.serialized) struct RealtimeKitTests {
    static let standIn = #"""
        import os, sys, dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        log = open(sys.argv[1], 'a', buffering=1)
        grant = sys.argv[2] == 'grant'
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(os.environ['STANDIN_BUS'])
        name = dbus.service.BusName('org.freedesktop.RealtimeKit1', bus)
        IFACE = 'org.freedesktop.RealtimeKit1'
        class Kit(dbus.service.Object):
            @dbus.service.method(IFACE, in_signature='tu')
            def MakeThreadRealtime(self, thread, priority):
                log.write('MakeThreadRealtime %d %d\n' % (thread, priority))
                if not grant:
                    raise dbus.exceptions.DBusException(
                        'Operation not permitted', name='org.freedesktop.DBus.Error.AccessDenied')
            @dbus.service.method(IFACE, in_signature='ti')
            def MakeThreadHighPriority(self, thread, priority):
                log.write('MakeThreadHighPriority %d %d\n' % (thread, priority))
            @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
            def Get(self, interface, prop):
                values = {'MaxRealtimePriority': dbus.Int32(20), 'MinNiceLevel': dbus.Int32(-15),
                          'RTTimeUSecMax': dbus.Int64(200000)}
                return values[prop]
        Kit(bus, '/org/freedesktop/RealtimeKit1')
        print('ready', flush=True)
        GLib.MainLoop().run()
        """#

    struct Rig {
        let base: SystemBusRig

        /// `rtkitGrants`: nil for no rtkit on the bus, else whether it grants real time.
        init(rtkitGrants: Bool?) throws {
            base = try SystemBusRig(
                standIn: rtkitGrants.map { grants in
                    {
                        try BusStandIn(
                            name: "rtkit", script: RealtimeKitTests.standIn, arguments: [grants ? "grant" : "refuse"],
                            on: $0)
                    }
                })
        }

        func calls() -> [String] { base.calls() }

        /// `noise play` for a second without CAP_SYS_NICE, so SCHED_FIFO and a negative nice are refused.
        func play() throws -> (status: Int32, stderr: String) {
            let child = try ChildProcess(
                "/usr/bin/setpriv",
                [
                    "--bounding-set=-sys_nice", "/usr/bin/prlimit", "--rtprio=0", Products.url("noise").path, "play",
                    "--preset", "pink", "--fade-in", "0", "--no-mpris", "--no-inhibit", "--timer", "1s", "--fade", "0s",
                ], environment: base.env)
            let status = child.wait()
            return (status, String(decoding: child.stderr, as: UTF8.self))
        }

        func stop() { base.stop() }

        /// `play` on a rig of its own, stopped after: what the player said and the rtkit calls it made.
        static func played(rtkitGrants: Bool?) throws -> (status: Int32, stderr: String, calls: [String]) {
            let rig = try Rig(rtkitGrants: rtkitGrants)
            defer { rig.stop() }
            let r = try rig.play()
            return (r.status, r.stderr, rig.calls())
        }
    }

    @Test func rtkitGivesRealTimeWhenSchedFIFOIsRefused() throws {
        let r = try Rig.played(rtkitGrants: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("real-time scheduling through rtkit (SCHED_RR 10)"), "\(r.stderr)")
        #expect(!r.stderr.contains("warning: the render thread has no real-time priority"), "\(r.stderr)")
        let calls = r.calls
        #expect(calls.count == 1 && calls[0].hasPrefix("MakeThreadRealtime ") && calls[0].hasSuffix(" 10"), "\(calls)")
    }

    /// Issue 41 item 24: the status feed says which scheduling applied, and `noise status` shows it.
    @Test func theStatusFeedSaysWhichSchedulingApplied() throws {
        let rig = try Rig(rtkitGrants: true)
        defer { rig.stop() }
        let child = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--bounding-set=-sys_nice", "/usr/bin/prlimit", "--rtprio=0", Products.url("noise").path, "play",
                "--preset", "pink", "--fade-in", "0", "--no-mpris", "--no-inhibit", "--timer", "6s", "--fade", "0s",
            ], environment: rig.base.env)
        defer { _ = child.wait() }
        let file = URL(fileURLWithPath: rig.base.env["WIDGETWEAVER_HOME"]!).appendingPathComponent("status.json")
        let scheduling = Wait.until(4, interval: 0.05) { () -> String? in
            guard let data = try? Data(contentsOf: file),
                let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                o["state"] as? String == "playing"
            else { return nil }
            return o["scheduling"] as? String
        }
        #expect(scheduling == "real-time scheduling through rtkit (SCHED_RR 10)", "\(scheduling ?? "none")")
        let shown = try Products.run("noise", ["status"], environment: rig.base.env)
        #expect(
            shown.stdoutText.contains("Render thread: real-time scheduling through rtkit (SCHED_RR 10)."),
            "\(shown.stdoutText)")
    }

    @Test func rtkitRefusingRealTimeGivesANiceLevel() throws {
        let r = try Rig.played(rtkitGrants: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("raised priority through rtkit (nice -11"), "\(r.stderr)")
        #expect(
            r.calls.map { $0.split(separator: " ").first ?? "" } == [
                "MakeThreadRealtime", "MakeThreadHighPriority",
            ], "\(r.calls)")
    }

    @Test func withoutRtkitTheLogSaysWhatWasTried() throws {
        let r = try Rig.played(rtkitGrants: nil)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("normal scheduling (SCHED_FIFO refused"), "\(r.stderr)")
        #expect(r.stderr.contains("rtkit: "), "\(r.stderr)")
        #expect(r.stderr.contains("warning: the render thread has no real-time priority"), "\(r.stderr)")
    }
}
