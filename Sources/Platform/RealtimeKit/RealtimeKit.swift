import CNoiseSupport
import CSystemdBus
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// rtkit (`org.freedesktop.RealtimeKit1` on the system bus), the daemon desktops run so that a
/// user's audio thread can have real-time scheduling without an `rtprio` limit: PulseAudio and
/// PipeWire ask it the same way. It grants SCHED_RR only to a process whose RLIMIT_RTTIME is at
/// most its `RTTimeUSecMax` (so a runaway thread is stopped by the kernel), and at most its
/// `MaxRealtimePriority`. `DBUS_SYSTEM_BUS_ADDRESS` is honoured (sd-bus reads it), which is how
/// tests give it a private bus with a stand-in rtkit.
public final class RealtimeKit {
    let bus: OpaquePointer
    static let name = "org.freedesktop.RealtimeKit1"
    static let path = "/org/freedesktop/RealtimeKit1"

    /// A call that failed: which call, and what the bus or rtkit said.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var call: String
        public var reason: String
        public var description: String { "rtkit: \(call) failed: \(reason)" }
    }

    /// Connects to the system bus.
    public init() throws(Failure) {
        var b: OpaquePointer?
        let r = sd_bus_open_system(&b)
        guard r >= 0, let b else { throw Failure(call: "connect to the system bus", reason: Self.text(r)) }
        bus = b
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// sd-bus returns a negative errno.
    static func text(_ code: Int32) -> String { SystemCallError.reason(-code) }

    /// An `i` or `x` property of rtkit's interface.
    func property(_ member: String, type: Character) throws(Failure) -> Int64 {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(
            bus, &message, Self.name, Self.path, "org.freedesktop.DBus.Properties", "Get")
        guard r >= 0, let message else { throw Failure(call: "Get \(member)", reason: Self.text(r)) }
        defer { sd_bus_message_unref(message) }
        for s in [Self.name, member] {
            r = s.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            guard r >= 0 else { throw Failure(call: "Get \(member)", reason: Self.text(r)) }
        }
        r = sd_bus_call(bus, message, 5_000_000, &error, &reply)
        guard r >= 0, let reply else {
            throw Failure(call: "Get \(member)", reason: error.message.map { String(cString: $0) } ?? Self.text(r))
        }
        defer { sd_bus_message_unref(reply) }
        let signature = String(type)
        r = sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), signature)
        guard r > 0 else { throw Failure(call: "Get \(member)", reason: "not a \(signature) (\(Self.text(r)))") }
        var value: Int64 = 0
        if type == "i" {
            var v: Int32 = 0
            r = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "i")), &v)
            value = Int64(v)
        } else {
            r = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "x")), &value)
        }
        guard r > 0 else { throw Failure(call: "Get \(member)", reason: Self.text(r)) }
        return value
    }

    /// Gives thread `tid` of this process SCHED_RR at `priority` (lowered to rtkit's
    /// `MaxRealtimePriority`), after bringing RLIMIT_RTTIME down to rtkit's `RTTimeUSecMax` as
    /// it requires. Returns the priority granted.
    public func makeThreadRealtime(tid: Int32, priority: Int32) throws(Failure) -> Int32 {
        let most = (try? property("MaxRealtimePriority", type: "i")).map { Int32(clamping: $0) } ?? priority
        let granted = max(1, min(priority, most))
        if let limitMicroseconds = try? property("RTTimeUSecMax", type: "x"), limitMicroseconds > 0 {
            let rc = cns_limit_rttime(limitMicroseconds)
            guard rc == 0 else {
                throw Failure(
                    call: "MakeThreadRealtime", reason: "cannot lower RLIMIT_RTTIME: \(SystemCallError.reason(rc))")
            }
        }
        try call("MakeThreadRealtime", thread: tid, priority: granted)
        return granted
    }

    /// Sets thread `tid`'s nice level through rtkit (for when real time is refused and this
    /// process may not raise its own priority); returns the level given (rtkit's `MinNiceLevel` at most).
    public func makeThreadHighPriority(tid: Int32, nice: Int32) throws(Failure) -> Int32 {
        let least = (try? property("MinNiceLevel", type: "i")).map { Int32(clamping: $0) } ?? nice
        let level = max(nice, least)
        try call("MakeThreadHighPriority", thread: tid, priority: level)
        return level
    }

    /// `MakeThreadRealtime(t thread, u priority)` or `MakeThreadHighPriority(t thread, i priority)`.
    private func call(_ method: String, thread: Int32, priority: Int32) throws(Failure) {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, Self.name, Self.path, Self.name, method)
        guard r >= 0, let message else { throw Failure(call: method, reason: Self.text(r)) }
        defer { sd_bus_message_unref(message) }
        var id = UInt64(thread)
        r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &id)
        guard r >= 0 else { throw Failure(call: method, reason: Self.text(r)) }
        if method == "MakeThreadRealtime" {
            var p = UInt32(priority)
            r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &p)
        } else {
            var p = priority
            r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &p)
        }
        guard r >= 0 else { throw Failure(call: method, reason: Self.text(r)) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = sd_bus_call(bus, message, 5_000_000, &error, &reply)
        guard r >= 0 else {
            let said = error.message.map { String(cString: $0) } ?? Self.text(r)
            throw Failure(call: method, reason: said)
        }
        sd_bus_message_unref(reply)
    }
}
