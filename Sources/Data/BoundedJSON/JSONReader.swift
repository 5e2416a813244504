import CivilDates
import Foundation

/// Why a JSON document could not be read field by field: which document, which field (a path
/// such as `layers[2].lowCutHz` or `current.temperature_2m`), the value found and what was
/// allowed. The one error type of `JSONReader`, for every untrusted document read that way
/// (server answers, imported files, snapshots).
public struct JSONFieldError: Error, CustomStringConvertible, Sendable, Equatable {
    public var document: String
    public var path: String
    /// The whole sentence after the path ("900 is outside -100…70", "missing").
    public var reason: String
    /// The value found, as a message shows it (`"lots"`, `900`, `an object`); nil when missing
    /// or when the failure is not about one value.
    public var value: String?
    /// The range a number had to be in, when that was the failure.
    public var allowedRange: ClosedRange<Double>?
    /// What kind of failure, so that a reader with its own wording (the control socket's, the
    /// tolerant design decoder's) can say it in its words from the same facts.
    public var problem: Problem
    /// The JSON type found (`string`, `number`…), nil when missing.
    public var foundType: String?

    public enum Problem: Sendable, Equatable {
        case missing
        /// `expected` as a message says it: "a number", "a string", "true or false", "an object".
        case wrongType(expected: String)
        case outOfRange
        /// A number beyond what a Double holds (`1e400`): the parser keeps it as infinity, so
        /// neither its digits nor a comparison with a range can say what it was.
        case tooLarge
        case notWhole
        case unknownField
        /// Too long or too many: the reason says which limit.
        case overLimit
        /// Not parseable JSON, or a value of the right type that is not allowed; the reason says why.
        case invalid
    }

    public init(
        document: String, path: String, reason: String, value: String? = nil,
        allowedRange: ClosedRange<Double>? = nil, problem: Problem = .invalid, foundType: String? = nil
    ) {
        self.document = document
        self.path = path
        self.reason = reason
        self.value = value
        self.allowedRange = allowedRange
        self.problem = problem
        self.foundType = foundType
    }

    public var description: String { "\(document): \(path): \(reason)" }

    /// The same failure: same document, field and sentence (the sentence already names the value
    /// and the range; the structured copies are extra for programs).
    public static func == (a: JSONFieldError, b: JSONFieldError) -> Bool {
        a.document == b.document && a.path == b.path && a.reason == b.reason
    }
}

/// Field-by-field strict reading of an untrusted JSON document parsed by the bounded parser
/// (depth, value count and string size capped; duplicate keys refused; exact types): each value
/// knows its path, so every failure is a `JSONFieldError` naming the field.
public struct JSONReader: Sendable {
    public let value: JSONValue
    public let path: String
    public let document: String

    public static let topLevel = "(top level)"

    public init(value: JSONValue, path: String = JSONReader.topLevel, document: String) {
        self.value = value
        self.path = path
        self.document = document
    }

    /// Parses `data` within the limits; a parse failure is a `JSONFieldError` at the top level.
    public static func parse(
        _ data: Data, document: String, maxDepth: Int = 8, maxValues: Int = 200_000,
        maxStringBytes: Int = 1 << 20
    ) throws -> JSONReader {
        do {
            let v = try JSONValue.parse(
                data,
                limits: JSONLimits(
                    maxDepth: maxDepth, maxValueCount: maxValues,
                    maxStringBytes: maxStringBytes))
            return JSONReader(value: v, document: document)
        } catch let e as JSONParseError {
            throw JSONFieldError(document: document, path: topLevel, reason: e.description)
        }
    }

    /// A failure at this value's path, naming the value.
    public func fail(
        _ reason: String, allowedRange: ClosedRange<Double>? = nil, problem: JSONFieldError.Problem = .invalid
    ) -> JSONFieldError {
        JSONFieldError(
            document: document, path: path, reason: reason, value: Self.described(value), allowedRange: allowedRange,
            problem: problem, foundType: value.typeName)
    }

    /// "expected a number, found string", with the problem a reader of its own wording needs.
    public func wrongType(_ expected: String) -> JSONFieldError {
        fail("expected \(expected), found \(value.typeName)", problem: .wrongType(expected: expected))
    }

    /// The path of member `key` below this value (`layers[2]` + `lowCutHz` = `layers[2].lowCutHz`).
    public func childPath(_ key: String) -> String { path == Self.topLevel ? key : "\(path).\(key)" }

    /// The member `key` as it is, null included; nil when absent.
    public func member(_ key: String) throws(JSONFieldError) -> JSONReader? {
        guard case .object(let o) = value else { throw wrongType("an object") }
        return o[key].map { JSONReader(value: $0, path: childPath(key), document: document) }
    }

    /// The member `key`, nil when absent or null.
    public func optional(_ key: String) throws(JSONFieldError) -> JSONReader? {
        guard let v = try member(key), v.value != .null else { return nil }
        return v
    }

    public func required(_ key: String) throws(JSONFieldError) -> JSONReader {
        guard let v = try optional(key) else {
            throw JSONFieldError(document: document, path: childPath(key), reason: "missing", problem: .missing)
        }
        return v
    }

    /// A finite number, within `range` when one is given.
    public func number(in range: ClosedRange<Double>? = nil) throws(JSONFieldError) -> Double {
        guard case .number(let d) = value else { throw wrongType("a number") }
        guard d.isFinite else {
            let allowed = range.map { "; allowed \(Self.formatted($0))" } ?? ""
            throw fail("\(Self.tooLargeWords)\(allowed)", allowedRange: range, problem: .tooLarge)
        }
        if let range, !range.contains(d) {
            throw fail(
                "\(JSONValue.formatted(d)) is outside \(Self.formatted(range))", allowedRange: range,
                problem: .outOfRange)
        }
        return d
    }

    /// What is wrong with a number the parser could only keep as infinity: readers with their own
    /// wording say it in these words too, after the field.
    public static let tooLargeWords = "too large a number (beyond ±1.8e308)"

    /// `0…1`, as messages show a range.
    public static func formatted(_ range: ClosedRange<Double>) -> String {
        "\(JSONValue.formatted(range.lowerBound))…\(JSONValue.formatted(range.upperBound))"
    }

    /// A whole number within `range`; the range is checked before wholeness, so 2.5 of 0…1 is
    /// "outside" rather than "not whole".
    public func wholeNumber(in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
        let d = try number(in: Double(range.lowerBound)...Double(range.upperBound))
        guard d == d.rounded() else {
            throw fail("\(JSONValue.formatted(d)) is not a whole number", problem: .notWhole)
        }
        return Int(d)
    }

    public func string(maxBytes: Int = 4096) throws(JSONFieldError) -> String {
        guard case .string(let s) = value else { throw wrongType("a string") }
        guard s.utf8.count <= maxBytes else {
            throw fail("string is \(s.utf8.count) bytes; the limit is \(maxBytes)", problem: .overLimit)
        }
        return s
    }

    public func bool() throws(JSONFieldError) -> Bool {
        guard case .bool(let b) = value else { throw wrongType("true or false") }
        return b
    }

    /// An ISO 8601 date-time (`ISODate`).
    public func date() throws(JSONFieldError) -> Date {
        let text = try string(maxBytes: 64)
        guard let d = ISODate.parse(text) else {
            throw fail("'\(text)' is not an ISO 8601 date-time like 2026-01-24T09:30:00Z")
        }
        return d
    }

    public func array(maxCount: Int) throws(JSONFieldError) -> [JSONReader] {
        guard case .array(let a) = value else { throw wrongType("an array") }
        guard a.count <= maxCount else {
            throw fail("\(a.count) entries; the limit is \(maxCount)", problem: .overLimit)
        }
        return a.enumerated().map { JSONReader(value: $0.element, path: "\(path)[\($0.offset)]", document: document) }
    }

    /// An array of numbers where null means "no value" (Open-Meteo uses null for missing hours).
    public func numbers(maxCount: Int, in range: ClosedRange<Double>) throws(JSONFieldError) -> [Double?] {
        var out: [Double?] = []
        for item in try array(maxCount: maxCount) { out.append(item.value == .null ? nil : try item.number(in: range)) }
        return out
    }

    /// A value as a message shows it: strings quoted and cut at 40 characters, JSON's own names otherwise.
    public static func described(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        // JSON writes infinity as 0; a message must not claim the value was 0.
        case .number(let n) where !n.isFinite: n > 0 ? "a number above 1.8e308" : "a number below -1.8e308"
        case .number(let n): JSONValue.formatted(n)
        case .string(let s): "\"\(s.prefix(40))\"\(s.count > 40 ? "…" : "")"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
