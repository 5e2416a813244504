import Foundation
import SharedStore

/// Tolerant reading of JSON files other programs publish into the store (the noise player's
/// status, weather/steps/activity snapshots). A field that is missing or has the wrong type reads
/// as nil, so the keys it backs are absent, and the rest of the file still counts. These files are
/// not ours: an unreadable one is ignored, never set aside or rewritten.
struct SnapshotJSON {
    let object: [String: Any]

    /// Files larger than this are not snapshots.
    static let sizeLimit = 1 << 20

    static func load(_ url: URL) -> SnapshotJSON? {
        guard let data = try? FileSystem.read(url, limit: sizeLimit),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return SnapshotJSON(object: object)
    }

    init(object: [String: Any]) { self.object = object }

    func string(_ key: String) -> String? { object[key] as? String }

    /// A finite number; JSON booleans are not numbers here.
    func number(_ key: String) -> Double? {
        guard let n = object[key] as? NSNumber, !isJSONBoolean(n) else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    func bool(_ key: String) -> Bool? {
        guard let n = object[key] as? NSNumber, isJSONBoolean(n) else { return nil }
        return n.boolValue
    }

    /// An ISO 8601 date-time string.
    func date(_ key: String) -> Date? {
        guard let text = string(key) else { return nil }
        return DateParsing.parse(text, now: Date(timeIntervalSince1970: 0), timeZone: TimeZone(identifier: "UTC")!)
    }

    /// A value for a message: strings quoted and cut at 40 characters, JSON's own names otherwise.
    static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nothing"
        case is NSNull: return "null"
        case let s as String: return "\"\(s.prefix(40))\"\(s.count > 40 ? "…" : "")"
        case let n as NSNumber: return isJSONBoolean(n) ? (n.boolValue ? "true" : "false") : "\(n)"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(value!)"
        }
    }

    func child(_ key: String) -> SnapshotJSON? {
        (object[key] as? [String: Any]).map(SnapshotJSON.init(object:))
    }

    func children(_ key: String) -> [SnapshotJSON]? {
        (object[key] as? [Any]).map { $0.compactMap { ($0 as? [String: Any]).map(SnapshotJSON.init(object:)) } }
    }
}

/// Whether JSONSerialization produced this number from `true`/`false`. On Linux a JSON boolean is
/// an NSNumber whose Objective-C type is "c" (char); integers and doubles use other codes.
@inline(__always)
func isJSONBoolean(_ n: NSNumber) -> Bool {
    String(cString: n.objCType) == "c"
}
