import Foundation

/// The members of one JSON object taken one at a time, so that what nobody took can be refused
/// as unknown: the strict readers of requests (control socket, home screen API) check every key
/// this way instead of comparing key sets by hand.
public struct JSONMembers: Sendable {
    /// The object itself, for its path and document.
    public let object: JSONReader
    private var remaining: [String: JSONValue]

    /// Refuses anything but an object ("expected an object, found array").
    public init(_ object: JSONReader) throws(JSONFieldError) {
        guard case .object(let o) = object.value else { throw object.wrongType("an object") }
        self.object = object
        self.remaining = o
    }

    /// The keys not taken yet.
    public var keys: Set<String> { Set(remaining.keys) }

    /// Member `key` as it is (null included), nil when absent; taken, so `refuseRest` passes it.
    public mutating func take(_ key: String) -> JSONReader? {
        remaining.removeValue(forKey: key).map {
            JSONReader(value: $0, path: object.childPath(key), document: object.document)
        }
    }

    /// Member `key`, refused as missing when absent.
    public mutating func takeRequired(_ key: String) throws(JSONFieldError) -> JSONReader {
        guard let v = take(key) else {
            throw JSONFieldError(
                document: object.document, path: object.childPath(key), reason: "missing", problem: .missing)
        }
        return v
    }

    /// Refuses the first left-over key in sorted order (so the message is the same every time);
    /// keys are cut at 40 characters in the path.
    public func refuseRest() throws(JSONFieldError) {
        guard let key = remaining.keys.sorted().first else { return }
        throw JSONFieldError(
            document: object.document, path: object.childPath(String(key.prefix(40))), reason: "not a known field",
            problem: .unknownField)
    }
}
