import BoundedJSON
import CivilDates
import Foundation
import NoiseDSP
import SharedStore

/// A listener's hearing profile for one output device: at each centre frequency, the gain (dB)
/// that brought a narrow band to the loudness of the 1 kHz reference (or, in threshold mode, to
/// just audible, relative to the reference band's threshold). `noise play --hearing` applies the
/// gains as the master's correction (`CorrectionDesign`, limited to ±12 dB there).
///
/// File shape: `{ "schemaVersion": 1, "device": "…", "mode": "loudness"|"threshold",
/// "centresHz": [63, 80, …], "gainsDb": [4.5, 3, …], "retestSpreadDb": 1.5, "tinnitusHz": 6000,
/// "complete": true, "updated": "2026-11-27T12:00:00Z" }`; only `centresHz` and `gainsDb` are
/// required. A calibration in progress is kept with `"complete": false` and `pendingCentresHz`.
public struct HearingProfile: Equatable, Sendable {
    public enum Mode: String, Sendable, CaseIterable { case loudness, threshold }

    public var device: String?
    public var mode: Mode
    public var centresHz: [Double]
    public var gainsDb: [Double]
    /// Test–retest spread of the second pass: the root mean square of the differences, dB.
    public var retestSpreadDb: Double?
    /// A matched tinnitus pitch, if one was matched.
    public var tinnitusHz: Double?
    public var complete: Bool
    /// Bands still to measure, for resuming.
    public var pendingCentresHz: [Double]
    public var updated: Date?

    public static let centreRange = 20.0...20000.0
    public static let gainRange = -40.0...40.0
    public static let maximumBands = 64
    public static let maximumFileBytes = 64 << 10

    public init(
        device: String? = nil, mode: Mode = .loudness, centresHz: [Double], gainsDb: [Double],
        retestSpreadDb: Double? = nil, tinnitusHz: Double? = nil, complete: Bool = true,
        pendingCentresHz: [Double] = [], updated: Date? = nil
    ) {
        self.device = device
        self.mode = mode
        self.centresHz = centresHz
        self.gainsDb = gainsDb
        self.retestSpreadDb = retestSpreadDb
        self.tinnitusHz = tinnitusHz
        self.complete = complete
        self.pendingCentresHz = pendingCentresHz
        self.updated = updated
    }

    /// The gains as the master takes them.
    public var correction: CorrectionCurve { CorrectionCurve(centresHz: centresHz, gainsDb: gainsDb) }

    /// Reads a profile strictly; every failure names `file`, the field and the allowed range.
    public static func decode(_ data: Data, file: String) throws(JSONFieldError) -> HearingProfile {
        guard data.count <= maximumFileBytes else {
            throw JSONFieldError(
                document: file, path: JSONReader.topLevel,
                reason: "file is \(data.count) bytes; a hearing profile is at most \(maximumFileBytes) bytes",
                problem: .overLimit)
        }
        let root: JSONReader
        do {
            root = try JSONReader.parse(data, document: file, maxDepth: 4, maxValues: 1000, maxStringBytes: 1024)
        } catch let e as JSONFieldError {
            throw e
        } catch {
            throw JSONFieldError(document: file, path: JSONReader.topLevel, reason: "\(error)")
        }
        var members = try JSONMembers(root)
        if let v = members.take("schemaVersion") { _ = try v.wholeNumber(in: 1...1) }
        let centres = try Self.numbers(members.takeRequired("centresHz"), in: centreRange)
        let gainsValue = try members.takeRequired("gainsDb")
        let gains = try Self.numbers(gainsValue, in: gainRange)
        guard !centres.isEmpty else {
            throw JSONFieldError(
                document: file, path: "centresHz", reason: "is empty; give 1 to \(maximumBands) centres",
                problem: .invalid)
        }
        guard gains.count == centres.count else {
            throw gainsValue.fail(
                "has \(gains.count) values; it needs one per centre (\(centres.count), as centresHz has)")
        }
        for i in 1..<max(centres.count, 1) where centres[i] <= centres[i - 1] {
            throw JSONFieldError(
                document: file, path: "centresHz[\(i)]",
                reason: "\(JSONValue.formatted(centres[i])) is not above the centre before it "
                    + "(\(JSONValue.formatted(centres[i - 1]))); centres rise",
                problem: .invalid)
        }
        var profile = HearingProfile(centresHz: centres, gainsDb: gains)
        profile.device = try members.take("device")?.string(maxBytes: 256)
        if let m = members.take("mode") {
            let s = try m.string(maxBytes: 32)
            guard let mode = Mode(rawValue: s) else {
                throw m.fail("'\(s)' is not a mode; allowed: loudness, threshold")
            }
            profile.mode = mode
        }
        profile.retestSpreadDb = try members.take("retestSpreadDb")?.number(in: 0...40)
        profile.tinnitusHz = try members.take("tinnitusHz")?.number(in: centreRange)
        profile.complete = try members.take("complete")?.bool() ?? true
        if let p = members.take("pendingCentresHz") { profile.pendingCentresHz = try Self.numbers(p, in: centreRange) }
        profile.updated = try members.take("updated")?.date()
        try members.refuseRest()
        return profile
    }

    static func numbers(_ v: JSONReader, in range: ClosedRange<Double>) throws(JSONFieldError) -> [Double] {
        let items = try v.array(maxCount: maximumBands)
        var out: [Double] = []
        for item in items { out.append(try item.number(in: range)) }
        return out
    }

    /// Loads `path` (a `--hearing FILE`): a missing or bad file is an error naming it.
    public static func load(path: String) throws(JSONFieldError) -> HearingProfile {
        let data: Data?
        do {
            data = try FileSystem.read(URL(fileURLWithPath: path), limit: maximumFileBytes)
        } catch {
            throw JSONFieldError(
                document: path, path: JSONReader.topLevel, reason: (error as? StoreError)?.reason ?? "\(error)")
        }
        guard let data else { throw JSONFieldError(document: path, path: JSONReader.topLevel, reason: "no such file") }
        return try decode(data, file: path)
    }

    /// Pretty JSON with sorted keys.
    public func encodedJSON() -> Data {
        var o: [String: Any] = [
            "schemaVersion": 1, "mode": mode.rawValue, "centresHz": centresHz, "gainsDb": gainsDb, "complete": complete,
        ]
        if let device { o["device"] = device }
        if let retestSpreadDb { o["retestSpreadDb"] = retestSpreadDb }
        if let tinnitusHz { o["tinnitusHz"] = tinnitusHz }
        if !pendingCentresHz.isEmpty { o["pendingCentresHz"] = pendingCentresHz }
        if let updated { o["updated"] = ISODate.format(updated) }
        return (try? JSONSerialization.data(withJSONObject: o, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}
