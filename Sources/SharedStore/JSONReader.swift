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

    public init(
        document: String, path: String, reason: String, value: String? = nil, allowedRange: ClosedRange<Double>? = nil
    ) {
        self.document = document
        self.path = path
        self.reason = reason
        self.value = value
        self.allowedRange = allowedRange
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
    public func fail(_ reason: String, allowedRange: ClosedRange<Double>? = nil) -> JSONFieldError {
        JSONFieldError(
            document: document, path: path, reason: reason, value: Self.described(value), allowedRange: allowedRange)
    }

    private func childPath(_ key: String) -> String { path == Self.topLevel ? key : "\(path).\(key)" }

    /// The member `key`, nil when absent or null.
    public func optional(_ key: String) throws -> JSONReader? {
        guard case .object(let o) = value else { throw fail("expected an object, found \(value.typeName)") }
        guard let v = o[key], v != .null else { return nil }
        return JSONReader(value: v, path: childPath(key), document: document)
    }

    public func required(_ key: String) throws -> JSONReader {
        guard let v = try optional(key) else {
            throw JSONFieldError(document: document, path: childPath(key), reason: "missing")
        }
        return v
    }

    public func number(in range: ClosedRange<Double>? = nil) throws -> Double {
        guard case .number(let d) = value, d.isFinite else { throw fail("expected a number, found \(value.typeName)") }
        if let range, !range.contains(d) {
            throw fail(
                "\(JSONValue.formatted(d)) is outside \(JSONValue.formatted(range.lowerBound))…\(JSONValue.formatted(range.upperBound))",
                allowedRange: range)
        }
        return d
    }

    public func string(maxBytes: Int = 4096) throws -> String {
        guard case .string(let s) = value else { throw fail("expected a string, found \(value.typeName)") }
        guard s.utf8.count <= maxBytes else { throw fail("string is \(s.utf8.count) bytes; the limit is \(maxBytes)") }
        return s
    }

    public func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw fail("expected true or false, found \(value.typeName)") }
        return b
    }

    /// An ISO 8601 date-time (`ISODate`).
    public func date() throws -> Date {
        let text = try string(maxBytes: 64)
        guard let d = ISODate.parse(text) else {
            throw fail("'\(text)' is not an ISO 8601 date-time like 2026-01-24T09:30:00Z")
        }
        return d
    }

    public func array(maxCount: Int) throws -> [JSONReader] {
        guard case .array(let a) = value else { throw fail("expected an array, found \(value.typeName)") }
        guard a.count <= maxCount else { throw fail("\(a.count) entries; the limit is \(maxCount)") }
        return a.enumerated().map { JSONReader(value: $0.element, path: "\(path)[\($0.offset)]", document: document) }
    }

    /// An array of numbers where null means "no value" (Open-Meteo uses null for missing hours).
    public func numbers(maxCount: Int, in range: ClosedRange<Double>) throws -> [Double?] {
        try array(maxCount: maxCount).map { $0.value == .null ? nil : try $0.number(in: range) }
    }

    /// A value as a message shows it: strings quoted and cut at 40 characters, JSON's own names otherwise.
    public static func described(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONValue.formatted(n)
        case .string(let s): "\"\(s.prefix(40))\"\(s.count > 40 ? "…" : "")"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
