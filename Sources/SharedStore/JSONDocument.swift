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
        e.dateEncodingStrategy = .iso8601
        return e
    }

    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }

    /// Loads the document; a corrupt file is set aside.
    public func load(decode: (Data) throws -> Value = { try JSONDocument.decoder().decode(Value.self, from: $0) })
        throws -> LoadOutcome<Value> {
        let data: Data
        do {
            guard let d = try FileSystem.read(url, limit: sizeLimit) else { return .missing }
            data = d
        } catch let error as StoreError where error.reason.contains("limit") {
            let target = try FileSystem.setAside(url)
            return .setAside(reason: error.reason, setAsideAt: target)
        }
        do {
            return .loaded(try decode(data))
        } catch {
            let target = try FileSystem.setAside(url)
            return .setAside(reason: Self.describe(error), setAsideAt: target)
        }
    }

    public func save(_ value: Value) throws {
        let data = try Self.encoder().encode(value)
        try FileSystem.atomicWrite(data + Data("\n".utf8), to: url)
    }

    /// Read-modify-write under the document's lock. `body` gets the current value (or nil when the
    /// file is missing or was set aside) and returns the value to store.
    @discardableResult
    public func update(_ body: (Value?) throws -> Value, onSetAside: (String, URL) -> Void = { _, _ in }) throws -> Value {
        try lock.withLock {
            let current: Value?
            switch try load() {
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
