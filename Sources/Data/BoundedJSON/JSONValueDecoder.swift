import CivilDates
import Foundation

/// `Decodable` straight from a parsed `JSONValue`, so a document that went through the bounded
/// parser is not parsed a second time by Foundation's `JSONDecoder` (NoiseControl decoded every
/// status line and status file twice). Dates are `ISODate` strings. Failures are `DecodingError`s
/// with the coding path, worded as `JSONDecoder`'s, so `JSONDocument.describe` names the field.
public enum JSONValueDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch<T>(_ type: T.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(value.typeName) instead."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let o) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(Keyed<Key>(object: o, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let a) = value else { throw mismatch([JSONValue].self) }
        return Unkeyed(array: a, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { Single(decoder: self) }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self {
            guard case .string(let s) = value else { throw mismatch(String.self) }
            guard let d = ISODate.parse(s) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return d as! T
        }
        return try T(from: self)
    }

    func number() throws -> Double {
        guard case .number(let d) = value else { throw mismatch(Double.self) }
        return d
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let d) = value else { throw mismatch(type) }
        guard d == d.rounded(), let i = I(exactly: d) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "Parsed JSON number <\(JSONValue.formatted(d))> does not fit in \(type)."))
        }
        return i
    }
}

private struct Single: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let b) = decoder.value else { throw decoder.mismatch(type) }
        return b
    }
    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = decoder.value else { throw decoder.mismatch(type) }
        return s
    }
    func decode(_ type: Double.Type) throws -> Double { try decoder.number() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.number()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [CodingKey]
    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func child(_ key: Key) throws -> ValueDecoder {
        guard let v = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return ValueDecoder(value: v, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }
    func superDecoder() throws -> Decoder { ValueDecoder(value: .object(object), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> Decoder { try child(key) }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let codingPath: [CodingKey]
    var currentIndex = 0
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    mutating func next<T>(_ type: T.Type) throws -> ValueDecoder {
        let key = AnyKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: array[currentIndex], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next([String: JSONValue].self).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try next([JSONValue].self).unkeyedContainer()
    }
    mutating func superDecoder() throws -> Decoder { try next(JSONValue.self) }
}
