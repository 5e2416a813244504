import CivilDates
import Foundation
import SharedStore
import TemplateLanguage

/// The stored custom variables: `variables.json` in the shared store.
///
/// ```json
/// { "schemaVersion": 1, "variables": { "last done": "2026-01-24T09:30:00.000Z", "streak": "4" } }
/// ```
/// Keys are stored canonical. Values are text; a hand-edited number or boolean is read as its
/// text. Every change is a locked read-modify-write with an atomic replace, so concurrent
/// `weaver vars` runs lose nothing; an unreadable file is set aside, never overwritten.
public struct VariableStore: Sendable {
    public struct File: Codable, Sendable, Equatable {
        public static let currentSchemaVersion = 1
        public var schemaVersion: Int
        public var variables: [String: String]

        public init(variables: [String: String] = [:]) {
            schemaVersion = Self.currentSchemaVersion
            self.variables = variables
        }

        enum CodingKeys: String, CodingKey { case schemaVersion, variables }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            schemaVersion = try c.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? Self.currentSchemaVersion
            let raw = try c.decodeIfPresent([String: LenientText].self, forKey: .variables) ?? [:]
            var variables: [String: String] = [:]
            for (key, value) in raw.sorted(by: { $0.key < $1.key }) {
                let canonical = KeyCanonicaliser.canonical(key)
                if !canonical.isEmpty { variables[canonical] = value.text }
            }
            self.variables = variables
        }
    }

    /// A JSON string, number or boolean, kept as text.
    struct LenientText: Codable {
        var text: String
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                text = s
            } else if let b = try? c.decode(Bool.self) {
                text = b ? "true" : "false"
            } else {
                text = NumberText.canonical(try c.decode(Double.self))
            }
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(text)
        }
    }

    /// Limits that keep one variable from swamping a widget or the file.
    public static let maximumKeyBytes = 256
    public static let maximumValueBytes = 64 << 10

    public let document: JSONDocument<File>

    public init(root: StoreRoot) {
        document = JSONDocument(root: root, url: root.variables, sizeLimit: 16 << 20)
    }

    /// All stored variables under canonical keys. A missing file is empty; an unreadable one is
    /// set aside (reported through `onSetAside`) and reads as empty.
    public func load(onSetAside: (String, URL) -> Void = { _, _ in }) throws -> [String: String] {
        switch try document.load() {
        case .missing: return [:]
        case .loaded(let file): return file.variables
        case .setAside(let reason, let at):
            onSetAside(reason, at)
            return [:]
        }
    }

    /// Checks a key a user wants to write and returns its canonical form.
    public static func validatedKey(_ raw: String) throws(VariableStoreError) -> String {
        let key = KeyCanonicaliser.canonical(raw)
        guard !key.isEmpty else {
            throw .invalidKey(raw, reason: "it is empty after trimming whitespace and underscores")
        }
        guard !KeyCanonicaliser.isBuiltIn(key) else {
            throw .invalidKey(raw, reason: "keys starting with '__' are reserved for built-in keys")
        }
        guard key.utf8.count <= maximumKeyBytes else {
            throw .invalidKey(raw, reason: "it is \(key.utf8.count) bytes; the limit is \(maximumKeyBytes)")
        }
        return key
    }

    public static func validatedValue(_ value: String) throws(VariableStoreError) -> String {
        guard value.utf8.count <= maximumValueBytes else {
            throw .invalidValue(reason: "it is \(value.utf8.count) bytes; the limit is \(maximumValueBytes)")
        }
        return value
    }

    /// Stores `value` under `key`; returns the canonical key.
    @discardableResult
    public func set(_ key: String, to value: String, onSetAside: (String, URL) -> Void = { _, _ in }) throws -> String {
        let canonical = try Self.validatedKey(key)
        let value = try Self.validatedValue(value)
        try modify(onSetAside: onSetAside) { $0[canonical] = value }
        return canonical
    }

    /// Removes `key`; returns whether it existed.
    @discardableResult
    public func delete(_ key: String, onSetAside: (String, URL) -> Void = { _, _ in }) throws -> Bool {
        let canonical = KeyCanonicaliser.canonical(key)
        var existed = false
        try modify(onSetAside: onSetAside) { existed = $0.removeValue(forKey: canonical) != nil }
        return existed
    }

    /// The "Set variable to Now" intent: stores `now` in `format`; returns the stored text.
    @discardableResult
    public func setNow(
        _ key: String, format: NowFormat, now: Date, timeZone: TimeZone,
        onSetAside: (String, URL) -> Void = { _, _ in }
    ) throws -> String {
        let canonical = try Self.validatedKey(key)
        let value = format.text(for: now, timeZone: timeZone)
        try modify(onSetAside: onSetAside) { $0[canonical] = value }
        return value
    }

    /// Largest magnitude a counter may reach: beyond it integers stop being exact in a Double.
    public static let counterLimit = 1e15

    /// The counter button: adds `amount` to the number stored under `key` (missing counts as 0)
    /// and returns the new text. A value that is not a number is left alone and reported.
    @discardableResult
    public func increment(
        _ key: String, by amount: Double,
        onSetAside: (String, URL) -> Void = { _, _ in }
    ) throws -> String {
        let canonical = try Self.validatedKey(key)
        guard amount.isFinite, Swift.abs(amount) < Self.counterLimit else {
            throw VariableStoreError.invalidValue(
                reason: "the increment must be a finite number below 1e15 in magnitude")
        }
        var result = ""
        try modify(onSetAside: onSetAside) { variables throws(VariableStoreError) in
            let current: Double
            if let text = variables[canonical] {
                guard let number = NumberText.parse(text) else {
                    throw .notANumber(key: canonical, value: text)
                }
                current = number
            } else {
                current = 0
            }
            let next = current + amount
            guard Swift.abs(next) < Self.counterLimit else {
                throw .invalidValue(
                    reason: "'\(canonical)' would become \(next); counters stay below 1e15 in magnitude")
            }
            result = NumberText.canonical(next)
            variables[canonical] = result
        }
        return result
    }

    private func modify(
        onSetAside: (String, URL) -> Void,
        _ change: (inout [String: String]) throws(VariableStoreError) -> Void
    ) throws {
        try document.update(
            { current in
                var file = current ?? File()
                guard file.schemaVersion <= File.currentSchemaVersion else {
                    throw VariableStoreError.newerSchema(
                        found: file.schemaVersion, supported: File.currentSchemaVersion,
                        path: document.url.path)
                }
                try change(&file.variables)
                file.schemaVersion = File.currentSchemaVersion
                return file
            }, onSetAside: onSetAside)
    }
}

/// The formats of "Set variable to Now".
public enum NowFormat: String, CaseIterable, Sendable {
    /// ISO 8601 UTC with milliseconds, like `__now`.
    case iso
    /// Whole Unix seconds.
    case unix
    /// Whole Unix milliseconds (the date parser reads large numbers as milliseconds).
    case unixms
    /// Local `yyyy-MM-dd`.
    case date
    /// Local `HH:mm`.
    case time

    public func text(for now: Date, timeZone: TimeZone) -> String {
        switch self {
        case .iso: return CivilTime.isoUTC(now, fractionalSeconds: true)
        case .unix: return String(Int64(CivilTime.clampedSeconds(now).rounded(.down)))
        case .unixms: return String(Int64((CivilTime.clampedSeconds(now) * 1000).rounded(.down)))
        case .date: return CivilTime.local(now, in: timeZone).isoDate
        case .time: return CivilTime.local(now, in: timeZone).hourMinute
        }
    }
}

public enum VariableStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    case invalidKey(String, reason: String)
    case invalidValue(reason: String)
    case notANumber(key: String, value: String)
    case newerSchema(found: Int, supported: Int, path: String)

    public var description: String {
        switch self {
        case .invalidKey(let key, let reason): return "invalid key '\(key)': \(reason)"
        case .invalidValue(let reason): return "invalid value: \(reason)"
        case .notANumber(let key, let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "'\(key)' holds '\(shown)', which is not a number; it was left unchanged"
        case .newerSchema(let found, let supported, let path):
            return
                "\(path) has schemaVersion \(found); this weaver understands up to \(supported) and will not rewrite it"
        }
    }
}
