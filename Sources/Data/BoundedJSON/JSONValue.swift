import Foundation

/// A parsed JSON document, for every untrusted or hand-written file the apps read (mix files,
/// design files, `.wwdesign` packages): the decoders see every field with its path and report
/// exactly which one is wrong. Exact types (a boolean is never a number); duplicate keys refused.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// Bounds for parsing untrusted JSON. The defaults suit design packages: designs nest about six
/// levels deep, so 32 is generous without letting a hostile file exhaust the stack.
public struct JSONLimits: Sendable {
    public var maxDepth = 32
    /// Total values (scalars and containers) in the document.
    public var maxValueCount = 4_000_000
    public var maxStringBytes = 48 << 20

    public init() {}
    public init(maxDepth: Int, maxValueCount: Int, maxStringBytes: Int) {
        self.maxDepth = maxDepth
        self.maxValueCount = maxValueCount
        self.maxStringBytes = maxStringBytes
    }
}

public struct JSONParseError: Error, CustomStringConvertible, Sendable, Equatable {
    public var offset: Int
    /// 1-based line and column of `offset`, for people fixing a file in an editor.
    public var line: Int = 1
    public var column: Int = 1
    public var reason: String
    public var description: String { "invalid JSON at line \(line), column \(column) (byte \(offset)): \(reason)" }
}

extension JSONValue {
    /// The deepest container nesting in `bytes`, found with one pass that only tracks strings and
    /// brackets: cheap enough to run before any real parsing, and stops early past `limit`.
    public static func nestingDepth(of bytes: UnsafeRawBufferPointer, stopAbove limit: Int = .max) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > limit { return deepest }
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    public static func nestingDepth(of data: Data, stopAbove limit: Int = .max) -> Int {
        data.withUnsafeBytes { nestingDepth(of: $0, stopAbove: limit) }
    }

    /// Parses `data` as one JSON value (RFC 8259), refusing anything beyond `limits`.
    public static func parse(_ data: Data, limits: JSONLimits = JSONLimits()) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, limits: limits)
            return try parser.parseDocument()
        }
    }
}

private struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let limits: JSONLimits
    var index = 0
    var valueCount = 0

    init(bytes: UnsafeRawBufferPointer, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    func fail(_ reason: String) -> JSONParseError {
        var line = 1, column = 1
        for b in bytes[0..<min(index, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(offset: index, line: line, column: column, reason: reason)
    }

    mutating func parseDocument() throws -> JSONValue {
        // A UTF-8 byte order mark is tolerated, as editors on other systems write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the end of the document") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws -> JSONValue {
        valueCount += 1
        guard valueCount <= limits.maxValueCount else {
            throw fail("more than \(limits.maxValueCount) values")
        }
        guard index < bytes.count else { throw fail("unexpected end of data") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    mutating func expectWord(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard index + n <= bytes.count else { throw fail("unexpected end of data") }
        for i in 0..<n where bytes[index + i] != word.utf8Start[i] {
            throw fail("unexpected character")
        }
        index += n
    }

    mutating func parseObject(depth: Int) throws -> JSONValue {
        var object: [String: JSONValue] = [:]
        guard try opens(depth: depth, closedBy: UInt8(ascii: "}")) else { return .object(object) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key string") }
            let keyStart = index
            let key = try parseString()
            if object[key] != nil {
                index = keyStart
                throw fail("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue(depth: depth)
        } while try continues(closedBy: UInt8(ascii: "}"))
        return .object(object)
    }

    mutating func parseArray(depth: Int) throws -> JSONValue {
        var array: [JSONValue] = []
        guard try opens(depth: depth, closedBy: UInt8(ascii: "]")) else { return .array(array) }
        repeat {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
        } while try continues(closedBy: UInt8(ascii: "]"))
        return .array(array)
    }

    /// Steps past a container's opening bracket at `depth`; false, past `closer` too, when it is empty.
    mutating func opens(depth: Int, closedBy closer: UInt8) throws -> Bool {
        guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth) levels") }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closer else { return true }
        index += 1
        return false
    }

    /// After a member or an element: true past a ',' (another follows), false past `closer` (the end).
    mutating func continues(closedBy closer: UInt8) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of data") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == closer else { throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))'") }
        index += 1
        return false
    }

    mutating func parseString() throws -> String {
        index += 1
        let start = index
        // Fast path: no escapes, the common case (and the whole of every base64 image).
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                guard index - start <= limits.maxStringBytes else {
                    throw fail("string longer than \(limits.maxStringBytes) bytes")
                }
                let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("control character in string") }
            index += 1
        }
        var out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if out.count > limits.maxStringBytes { throw fail("string longer than \(limits.maxStringBytes) bytes") }
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw fail("control character in string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must pair with a following low one; a lone one becomes U+FFFD.
                    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            appendScalar(0xFFFD, to: &out)
                            scalar = low
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                }
                if (0xD800...0xDFFF).contains(scalar) { scalar = 0xFFFD }
                appendScalar(scalar, to: &out)
            default:
                index -= 1
                throw fail("invalid escape")
            }
        }
        throw fail("unterminated string")
    }

    mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("unexpected end of data in \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func parseNumber() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) {
                p.index += 1
            }
            return p.index - s
        }
        guard index < bytes.count else { throw fail("unexpected end of data in number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw fail("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        guard index - start <= 64 else { throw fail("number longer than 64 characters") }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw fail("invalid number") }
        return value
    }
}

// MARK: - Writing

extension JSONValue {
    /// Pretty-printed with sorted keys (two-space indent, `"key" : value`), the seed app's
    /// exchange layout. A trailing newline is added.
    public func prettyPrinted() -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, indent: 0)
        out.append(0x0A)
        return Data(out)
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let d): out.append(contentsOf: JSONValue.format(d).utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            if a.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(contentsOf: "[\n".utf8)
            for (i, v) in a.enumerated() {
                out.append(contentsOf: repeatElement(0x20, count: indent + 2))
                v.write(to: &out, indent: indent + 2)
                if i < a.count - 1 { out.append(0x2C) }
                out.append(0x0A)
            }
            out.append(contentsOf: repeatElement(0x20, count: indent))
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            if o.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(contentsOf: "{\n".utf8)
            let keys = o.keys.sorted()
            for (i, k) in keys.enumerated() {
                out.append(contentsOf: repeatElement(0x20, count: indent + 2))
                JSONValue.writeString(k, to: &out)
                out.append(contentsOf: " : ".utf8)
                o[k]!.write(to: &out, indent: indent + 2)
                if i < keys.count - 1 { out.append(0x2C) }
                out.append(0x0A)
            }
            out.append(contentsOf: repeatElement(0x20, count: indent))
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A number as JSON writes it: whole numbers without a fraction.
    public static func formatted(_ d: Double) -> String { format(d) }

    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "0" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}
