import CSystemdBus
import SystemCalls

/// A connection to the system bus (sd-bus) and the one way this module calls a daemon on it: a
/// method call with basic arguments, its reply or a `Failure` naming the call and what the bus or
/// the daemon said. `DBUS_SYSTEM_BUS_ADDRESS` is honoured (sd-bus reads it), which is how tests
/// give the clients a private bus with stand-in daemons.
final class SystemBus {
    let handle: OpaquePointer
    /// Who is called, for messages: "logind", "rtkit".
    let service: String

    init(service: String) throws(SystemBusFailure) {
        self.service = service
        var b: OpaquePointer?
        let r = sd_bus_open_system(&b)
        guard r >= 0, let b else {
            throw SystemBusFailure(service: service, call: "connect to the system bus", reason: Self.text(r))
        }
        handle = b
    }

    deinit { sd_bus_flush_close_unref(handle) }

    /// sd-bus returns a negative errno.
    static func text(_ code: Int32) -> String { SystemCallError.reason(-code) }

    func failure(_ call: String, _ reason: String) -> SystemBusFailure {
        SystemBusFailure(service: service, call: call, reason: reason)
    }

    func failure(_ call: String, code: Int32) -> SystemBusFailure { failure(call, Self.text(code)) }

    /// One argument of a call, by its D-Bus type.
    enum Argument {
        case string(String)
        case bool(Bool)
        case int32(Int32)
        case uint32(UInt32)
        case uint64(UInt64)
    }

    /// Calls `method` and returns its reply, which the caller reads and gives back with `sd_bus_message_unref`.
    /// `label` names the call in a failure (the method unless given).
    func call(
        _ method: String, destination: String, path: String, interface: String, arguments: [Argument] = [],
        timeoutMicroseconds: UInt64, label: String? = nil
    ) throws(SystemBusFailure) -> OpaquePointer {
        let label = label ?? method
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(handle, &message, destination, path, interface, method)
        guard r >= 0, let message else { throw failure(label, code: r) }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            r = Self.append(argument, to: message)
            guard r >= 0 else { throw failure(label, code: r) }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = sd_bus_call(handle, message, timeoutMicroseconds, &error, &reply)
        guard r >= 0, let reply else {
            throw failure(label, error.message.map { String(cString: $0) } ?? Self.text(r))
        }
        return reply
    }

    private static func append(_ argument: Argument, to message: OpaquePointer) -> Int32 {
        func basic<T>(_ type: Character, _ value: T) -> Int32 {
            var v = value
            return sd_bus_message_append_basic(message, CChar(type.asciiValue!), &v)
        }
        switch argument {
        case .string(let s): return s.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        case .bool(let b): return basic("b", Int32(b ? 1 : 0))
        case .int32(let v): return basic("i", v)
        case .uint32(let v): return basic("u", v)
        case .uint64(let v): return basic("t", v)
        }
    }
}

/// A call to a system-bus daemon that failed: which daemon, which call, and what the bus or the daemon said.
public struct SystemBusFailure: Error, CustomStringConvertible, Sendable {
    public var service: String
    public var call: String
    public var reason: String
    public var description: String { "\(service): \(call) failed: \(reason)" }
}
