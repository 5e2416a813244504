import Foundation
import SharedStore

/// An answer from a server that does not have the shape we asked for: which document, which
/// field (a JSON path) and what was wrong.
public struct DecodeError: Error, CustomStringConvertible, Sendable, Equatable {
    public var document: String
    public var path: String
    public var reason: String
    public var description: String { "\(document): \(path): \(reason)" }
}

/// Field-by-field reading of an untrusted JSON answer parsed by SharedStore's bounded parser
/// (depth, value count and string size capped; duplicate keys refused; exact types).
struct StrictJSON {
    let value: JSONValue
    let path: String
    let document: String

    static func parse(_ data: Data, document: String, maxDepth: Int = 8, maxValues: Int = 200_000) throws -> StrictJSON {
        do {
            let v = try JSONValue.parse(data, limits: JSONLimits(maxDepth: maxDepth, maxValueCount: maxValues,
                                                                   maxStringBytes: 1 << 20))
            return StrictJSON(value: v, path: "(top level)", document: document)
        } catch let e as JSONParseError {
            throw DecodeError(document: document, path: "(top level)", reason: e.description)
        }
    }

    func fail(_ reason: String) -> DecodeError { DecodeError(document: document, path: path, reason: reason) }

    private func childPath(_ key: String) -> String { path == "(top level)" ? key : "\(path).\(key)" }

    /// The member `key`, nil when absent or null.
    func optional(_ key: String) throws -> StrictJSON? {
        guard case .object(let o) = value else { throw fail("expected an object, found \(value.typeName)") }
        guard let v = o[key], v != .null else { return nil }
        return StrictJSON(value: v, path: childPath(key), document: document)
    }

    func required(_ key: String) throws -> StrictJSON {
        guard let v = try optional(key) else {
            throw DecodeError(document: document, path: childPath(key), reason: "missing")
        }
        return v
    }

    func number(in range: ClosedRange<Double>? = nil) throws -> Double {
        guard case .number(let d) = value, d.isFinite else { throw fail("expected a number, found \(value.typeName)") }
        if let range, !range.contains(d) {
            throw fail("\(JSONValue.formatted(d)) is outside \(JSONValue.formatted(range.lowerBound))…\(JSONValue.formatted(range.upperBound))")
        }
        return d
    }

    func string(maxBytes: Int = 4096) throws -> String {
        guard case .string(let s) = value else { throw fail("expected a string, found \(value.typeName)") }
        guard s.utf8.count <= maxBytes else { throw fail("string is \(s.utf8.count) bytes; the limit is \(maxBytes)") }
        return s
    }

    func array(maxCount: Int) throws -> [StrictJSON] {
        guard case .array(let a) = value else { throw fail("expected an array, found \(value.typeName)") }
        guard a.count <= maxCount else { throw fail("\(a.count) entries; the limit is \(maxCount)") }
        return a.enumerated().map { StrictJSON(value: $0.element, path: "\(path)[\($0.offset)]", document: document) }
    }

    /// An array of numbers where null means "no value" (Open-Meteo uses null for missing hours).
    func numbers(maxCount: Int, in range: ClosedRange<Double>) throws -> [Double?] {
        try array(maxCount: maxCount).map { $0.value == .null ? nil : try $0.number(in: range) }
    }
}
