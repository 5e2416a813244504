import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import SharedStore

/// A JSON request body read by the shared strict reader (bounded parser, `JSONReader`): each
/// route states the keys it takes and reads the values it needs; anything else is refused with
/// the route's own description of the body it wants.
enum RequestBody {
    /// The request's body (up to the server's cap) as an object `object(_:limits:allowed:required:)`
    /// accepts; anything else is 400 "the body must be SHAPE".
    static func read(
        _ request: Request, limits: JSONLimits, allowed: Set<String>, required: Set<String> = [], shape: String
    ) async throws -> JSONReader {
        let bytes = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        guard let o = object(bytes, limits: limits, allowed: allowed, required: required) else {
            throw HTTPError(.badRequest, "the body must be \(shape)")
        }
        return o
    }

    /// `read`, and the member the route cannot do without, as `member` reads it: its absence (or
    /// another type) is the same 400 as a wrong body.
    static func read<Value>(
        _ request: Request, limits: JSONLimits, allowed: Set<String>, shape: String, member: (JSONReader) -> Value?
    ) async throws -> (JSONReader, Value) {
        let o = try await read(request, limits: limits, allowed: allowed, shape: shape)
        guard let value = member(o) else { throw HTTPError(.badRequest, "the body must be \(shape)") }
        return (o, value)
    }

    /// The body as a reader when it is a JSON object within `limits` whose keys are all in
    /// `allowed` and include every key of `required`; nil otherwise.
    static func object(
        _ body: ByteBuffer, limits: JSONLimits, allowed: Set<String>, required: Set<String> = []
    ) -> JSONReader? {
        object(Data(buffer: body), limits: limits, allowed: allowed, required: required)
    }

    static func object(_ data: Data, limits: JSONLimits, allowed: Set<String>, required: Set<String> = [])
        -> JSONReader?
    {
        guard let value = try? JSONValue.parse(data, limits: limits) else { return nil }
        return object(JSONReader(value: value, document: "request body"), allowed: allowed, required: required)
    }

    /// `value` when it is an object whose keys are all in `allowed` and include every key of
    /// `required` (a body's member, such as one of several edits); nil otherwise.
    static func object(_ value: JSONReader, allowed: Set<String>, required: Set<String> = []) -> JSONReader? {
        guard case .object(let o) = value.value else { return nil }
        let keys = Set(o.keys)
        guard keys.isSubset(of: allowed), required.isSubset(of: keys) else { return nil }
        return value
    }
}

extension JSONReader {
    /// Member `key` when it is a string (the parser's limits already bound its size); nil when
    /// absent, null or another type.
    func text(_ key: String) -> String? { try? optional(key)?.string(maxBytes: .max) }

    /// Member `key` when it is true or false; nil when absent, null or another type.
    func flag(_ key: String) -> Bool? { try? optional(key)?.bool() }

    /// Whether the body names `key` at all (null included), for members whose presence alone
    /// asks for something ("remix": null is a wrong remix, not no remix).
    func has(_ key: String) -> Bool { (try? member(key)) != nil }

    /// Member `key` when it is a finite number; nil when absent, null or another type.
    func finiteNumber(_ key: String) -> Double? { try? optional(key)?.number() }
}
