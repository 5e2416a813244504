import BoundedJSON
import CivilDates
import Foundation

/// What happened when a store document was loaded.
public enum LoadOutcome<Value> {
    /// The file did not exist.
    case missing
    case loaded(Value)
    /// The file could not be read as `Value`; it was moved to `setAsideAt` and nothing was lost.
    case setAside(reason: String, setAsideAt: URL)
}

/// A JSON file in the store, read and written whole. Writes are atomic; a read that fails to
/// decode moves the file aside (never overwrites it) and reports where it went.
public struct JSONDocument<Value: Codable>: Sendable {
    public let url: URL
    public let lock: FileLock
    public var sizeLimit: Int

    public init(root: StoreRoot, url: URL, sizeLimit: Int = 16 << 20) {
        self.url = url
        self.lock = FileLock(root: root, name: url.lastPathComponent)
        self.sizeLimit = sizeLimit
    }

    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = ISODate.encodingStrategy
        return e
    }

    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = ISODate.decodingStrategy
        return d
    }

    /// The store's documents go through the bounded parser (depth, value count and string size
    /// capped) and are decoded from its tree, not by Foundation's unbounded `JSONDecoder`.
    public static func decode(_ data: Data) throws -> Value {
        try JSONValueDecoder.decode(Value.self, from: try JSONValue.parse(data, limits: JSONLimits()))
    }

    /// Loads the document; a corrupt file is set aside. Reading takes no lock (writes are atomic
    /// renames, so a reader sees a whole file); only setting a file aside does, after reading it
    /// again under the lock, so a good file that a writer has just put in place is never moved.
    public func load(decode: (Data) throws -> Value = JSONDocument.decode)
        throws -> LoadOutcome<Value>
    {
        let first = try attempt(decode, setAside: false)
        guard case .setAside = first else { return first }
        return try lock.withLock { try attempt(decode, setAside: true) }
    }

    /// `load` for callers that already hold the document's lock (`update`).
    func loadLocked(decode: (Data) throws -> Value = JSONDocument.decode)
        throws -> LoadOutcome<Value>
    {
        try attempt(decode, setAside: true)
    }

    /// One read. With `setAside: false` a bad file is reported as `.setAside` with the file left
    /// where it is (the caller retries under the lock).
    private func attempt(_ decode: (Data) throws -> Value, setAside: Bool) throws -> LoadOutcome<Value> {
        let data: Data
        do {
            guard let d = try FileSystem.read(url, limit: sizeLimit) else { return .missing }
            data = d
        } catch let error as StoreError where error.reason.contains("limit") {
            return .setAside(reason: error.reason, setAsideAt: setAside ? try FileSystem.setAside(url) : url)
        }
        do {
            return .loaded(try decode(data))
        } catch {
            return .setAside(reason: Self.describe(error), setAsideAt: setAside ? try FileSystem.setAside(url) : url)
        }
    }

    public func save(_ value: Value) throws {
        let data = try Self.encoder().encode(value)
        try FileSystem.atomicWrite(data + Data("\n".utf8), to: url)
    }

    /// Read-modify-write under the document's lock. `body` gets the current value (or nil when the
    /// file is missing or was set aside) and returns the value to store. `decode` as for `load`.
    @discardableResult
    public func update(
        decode: (Data) throws -> Value = JSONDocument.decode, _ body: (Value?) throws -> Value,
        onSetAside: (String, URL) -> Void = { _, _ in }
    ) throws -> Value {
        try lock.withLock {
            let current: Value?
            switch try loadLocked(decode: decode) {
            case .missing: current = nil
            case .loaded(let v): current = v
            case .setAside(let reason, let at):
                onSetAside(reason, at)
                current = nil
            }
            let next = try body(current)
            try save(next)
            return next
        }
    }

    /// A short, human description of a decoding error, with the JSON path of the failure.
    public static func describe(_ error: Error) -> String {
        func path(_ keys: [CodingKey]) -> String {
            var s = ""
            for k in keys {
                if let i = k.intValue { s += "[\(i)]" } else { s += s.isEmpty ? k.stringValue : ".\(k.stringValue)" }
            }
            return s.isEmpty ? "(top level)" : s
        }
        switch error {
        case DecodingError.dataCorrupted(let c):
            return "\(path(c.codingPath)): \(c.debugDescription)"
        case DecodingError.keyNotFound(let k, let c):
            return "\(path(c.codingPath + [k])): missing"
        case DecodingError.typeMismatch(let t, let c):
            return "\(path(c.codingPath)): expected \(t)"
        case DecodingError.valueNotFound(let t, let c):
            return "\(path(c.codingPath)): expected \(t), found null"
        default:
            return "\(error)"
        }
    }
}
