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
    let bus: OpaquePointer

    /// A logind call that failed: which call, and what the bus or logind said.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var call: String
        public var reason: String
        public var description: String { "logind: \(call) failed: \(reason)" }
    }

    /// Connects to the system bus and checks that logind answers there.
    public init() throws(Failure) {
        var b: OpaquePointer?
        let r = sd_bus_open_system(&b)
        guard r >= 0, let b else { throw Failure(call: "connect to the system bus", reason: Self.text(r)) }
        bus = b
        // Fully initialised here: a throw below still runs deinit, which closes the bus.
        let reply = try call(
            "NameHasOwner", strings: ["org.freedesktop.login1"], destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus")
        defer { sd_bus_message_unref(reply) }
        var owned: Int32 = 0
        _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &owned)
        guard owned != 0 else {
            throw Failure(call: "find org.freedesktop.login1", reason: "logind is not running on the system bus")
        }
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// sd-bus returns a negative errno.
    static func text(_ code: Int32) -> String { SystemCallError.reason(-code) }

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
        let reply = try call("Inhibit", strings: [what, who, why, mode])
        defer { sd_bus_message_unref(reply) }
        var fd: Int32 = -1
        let r = withUnsafeMutablePointer(to: &fd) { sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "h")), $0) }
        guard r > 0, fd >= 0 else {
            throw Failure(call: "Inhibit", reason: "no descriptor in the answer (\(Self.text(r)))")
        }
        // The message owns its descriptor: keep a copy of our own.
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard own >= 0 else {
            throw Failure(call: "Inhibit", reason: SystemCallError("fcntl(F_DUPFD_CLOEXEC)").description)
        }
        return Inhibitor(fd: own)
    }

    /// `Suspend(false)`: no interactive authorisation prompt.
    public func suspend() throws(Failure) { sd_bus_message_unref(try call("Suspend", interactive: false)) }

    /// `PowerOff(false)`.
    public func powerOff() throws(Failure) { sd_bus_message_unref(try call("PowerOff", interactive: false)) }

    private func call(
        _ method: String, strings: [String] = [], interactive: Bool? = nil,
        destination: String = "org.freedesktop.login1", path: String = "/org/freedesktop/login1",
        interface: String = "org.freedesktop.login1.Manager"
    ) throws(Failure) -> OpaquePointer? {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, method)
        guard r >= 0, let message else { throw Failure(call: method, reason: Self.text(r)) }
        defer { sd_bus_message_unref(message) }
        for s in strings {
            r = s.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            guard r >= 0 else { throw Failure(call: method, reason: Self.text(r)) }
        }
        if let interactive {
            var value: Int32 = interactive ? 1 : 0
            r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &value)
            guard r >= 0 else { throw Failure(call: method, reason: Self.text(r)) }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = sd_bus_call(bus, message, 25_000_000, &error, &reply)
        guard r >= 0 else {
            let said = error.message.map { String(cString: $0) } ?? Self.text(r)
            throw Failure(call: method, reason: said)
        }
        return reply
    }
}
