import CSystemdBus
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The D-Bus values MPRIS needs, written into sd-bus messages with the non-variadic sd-bus calls
/// (Swift cannot call C variadic functions such as `sd_bus_message_append`).
enum BusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case double(Double)
    case int64(Int64)
    case strings([String])
    case dictionary([String: BusValue])

    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .boolean: "b"
        case .double: "d"
        case .int64: "x"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }
}

/// A failed sd-bus call: which call, and the negative errno it returned.
struct BusError: Error, CustomStringConvertible {
    var operation: String
    var code: Int32
    init(_ operation: String, _ code: Int32) {
        self.operation = operation
        self.code = code
    }
    var description: String { "\(operation): \(SystemCallError.reason(-code))" }
}

@discardableResult
func busCheck(_ result: Int32, _ operation: @autoclosure () -> String) throws(BusError) -> Int32 {
    if result < 0 { throw BusError(operation(), result) }
    return result
}

func typeCode(_ c: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: c)) }

/// Writes values into an sd-bus message (a method reply or a signal).
struct BusWriter {
    let message: OpaquePointer

    func append(_ value: BusValue) throws(BusError) {
        switch value {
        case .string(let s): try appendString(s, type: "s")
        case .objectPath(let p): try appendString(p, type: "o")
        case .boolean(let b):
            var v: Int32 = b ? 1 : 0
            try busCheck(sd_bus_message_append_basic(message, typeCode("b"), &v), "append boolean")
        case .double(let d):
            var v = d
            try busCheck(sd_bus_message_append_basic(message, typeCode("d"), &v), "append double")
        case .int64(let x):
            var v = x
            try busCheck(sd_bus_message_append_basic(message, typeCode("x"), &v), "append int64")
        case .strings(let list):
            try open("a", "s")
            for s in list { try appendString(s, type: "s") }
            try close()
        case .dictionary(let entries):
            try appendDictionary(entries)
        }
    }

    /// `a{sv}`, keys sorted (a stable order makes messages comparable in tests and logs).
    func appendDictionary(_ entries: [String: BusValue]) throws(BusError) {
        try open("a", "{sv}")
        for key in entries.keys.sorted() {
            try open("e", "sv")
            try appendString(key, type: "s")
            try appendVariant(entries[key]!)
            try close()
        }
        try close()
    }

    func appendVariant(_ value: BusValue) throws(BusError) {
        try open("v", value.signature)
        try append(value)
        try close()
    }

    func appendString(_ s: String, type: Unicode.Scalar) throws(BusError) {
        let r = s.withCString { sd_bus_message_append_basic(message, typeCode(type), $0) }
        try busCheck(r, "append \(type)")
    }

    func open(_ type: Unicode.Scalar, _ contents: String) throws(BusError) {
        let r = contents.withCString { sd_bus_message_open_container(message, typeCode(type), $0) }
        try busCheck(r, "open container \(type)\(contents)")
    }

    func close() throws(BusError) {
        try busCheck(sd_bus_message_close_container(message), "close container")
    }
}

/// Reads the arguments of an incoming method call.
struct BusReader {
    let message: OpaquePointer

    func string() throws(BusError) -> String {
        var p: UnsafePointer<CChar>? = nil
        try busCheck(sd_bus_message_read_basic(message, typeCode("s"), &p), "read string")
        return p.map { String(cString: $0) } ?? ""
    }

    func objectPath() throws(BusError) -> String {
        var p: UnsafePointer<CChar>? = nil
        try busCheck(sd_bus_message_read_basic(message, typeCode("o"), &p), "read object path")
        return p.map { String(cString: $0) } ?? ""
    }

    func int64() throws(BusError) -> Int64 {
        var v: Int64 = 0
        try busCheck(sd_bus_message_read_basic(message, typeCode("x"), &v), "read int64")
        return v
    }

    /// A variant holding a double (MPRIS Volume); throws when the variant holds another type.
    func variantDouble() throws(BusError) -> Double {
        let entered = "d".withCString { sd_bus_message_enter_container(message, typeCode("v"), $0) }
        try busCheck(entered, "read variant of type d")
        var v = 0.0
        try busCheck(sd_bus_message_read_basic(message, typeCode("d"), &v), "read double")
        try busCheck(sd_bus_message_exit_container(message), "exit variant")
        return v
    }
}
