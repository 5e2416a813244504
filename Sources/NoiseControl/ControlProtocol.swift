import Foundation
import NoiseEngine
import SharedStore

/// A command to a running player, one JSON object per line on the control socket.
///
/// Wire format (`"command"` selects the case; unknown keys are refused):
/// ```
/// {"command":"setLayer","layer":0,"change":{"enabled":true,"volume":0.5,"colour":1.2,
///   "lowCutHz":0,"highCutHz":8000,"eqLowDb":0,"eqMidDb":-2,"eqHighDb":-6}}   (0 Hz = cut off)
/// {"command":"setMaster","volume":0.7}
/// {"command":"preset","id":"sleep","crossfadeSeconds":2}
/// {"command":"pause"} {"command":"resume"} {"command":"stop"} {"command":"status"}
/// {"command":"timer","seconds":1800,"fadeSeconds":60}      ("seconds": null switches it off)
/// {"command":"subscribe"}                                  (status lines until the client closes)
/// {"command":"savePreset","name":"my-mix"}
/// {"command":"forgetPreset","name":"my-mix"}               (the preset was deleted: drop the label)
/// {"command":"toggle"}                                     (pause when playing, else resume)
/// {"command":"adjustMaster","delta":0.05}                  (relative, -1…1, clamped to 0…1; unmutes)
/// {"command":"mute","muted":true}                          (master to 0, the level is kept)
/// ```
public enum ControlRequest: Equatable, Sendable {
    /// `index` is 0-based (0…3).
    case setLayer(index: Int, change: LayerChange)
    case setMaster(volume: Double)
    case preset(id: String, crossfadeSeconds: Double)
    case pause
    case resume
    case stop
    /// nil `seconds` switches the timer off.
    case timer(seconds: Double?, fadeSeconds: Double?)
    case status
    case subscribe
    /// The CLI has written the player's mix to preset `name`; the player takes it as its preset.
    case savePreset(name: String)
    /// Preset `name` was deleted; a player labelled with it keeps its sound and drops the label.
    case forgetPreset(name: String)
    case toggle
    /// Adds `delta` (−1…1) to the master level, clamped to 0…1.
    case adjustMaster(delta: Double)
    case mute(Bool)

    /// Longest allowed timer: a night and a nap.
    public static let timerRange = 1.0...(24.0 * 3600)
    public static let crossfadeRange = FadeLimits.crossfadeSeconds
}

/// The reply to a request: success with the player's status after the change, or an error.
public enum ControlResponse: Equatable, Sendable {
    case ok(PlayerStatus?)
    case error(String)
}

/// Why a message was refused; the text goes back to the client.
public struct ProtocolError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ControlRequest {
    public static let maximumRequestBytes = 64 << 10
    static let limits = JSONLimits(maxDepth: 4, maxValueCount: 256, maxStringBytes: 1024)

    /// Parses one request line strictly and checks every value against its range.
    public static func decode(_ line: Data) throws(ProtocolError) -> ControlRequest {
        guard line.count <= maximumRequestBytes else {
            throw ProtocolError("request is \(line.count) bytes; the limit is \(maximumRequestBytes)")
        }
        let value: JSONValue
        do { value = try JSONValue.parse(line, limits: limits) } catch { throw ProtocolError("\(error)") }
        guard case .object(let o) = value else {
            throw ProtocolError("a request must be a JSON object, found \(value.typeName)")
        }
        guard case .string(let command)? = o["command"] else {
            throw ProtocolError("'command' is missing or not a string")
        }
        var f = Fields(members: o, path: "")
        let request: ControlRequest
        switch command {
        case "setLayer":
            let layer = try f.int("layer", range: Mix.layerIndexRange, required: true)!
            guard let changeValue = f.take("change") else { throw ProtocolError("'change' is missing") }
            guard case .object(let c) = changeValue else { throw ProtocolError("'change' must be an object") }
            var cf = Fields(members: c, path: "change.")
            var change = LayerChange()
            change.enabled = try cf.bool("enabled")
            change.volume = try cf.number("volume", range: Mix.volumeRange)
            change.colour = try cf.number("colour", range: Mix.colourRange)
            change.lowCutHz = try cf.cut("lowCutHz", range: Mix.lowCutRange)
            change.highCutHz = try cf.cut("highCutHz", range: Mix.highCutRange)
            change.eqLowDb = try cf.number("eqLowDb", range: Mix.eqRange)
            change.eqMidDb = try cf.number("eqMidDb", range: Mix.eqRange)
            change.eqHighDb = try cf.number("eqHighDb", range: Mix.eqRange)
            change.movementPeriodSeconds = try cf.number("movementPeriodSeconds", range: Mix.movementPeriodRange)
            change.movementLevelDb = try cf.number("movementLevelDb", range: Mix.movementLevelRange)
            change.movementHighCutOctaves = try cf.number("movementHighCutOctaves", range: Mix.movementCutRange)
            if let name = try cf.string("texture", required: false) {
                guard let t = Mix.Texture(rawValue: name) else {
                    throw ProtocolError(
                        "'change.texture' must be one of \(Mix.Texture.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                }
                change.texture = t
            }
            change.densityPerSecond = try cf.number("densityPerSecond", range: Mix.densityRange)
            change.brightness = try cf.number("brightness", range: Mix.brightnessRange)
            try cf.refuseRest()
            guard !change.isEmpty else { throw ProtocolError("'change' has no fields") }
            request = .setLayer(index: layer, change: change)
        case "setMaster":
            request = .setMaster(volume: try f.number("volume", range: Mix.volumeRange, required: true)!)
        case "preset":
            let id = try f.string("id", required: true)!
            guard PresetLibrary.isValidID(id) else {
                throw ProtocolError("'id' must be a preset id (a-z, 0-9, '-', '_', at most 64)")
            }
            request = .preset(id: id, crossfadeSeconds: try f.number("crossfadeSeconds", range: crossfadeRange) ?? 2)
        case "pause": request = .pause
        case "resume": request = .resume
        case "stop": request = .stop
        case "status": request = .status
        case "subscribe": request = .subscribe
        case "timer":
            let seconds = try f.number("seconds", range: timerRange, nullable: true)
            let fade = try f.number("fadeSeconds", range: 0...timerRange.upperBound)
            if let fade, let seconds, fade > seconds {
                throw ProtocolError("'fadeSeconds' must not be longer than 'seconds'")
            }
            request = .timer(seconds: seconds, fadeSeconds: fade)
        case "toggle": request = .toggle
        case "adjustMaster":
            request = .adjustMaster(delta: try f.number("delta", range: -1...1, required: true)!)
        case "mute":
            guard let muted = try f.bool("muted") else { throw ProtocolError("'muted' is missing") }
            request = .mute(muted)
        case "savePreset":
            let name = try f.string("name", required: true)!
            guard PresetLibrary.isValidID(name) else {
                throw ProtocolError("'name' must be a preset id (a-z, 0-9, '-', '_', at most 64)")
            }
            request = .savePreset(name: name)
        case "forgetPreset":
            let name = try f.string("name", required: true)!
            guard PresetLibrary.isValidID(name) else {
                throw ProtocolError("'name' must be a preset id (a-z, 0-9, '-', '_', at most 64)")
            }
            request = .forgetPreset(name: name)
        default:
            throw ProtocolError(
                "unknown command '\(command.prefix(40))'; known: setLayer, setMaster, adjustMaster, mute, preset, pause, resume, toggle, stop, timer, status, subscribe, savePreset, forgetPreset"
            )
        }
        _ = f.take("command")
        try f.refuseRest()
        return request
    }

    /// One line of compact JSON, without the newline.
    public func encoded() -> Data {
        var o: [String: JSONValue] = [:]
        func n(_ v: Double?) -> JSONValue { v.map { .number($0) } ?? .null }
        switch self {
        case .setLayer(let index, let c):
            o["command"] = .string("setLayer")
            o["layer"] = .number(Double(index))
            var m: [String: JSONValue] = [:]
            if let v = c.enabled { m["enabled"] = .bool(v) }
            if let v = c.volume { m["volume"] = .number(v) }
            if let v = c.colour { m["colour"] = .number(v) }
            if let v = c.lowCutHz { m["lowCutHz"] = .number(v.value ?? 0) }
            if let v = c.highCutHz { m["highCutHz"] = .number(v.value ?? 0) }
            if let v = c.eqLowDb { m["eqLowDb"] = .number(v) }
            if let v = c.eqMidDb { m["eqMidDb"] = .number(v) }
            if let v = c.eqHighDb { m["eqHighDb"] = .number(v) }
            if let v = c.movementPeriodSeconds { m["movementPeriodSeconds"] = .number(v) }
            if let v = c.movementLevelDb { m["movementLevelDb"] = .number(v) }
            if let v = c.movementHighCutOctaves { m["movementHighCutOctaves"] = .number(v) }
            if let v = c.texture { m["texture"] = .string(v.rawValue) }
            if let v = c.densityPerSecond { m["densityPerSecond"] = .number(v) }
            if let v = c.brightness { m["brightness"] = .number(v) }
            o["change"] = .object(m)
        case .setMaster(let v): o = ["command": .string("setMaster"), "volume": .number(v)]
        case .preset(let id, let fade):
            o = ["command": .string("preset"), "id": .string(id), "crossfadeSeconds": .number(fade)]
        case .pause: o = ["command": .string("pause")]
        case .resume: o = ["command": .string("resume")]
        case .stop: o = ["command": .string("stop")]
        case .status: o = ["command": .string("status")]
        case .subscribe: o = ["command": .string("subscribe")]
        case .timer(let s, let f):
            o = ["command": .string("timer"), "seconds": n(s)]
            if let f { o["fadeSeconds"] = .number(f) }
        case .savePreset(let name): o = ["command": .string("savePreset"), "name": .string(name)]
        case .forgetPreset(let name): o = ["command": .string("forgetPreset"), "name": .string(name)]
        case .toggle: o = ["command": .string("toggle")]
        case .adjustMaster(let d): o = ["command": .string("adjustMaster"), "delta": .number(d)]
        case .mute(let m): o = ["command": .string("mute"), "muted": .bool(m)]
        }
        return CompactJSON.data(.object(o))
    }

    /// Members of a request object, taken one by one so that leftovers can be refused.
    struct Fields {
        var members: [String: JSONValue]
        let path: String

        mutating func take(_ key: String) -> JSONValue? { members.removeValue(forKey: key) }

        mutating func refuseRest() throws(ProtocolError) {
            if let k = members.keys.sorted().first {
                throw ProtocolError("'\(path)\(k.prefix(40))' is not a known field")
            }
        }

        mutating func number(
            _ key: String, range: ClosedRange<Double>, required: Bool = false,
            nullable: Bool = false
        ) throws(ProtocolError) -> Double? {
            switch take(key) {
            case nil:
                if required { throw ProtocolError("'\(path)\(key)' is missing") }
                return nil
            case .null? where nullable: return nil
            case .number(let v)?:
                guard range.contains(v) else {
                    throw ProtocolError(
                        "'\(path)\(key)' \(JSONFormatting.number(v)) is out of range; allowed \(JSONFormatting.number(range.lowerBound))…\(JSONFormatting.number(range.upperBound))"
                    )
                }
                return v
            case let other?: throw ProtocolError("'\(path)\(key)' must be a number, found \(other.typeName)")
            }
        }

        mutating func int(_ key: String, range: ClosedRange<Int>, required: Bool) throws(ProtocolError) -> Int? {
            guard
                let v = try number(key, range: Double(range.lowerBound)...Double(range.upperBound), required: required)
            else { return nil }
            guard v == v.rounded() else { throw ProtocolError("'\(path)\(key)' must be a whole number") }
            return Int(v)
        }

        mutating func cut(_ key: String, range: ClosedRange<Double>) throws(ProtocolError) -> CutChange? {
            switch take(key) {
            case nil: return nil
            case .number(let v)? where v == 0: return .off
            case .number(let v)? where range.contains(v): return .hz(v)
            case .number(let v)?:
                throw ProtocolError(
                    "'\(path)\(key)' \(JSONFormatting.number(v)) Hz is out of range; allowed 0 (off) or \(JSONFormatting.number(range.lowerBound))…\(JSONFormatting.number(range.upperBound)) Hz"
                )
            case let other?: throw ProtocolError("'\(path)\(key)' must be a number, found \(other.typeName)")
            }
        }

        mutating func bool(_ key: String) throws(ProtocolError) -> Bool? {
            switch take(key) {
            case nil: return nil
            case .bool(let b)?: return b
            case let other?: throw ProtocolError("'\(path)\(key)' must be true or false, found \(other.typeName)")
            }
        }

        mutating func string(_ key: String, required: Bool) throws(ProtocolError) -> String? {
            switch take(key) {
            case nil:
                if required { throw ProtocolError("'\(path)\(key)' is missing") }
                return nil
            case .string(let s)?: return s
            case let other?: throw ProtocolError("'\(path)\(key)' must be a string, found \(other.typeName)")
            }
        }
    }
}

extension ControlResponse {
    /// Responses carry at most a status document; anything longer is not from our player.
    public static let maximumResponseBytes = 1 << 20

    struct Wire: Codable {
        var ok: Bool
        var status: PlayerStatus?
        var error: String?
    }

    public func encoded() -> Data {
        let wire: Wire
        switch self {
        case .ok(let s): wire = Wire(ok: true, status: s, error: nil)
        case .error(let e): wire = Wire(ok: false, status: nil, error: e)
        }
        return (try? BoundedJSON.encoder(pretty: false).encode(wire))
            ?? Data(#"{"ok":false,"error":"could not encode the response"}"#.utf8)
    }

    public static func decode(_ line: Data) throws -> ControlResponse {
        guard line.count <= maximumResponseBytes else {
            throw ProtocolError("response larger than \(maximumResponseBytes) bytes")
        }
        let wire = try BoundedJSON.decode(Wire.self, from: line)
        if wire.ok { return .ok(wire.status) }
        return .error(wire.error ?? "the player reported an error without a message")
    }
}

/// Single-line JSON for socket messages (JSONValue's own writer is pretty-printed, for files).
enum CompactJSON {
    static func data(_ v: JSONValue) -> Data {
        var out: [UInt8] = []
        write(v, &out)
        return Data(out)
    }

    static func write(_ v: JSONValue, _ out: inout [UInt8]) {
        switch v {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .number(let d): out += Array(JSONValue.format(d).utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, x) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(x, &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, k) in o.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                write(o[k]!, &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
