import BoundedJSON
import CivilDates
import Foundation
import SharedStore

/// What reading a snapshot file found.
public enum SnapshotReading: Sendable {
    case absent
    case object(JSONValue)
    /// There, but not a JSON object within the limits; why.
    case unreadable(String)
}

/// Reads the snapshot files through SharedStore's bounded parser (size, depth, value count and
/// string length capped; duplicate keys refused). Snapshots may be written by other programs, so
/// reading is tolerant field by field: a missing or mistyped field reads as nil and the rest of the
/// file still counts. An unreadable file is reported (`problem`), never set aside or rewritten:
/// it is not ours.
public enum SnapshotReader {
    /// Room for the largest snapshot the data sources write (weather with 16 days of hourly
    /// temperatures, a calendar at `CalendarSnapshot.maximumEvents`, ten years of steps).
    public static let limits = JSONLimits(maxDepth: 8, maxValueCount: 50_000, maxStringBytes: 64 << 10)
    /// Files larger than this are not snapshots.
    public static let maximumBytes = 1 << 20

    public static func read(_ url: URL) -> SnapshotReading {
        let data: Data
        do {
            guard let read = try FileSystem.read(url, limit: maximumBytes) else { return .absent }
            data = read
        } catch {
            return .unreadable("\(error)")
        }
        do {
            let value = try JSONValue.parse(data, limits: limits)
            guard case .object = value else { return .unreadable("not a JSON object") }
            return .object(value)
        } catch {
            return .unreadable("not valid JSON (\(error))")
        }
    }

    /// The snapshot as a JSON object; nil when it is absent or unreadable.
    public static func load(_ file: SnapshotFile, in root: StoreRoot) -> JSONValue? { load(file.url(in: root)) }

    /// Another published file read the same way (the noise player's `status.json`).
    public static func load(_ url: URL) -> JSONValue? {
        if case .object(let value) = read(url) { return value }
        return nil
    }

    /// Why the snapshot cannot be read; nil when it is absent or reads as a JSON object.
    public static func problem(_ file: SnapshotFile, in root: StoreRoot) -> String? {
        if case .unreadable(let reason) = read(file.url(in: root)) { return reason }
        return nil
    }
}

/// Tolerant field access for snapshot readers: the value when it has the expected type, else nil.
extension JSONValue {
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A finite number; JSON booleans are not numbers.
    public var finiteNumber: Double? {
        if case .number(let n) = self, n.isFinite { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// An ISO 8601 date-time string (`ISODate`).
    public var dateValue: Date? { stringValue.flatMap(ISODate.parse) }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Self when it is an object.
    public var objectValue: JSONValue? {
        if case .object = self { return self }
        return nil
    }

    /// A value for a message (`JSONReader.described`).
    public var described: String { JSONReader.described(self) }
}
