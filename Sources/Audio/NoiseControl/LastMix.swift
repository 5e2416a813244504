import BoundedJSON
import CivilDates
import Foundation
import NoiseDSP
import NoiseEngine

/// The mix that was playing most recently, kept in the store as `last-mix.json` so the next
/// session (or `noise resume`) continues where the user left off.
///
/// JSON: `{ "schemaVersion": 1, "mix": <mix file encoding>, "presetID": "sleep", "wasPlaying": true,
/// "resumeOnLaunch": false, "updatedAt": "2026-01-01T00:00:00Z" }`.
public struct LastMix: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var mix: Mix
    /// The preset the mix started from; nil for a mix from a file or edited beyond recognition.
    public var presetID: String?
    /// True while a player plays this mix; false once playback stopped. Written by the player.
    public var wasPlaying: Bool
    /// The user's choice (`noise autostart enable`): resume at login if `wasPlaying`.
    public var resumeOnLaunch: Bool
    public var updatedAt: Date

    public init(
        mix: Mix, presetID: String? = nil, wasPlaying: Bool = false, resumeOnLaunch: Bool = false,
        updatedAt: Date = Date()
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.mix = mix
        self.presetID = presetID
        self.wasPlaying = wasPlaying
        self.resumeOnLaunch = resumeOnLaunch
        self.updatedAt = updatedAt
    }

    /// What a fresh store starts from: one pink layer, the seed app's first-launch mix.
    public static let defaultMix = Mix(
        name: "Pink", description: "Default mix", masterVolume: 0.7,
        layers: [Mix.Layer(enabled: true, volume: 0.8, colour: 1)])
}

/// One field of a stored document that could not be used as written and was replaced by its default.
public struct FieldRepair: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String
    public var replacement: String

    public var description: String { "\(path): \(problem); using \(replacement)" }
}

extension LastMix {
    /// Reads a Last Mix field by field. Unlike the seed app, which resets the whole mix when one
    /// field is missing, every field that is missing or unusable gets its own default and the rest
    /// of the user's mix is kept.
    ///
    /// - Returns: the mix, the fields that were missing (normal for files from older versions),
    ///   and the fields that were present but unusable (wrong type, out of range).
    static func tolerant(_ root: JSONValue) -> (value: LastMix, missing: [String], repairs: [FieldRepair]) {
        var reader = TolerantReader()
        guard case .object(var top) = root else {
            reader.repair("(top level)", "must be an object, found \(root.typeName)", "the default mix")
            return (LastMix(mix: defaultMix, updatedAt: Date(timeIntervalSince1970: 0)), [], reader.repairs)
        }
        var version = 1
        if let v = top["schemaVersion"] {
            if case .number(let n) = v, n == n.rounded(), n >= 0, n < 1_000_000 {
                version = Int(n)
            } else {
                reader.repair("schemaVersion", "must be a whole number, found \(v.typeName)", "1")
            }
        } else if top["layers"] != nil, top["mix"] == nil {
            // Version 0: a bare mix file copied into place (what the first Linux builds wrote).
            version = 0
        } else {
            reader.missing.append("schemaVersion")
        }
        if version > currentSchemaVersion {
            reader.repair(
                "schemaVersion", "\(version) is newer than this version of noise reads (\(currentSchemaVersion))",
                "the fields it understands")
        }
        top = Self.migrate(top, from: version)

        let mix: Mix
        if let m = top["mix"] {
            mix = reader.mix(m, path: "mix")
        } else {
            reader.missing.append("mix")
            mix = defaultMix
        }
        var result = LastMix(mix: mix, updatedAt: Date(timeIntervalSince1970: 0))
        switch top["presetID"] {
        case nil: reader.missing.append("presetID")
        case .null?: result.presetID = nil
        case .string(let s)? where PresetLibrary.isValidID(s): result.presetID = s
        case let other?:
            reader.repair(
                "presetID", "must be a preset id (a-z, 0-9, '-', '_') or null, found \(Self.show(other))", "null")
        }
        result.wasPlaying = reader.bool(top["wasPlaying"], path: "wasPlaying", default: false)
        result.resumeOnLaunch = reader.bool(top["resumeOnLaunch"], path: "resumeOnLaunch", default: false)
        switch top["updatedAt"] {
        case nil: reader.missing.append("updatedAt")
        case .string(let s)? where ISODate.parse(s) != nil: result.updatedAt = ISODate.parse(s)!
        case let other?:
            reader.repair("updatedAt", "must be an ISO 8601 date, found \(Self.show(other))", "1970-01-01T00:00:00Z")
        }
        return (result, reader.missing, reader.repairs)
    }

    /// Brings an older document's members up to the current schema. Each step is one version.
    static func migrate(_ object: [String: JSONValue], from version: Int) -> [String: JSONValue] {
        var o = object
        if version < 1 {
            // 0 → 1: the mix moved under "mix"; playback flags did not exist (off).
            var mix = o
            mix.removeValue(forKey: "schemaVersion")
            o = ["mix": .object(mix), "schemaVersion": .number(1)]
        }
        return o
    }

    static func show(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): "\"\(s.prefix(40))\""
        case .number(let d): JSONValue.format(d)
        case .bool(let b): "\(b)"
        default: v.typeName
        }
    }
}

/// Collects missing and repaired fields while reading a document leniently.
struct TolerantReader {
    var missing: [String] = []
    var repairs: [FieldRepair] = []

    mutating func repair(_ path: String, _ problem: String, _ replacement: String) {
        repairs.append(FieldRepair(path: path, problem: problem, replacement: replacement))
    }

    mutating func bool(_ v: JSONValue?, path: String, default d: Bool) -> Bool {
        switch v {
        case nil:
            missing.append(path)
            return d
        case .bool(let b)?: return b
        case let other?:
            repair(path, "must be true or false, found \(LastMix.show(other))", "\(d)")
            return d
        }
    }

    mutating func number(
        _ v: JSONValue?, path: String, range: ClosedRange<Double>, default d: Double, unit: String = ""
    ) -> Double {
        switch v {
        case nil:
            missing.append(path)
            return d
        case .number(let n)? where range.contains(n): return n
        case .number(let n)?:
            repair(
                path,
                """
                \(JSONValue.format(n))\(unit) is out of range \
                \(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))\(unit)
                """,
                JSONValue.format(d) + unit)
            return d
        case let other?:
            repair(path, "must be a number, found \(LastMix.show(other))", JSONValue.format(d) + unit)
            return d
        }
    }

    /// The layer's number `parameter` from `object` (the layer's own, its `eq` or `movement`) into
    /// its slot, checked against the table's range and falling back to its default, in its unit.
    mutating func number(
        _ parameter: MixParameter, of object: [String: JSONValue], into l: inout Mix.Layer, path p: String,
        absentIsDefault: Bool = false
    ) {
        let f = parameter.field, member = String(f.key.split(separator: ".").last!)
        let value = object[member] ?? (absentIsDefault ? .number(f.defaultNumber) : nil)
        let n = number(
            value, path: p + f.key.dropFirst("layers[]".count), range: f.numberRange, default: f.defaultNumber,
            unit: f.unit.isEmpty ? "" : " \(f.unit)")
        parameter.set(n, in: &l)
    }

    /// A number that may be absent (nil: `absent` says what that means).
    mutating func optional(
        _ v: JSONValue?, path: String, range: ClosedRange<Double>, unit: String = "", absent: String
    ) -> Double? {
        switch v {
        case nil, .null?: return nil
        case .number(let n)? where range.contains(n): return n
        case let other?:
            repair(
                path,
                """
                \(LastMix.show(other)) is not a number in \
                \(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))\(unit)
                """,
                absent)
            return nil
        }
    }

    /// A cut frequency: absent, null or 0 mean off.
    mutating func cut(_ v: JSONValue?, path: String, range: ClosedRange<Double>) -> Double? {
        switch v {
        case nil, .null?: return nil
        case .number(let n)? where n == 0: return nil
        case .number(let n)? where range.contains(n): return n
        case let other?:
            repair(
                path,
                """
                \(LastMix.show(other)) is not 0 (off) or \
                \(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound)) Hz
                """,
                "off")
            return nil
        }
    }

    mutating func string(_ v: JSONValue?, path: String, default d: String) -> String {
        switch v {
        case nil:
            missing.append(path)
            return d
        case .string(let s)? where s.count <= 200: return s
        case let other?:
            repair(path, "must be a string of at most 200 characters, found \(LastMix.show(other))", "\"\(d)\"")
            return d
        }
    }

    mutating func mix(_ value: JSONValue, path p: String) -> Mix {
        guard case .object(let o) = value else {
            repair(p, "must be an object, found \(value.typeName)", "the default mix")
            return LastMix.defaultMix
        }
        var mix = LastMix.defaultMix
        mix.name = string(o["name"], path: "\(p).name", default: "Last Mix")
        mix.description = string(o["description"], path: "\(p).description", default: "")
        mix.masterVolume = number(o["masterVolume"], path: "\(p).masterVolume", range: Mix.volumeRange, default: 0.7)
        switch o["layers"] {
        case nil:
            missing.append("\(p).layers")
        case .array(let items)? where !items.isEmpty:
            if items.count > NoiseMachine.layerCount {
                repair(
                    "\(p).layers", "has \(items.count) layers; allowed 1…\(NoiseMachine.layerCount)",
                    "the first \(NoiseMachine.layerCount)")
            }
            mix.layers = items.prefix(NoiseMachine.layerCount).enumerated().map {
                layer($1, path: "\(p).layers[\($0)]")
            }
        case let other?:
            repair(
                "\(p).layers", "must be an array of 1…\(NoiseMachine.layerCount) layers, found \(other.typeName)",
                "the default layer")
        }
        return mix
    }

    mutating func layer(_ value: JSONValue, path p: String) -> Mix.Layer {
        guard case .object(let o) = value else {
            // A layer we cannot read is switched off rather than played at a guessed level.
            repair(p, "must be an object, found \(value.typeName)", "a default layer, switched off")
            return Mix.Layer(enabled: false)
        }
        var l = Mix.Layer()
        l.enabled = bool(o["enabled"], path: "\(p).enabled", default: true)
        number(.volume, of: o, into: &l, path: p)
        number(.colour, of: o, into: &l, path: p)
        l.lowCutHz = cut(o["lowCutHz"], path: "\(p).lowCutHz", range: MixFields.lowCutHz.numberRange)
        l.highCutHz = cut(o["highCutHz"], path: "\(p).highCutHz", range: MixFields.highCutHz.numberRange)
        if let lo = l.lowCutHz, let hi = l.highCutHz, lo >= hi {
            repair(
                "\(p).lowCutHz", "\(JSONValue.format(lo)) Hz is not below highCutHz (\(JSONValue.format(hi)) Hz)", "off"
            )
            l.lowCutHz = nil
        }
        switch o["eq"] {
        case nil: missing.append("\(p).eq")
        case .object(let e)?:
            for q in MixParameter.layerNumbers where q.field.key.hasPrefix("layers[].eq.") {
                number(q, of: e, into: &l, path: p)
            }
        case let other?: repair("\(p).eq", "must be an object, found \(other.typeName)", "flat (0 dB)")
        }
        switch o["movement"] {
        case nil, .null?: break  // steady (mixes from before movement existed)
        case .object(let m)?:
            // A member left out of a movement is its default, not missing (movement came later).
            for q in MixParameter.layerNumbers where q.isMovement {
                number(q, of: m, into: &l, path: p, absentIsDefault: true)
            }
            if l.movementOrStill.highCutOctaves > 0 && l.highCutHz == nil {
                repair("\(p).movement.highCutOctaves", "needs a high cut", "0")
                l.movementOrStill.highCutOctaves = 0
            }
            if l.movementOrStill.isStill { l.movement = nil }
        case let other?: repair("\(p).movement", "must be an object, found \(other.typeName)", "steady")
        }
        texture(o, into: &l, path: p)
        return l
    }

    /// The layer's texture with its density and brightness (absent in mixes from before textures: noise).
    /// Without this a Last Mix of drops or crackle read back as plain noise.
    mutating func texture(_ o: [String: JSONValue], into l: inout Mix.Layer, path p: String) {
        switch o["texture"] {
        case nil, .null?: break
        case .string(let s)? where Mix.Texture(rawValue: s) != nil:
            l.texture = Mix.Texture(rawValue: s) == .noise ? nil : Mix.Texture(rawValue: s)
        case let other?:
            let allowed = Mix.Texture.allCases.map(\.rawValue).joined(separator: ", ")
            repair("\(p).texture", "\(LastMix.show(other)) is not one of \(allowed)", "noise")
        }
        let kind = l.texture ?? .noise
        if kind != .noise {
            l.densityPerSecond = optional(
                o["densityPerSecond"], path: "\(p).densityPerSecond", range: Mix.densityRange, unit: " per second",
                absent: "the texture's own density")
        }
        // Brightness shapes the pulses of every texture but drops (crackle's clicks, and those to come).
        if kind != .noise && kind != .drops {
            l.brightness = optional(
                o["brightness"], path: "\(p).brightness", range: MixFields.brightness.numberRange,
                absent: "the default brightness")
        }
    }
}
