import CSystemdBus
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// systemd-logind on the system bus (`org.freedesktop.login1`): an idle inhibitor while the
/// noise plays, and suspend or power-off when the sleep timer ends (`noise play --then`).
/// `DBUS_SYSTEM_BUS_ADDRESS` is honoured (sd-bus reads it), which is how tests give it a private
/// bus with a stand-in logind.
public final class Logind {
    let bus: SystemBus

    /// A logind call that failed: which call, and what the bus or logind said.
    public typealias Failure = SystemBusFailure

    /// Connects to the system bus and checks that logind answers there.
    public init() throws(Failure) {
        bus = try SystemBus(service: "logind")
        let reply = try bus.call(
            "NameHasOwner", destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", arguments: [.string("org.freedesktop.login1")],
            timeoutMicroseconds: Self.timeoutMicroseconds)
        defer { sd_bus_message_unref(reply) }
        var owned: Int32 = 0
        _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &owned)
        guard owned != 0 else {
            throw bus.failure("find org.freedesktop.login1", "logind is not running on the system bus")
        }
    }

    /// Suspend may wait for other inhibitors' delay locks.
    static let timeoutMicroseconds: UInt64 = 25_000_000

    /// An inhibitor lock: held while the descriptor is open (logind watches it).
    public final class Inhibitor {
        private var fd: Int32
        init(fd: Int32) { self.fd = fd }
        public var isHeld: Bool { fd >= 0 }
        /// Gives the lock back (closing the descriptor is how logind learns it).
        public func release() {
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
        }
        deinit { release() }
    }

    /// `Inhibit(what, who, why, mode)`, e.g. ("idle", "noise", "Noise is playing", "block").
    public func inhibit(what: String, who: String, why: String, mode: String = "block") throws(Failure) -> Inhibitor {
        let reply = try call("Inhibit", [.string(what), .string(who), .string(why), .string(mode)])
        defer { sd_bus_message_unref(reply) }
        var fd: Int32 = -1
        let r = withUnsafeMutablePointer(to: &fd) { sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "h")), $0) }
        guard r > 0, fd >= 0 else {
            throw bus.failure("Inhibit", "no descriptor in the answer (\(SystemBus.text(r)))")
        }
        // The message owns its descriptor: keep a copy of our own.
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard own >= 0 else { throw bus.failure("Inhibit", SystemCallError("fcntl(F_DUPFD_CLOEXEC)").description) }
        return Inhibitor(fd: own)
    }

    /// `Suspend(false)`: no interactive authorisation prompt.
    public func suspend() throws(Failure) { sd_bus_message_unref(try call("Suspend", [.bool(false)])) }

    /// `PowerOff(false)`.
    public func powerOff() throws(Failure) { sd_bus_message_unref(try call("PowerOff", [.bool(false)])) }

    private func call(_ method: String, _ arguments: [SystemBus.Argument]) throws(Failure) -> OpaquePointer {
        try bus.call(
            method, destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
            interface: "org.freedesktop.login1.Manager", arguments: arguments,
            timeoutMicroseconds: Self.timeoutMicroseconds)
    }
}
