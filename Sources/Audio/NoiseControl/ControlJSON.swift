import BoundedJSON
import Foundation
import SharedStore

/// JSON for everything this module reads and writes in files and on sockets. Foundation's
/// `JSONDecoder` has no depth or size bounds, so every document goes through the bounded, strict
/// parser (the BoundedJSON module) with this module's small limits and is decoded from its tree
/// (`JSONValueDecoder`).
enum ControlJSON {
    /// Status documents, control messages and Last Mix files are all small and shallow.
    static let limits = JSONLimits(maxDepth: 8, maxValueCount: 5_000, maxStringBytes: 16 << 10)

    /// The store's encoder (`JSONDocument`: sorted keys, ISO 8601 dates), on one line for a
    /// socket or a status line.
    static func encoder(pretty: Bool) -> JSONEncoder {
        let e = JSONDocument<JSONValue.Placeholder>.encoder()
        if !pretty { e.outputFormatting.remove(.prettyPrinted) }
        return e
    }

    /// One parse: the bounded parser's tree is decoded directly (it used to be parsed again by
    /// `JSONDecoder`, doubling the cost of every status line a subscriber reads).
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONValueDecoder.decode(T.self, from: try JSONValue.parse(data, limits: limits))
    }

    /// A parse or decoding failure as one line that names the field path.
    static func describe(_ error: Error) -> String {
        if error is DecodingError { return JSONDocument<JSONValue.Placeholder>.describe(error) }
        return "\(error)"
    }
}

extension JSONValue {
    /// Only used to reach `JSONDocument.describe`, which does not depend on the document type.
    struct Placeholder: Codable {}
}
