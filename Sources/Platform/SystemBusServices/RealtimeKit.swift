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
    let bus: SystemBus
    static let name = "org.freedesktop.RealtimeKit1"
    static let path = "/org/freedesktop/RealtimeKit1"
    static let timeoutMicroseconds: UInt64 = 5_000_000

    /// A call that failed: which call, and what the bus or rtkit said.
    public typealias Failure = SystemBusFailure

    /// Connects to the system bus.
    public init() throws(Failure) { bus = try SystemBus(service: "rtkit") }

    /// An `i` or `x` property of rtkit's interface.
    func property(_ member: String, type: Character) throws(Failure) -> Int64 {
        let label = "Get \(member)"
        let reply = try bus.call(
            "Get", destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties",
            arguments: [.string(Self.name), .string(member)], timeoutMicroseconds: Self.timeoutMicroseconds,
            label: label)
        defer { sd_bus_message_unref(reply) }
        let signature = String(type)
        var r = sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), signature)
        guard r > 0 else { throw bus.failure(label, "not a \(signature) (\(SystemBus.text(r)))") }
        var value: Int64 = 0
        if type == "i" {
            var v: Int32 = 0
            r = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "i")), &v)
            value = Int64(v)
        } else {
            r = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "x")), &value)
        }
        guard r > 0 else { throw bus.failure(label, code: r) }
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
                throw bus.failure("MakeThreadRealtime", "cannot lower RLIMIT_RTTIME: \(SystemCallError.reason(rc))")
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
        let level: SystemBus.Argument = method == "MakeThreadRealtime" ? .uint32(UInt32(priority)) : .int32(priority)
        let reply = try bus.call(
            method, destination: Self.name, path: Self.path, interface: Self.name,
            arguments: [.uint64(UInt64(thread)), level], timeoutMicroseconds: Self.timeoutMicroseconds)
        sd_bus_message_unref(reply)
    }
}
