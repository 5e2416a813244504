import BoundedJSON
import Foundation
import NoiseDSP
import NoiseEngine

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
/// {"command":"then","action":"suspend"}                     (what the timer's end does: stop, suspend, poweroff)
/// {"command":"subscribe"}                                  (status lines until the client closes)
/// {"command":"savePreset","name":"my-mix"}
/// {"command":"forgetPreset","name":"my-mix"}               (the preset was deleted: drop the label)
/// {"command":"toggle"}                                     (pause when playing, else resume)
/// {"command":"adjustMaster","delta":0.05}                  (relative, -1…1, clamped to 0…1; unmutes)
/// {"command":"mute","muted":true}                          (master to 0, the level is kept)
/// {"command":"notch","centreHz":6000,"widthOctaves":1,"depthDb":40}   ("centreHz": null: off)
/// {"command":"hearing","label":"the profile of X","centresHz":[…],"gainsDb":[…]}
///                                                          ("centresHz": null: correction off)
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
    /// What the end of the running timer does (`noise timer --then`); switching the timer off
    /// goes back to `.stop`.
    case then(TimerEnd)
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
    /// The master notch (nil: off), ramped in.
    case notch(Mix.Notch?)
    /// The master hearing correction (nil: off), ramped in; `label` is how status says it.
    case hearing(label: String?, centresHz: [Double], gainsDb: [Double])

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
        let request: JSONReader
        do {
            request = JSONReader(value: try JSONValue.parse(line, limits: limits), document: "request")
        } catch {
            throw ProtocolError("\(error)")
        }
        guard case .object(let o) = request.value else {
            throw ProtocolError("a request must be a JSON object, found \(request.value.typeName)")
        }
        guard case .string(let command)? = o["command"] else {
            throw ProtocolError("'command' is missing or not a string")
        }
        var f = try Fields(request)
        let decoded: ControlRequest
        switch command {
        case "setLayer":
            let layer = try f.int("layer", range: Mix.layerIndexRange, required: true)!
            guard let changeValue = f.take("change") else { throw ProtocolError("'change' is missing") }
            guard case .object = changeValue.value else { throw ProtocolError("'change' must be an object") }
            var cf = try Fields(changeValue)
            var change = LayerChange()
            // In table order, so of two wrong members the same one is named first.
            for parameter in MixParameter.layerParameters {
                let key = parameter.rawValue
                switch parameter {
                case .enabled: change.enabled = try cf.bool(key)
                case .lowCutHz: change.lowCutHz = try cf.cut(key, range: parameter.field.numberRange)
                case .highCutHz: change.highCutHz = try cf.cut(key, range: parameter.field.numberRange)
                case .texture:
                    guard let name = try cf.string(key, required: false) else { continue }
                    guard let t = Mix.Texture(rawValue: name) else {
                        throw ProtocolError(
                            """
                            'change.texture' must be one of \
                            \(Mix.Texture.allCases.map(\.rawValue).joined(separator: ", "))
                            """
                        )
                    }
                    change.texture = t
                default: change[parameter] = try cf.number(key, range: parameter.field.numberRange)
                }
            }
            try cf.refuseRest()
            guard !change.isEmpty else { throw ProtocolError("'change' has no fields") }
            decoded = .setLayer(index: layer, change: change)
        case "setMaster":
            decoded = .setMaster(volume: try f.number("volume", range: Mix.volumeRange, required: true)!)
        case "preset":
            let id = try f.string("id", required: true)!
            guard PresetLibrary.isValidID(id) else {
                throw ProtocolError("'id' must be a preset id (a-z, 0-9, '-', '_', at most 64)")
            }
            decoded = .preset(id: id, crossfadeSeconds: try f.number("crossfadeSeconds", range: crossfadeRange) ?? 2)
        case "pause": decoded = .pause
        case "resume": decoded = .resume
        case "stop": decoded = .stop
        case "status": decoded = .status
        case "subscribe": decoded = .subscribe
        case "timer":
            let seconds = try f.number("seconds", range: timerRange, nullable: true)
            let fade = try f.number("fadeSeconds", range: 0...timerRange.upperBound)
            if let fade, let seconds, fade > seconds {
                throw ProtocolError("'fadeSeconds' must not be longer than 'seconds'")
            }
            decoded = .timer(seconds: seconds, fadeSeconds: fade)
        case "then":
            let name = try f.string("action", required: true)!
            guard let end = TimerEnd(rawValue: name) else {
                throw ProtocolError("'action' \(name.prefix(40)) is not an action; allowed \(TimerEnd.allowedText)")
            }
            decoded = .then(end)
        case "toggle": decoded = .toggle
        case "adjustMaster":
            decoded = .adjustMaster(delta: try f.number("delta", range: -1...1, required: true)!)
        case "mute":
            guard let muted = try f.bool("muted") else { throw ProtocolError("'muted' is missing") }
            decoded = .mute(muted)
        case "notch":
            if let centre = try f.number("centreHz", range: NotchSettings.centreRange, required: true, nullable: true) {
                decoded = .notch(
                    Mix.Notch(
                        centreHz: centre,
                        widthOctaves: try f.number("widthOctaves", range: NotchSettings.widthRange)
                            ?? NotchSettings.defaultWidthOctaves,
                        depthDb: try f.number("depthDb", range: NotchSettings.depthRange)
                            ?? NotchSettings.defaultDepthDb))
            } else {
                decoded = .notch(nil)
            }
        case "hearing":
            let label = try f.string("label", required: false)
            guard let centres = f.take("centresHz") else { throw ProtocolError("'centresHz' is missing") }
            if centres.value == .null {
                decoded = .hearing(label: nil, centresHz: [], gainsDb: [])
            } else {
                guard let gains = f.take("gainsDb") else { throw ProtocolError("'gainsDb' is missing") }
                let c: [Double?], g: [Double?]
                do {
                    c = try centres.numbers(maxCount: HearingProfile.maximumBands, in: HearingProfile.centreRange)
                    g = try gains.numbers(maxCount: HearingProfile.maximumBands, in: HearingProfile.gainRange)
                } catch { throw ProtocolError(error) }
                guard !c.isEmpty, c.count == g.count, !c.contains(nil), !g.contains(nil) else {
                    throw ProtocolError("'centresHz' and 'gainsDb' must be numbers, as many of one as of the other")
                }
                decoded = .hearing(label: label, centresHz: c.map { $0! }, gainsDb: g.map { $0! })
            }
        case "savePreset":
            let name = try f.string("name", required: true)!
            guard PresetLibrary.isValidID(name) else {
                throw ProtocolError("'name' must be a preset id (a-z, 0-9, '-', '_', at most 64)")
            }
            decoded = .savePreset(name: name)
        case "forgetPreset":
            let name = try f.string("name", required: true)!
            guard PresetLibrary.isValidID(name) else {
                throw ProtocolError("'name' must be a preset id (a-z, 0-9, '-', '_', at most 64)")
            }
            decoded = .forgetPreset(name: name)
        default:
            throw ProtocolError(
                """
                unknown command '\(command.prefix(40))'; known: setLayer, setMaster, adjustMaster, mute, preset, \
                pause, resume, toggle, stop, timer, then, status, subscribe, savePreset, forgetPreset, notch, hearing
                """
            )
        }
        _ = f.take("command")
        try f.refuseRest()
        return decoded
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
            if let v = c.lowCutHz { m["lowCutHz"] = .number(v.value ?? 0) }
            if let v = c.highCutHz { m["highCutHz"] = .number(v.value ?? 0) }
            if let v = c.texture { m["texture"] = .string(v.rawValue) }
            for (parameter, v) in c.numbers { m[parameter.rawValue] = .number(v) }
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
        case .then(let end): o = ["command": .string("then"), "action": .string(end.rawValue)]
        case .savePreset(let name): o = ["command": .string("savePreset"), "name": .string(name)]
        case .forgetPreset(let name): o = ["command": .string("forgetPreset"), "name": .string(name)]
        case .toggle: o = ["command": .string("toggle")]
        case .adjustMaster(let d): o = ["command": .string("adjustMaster"), "delta": .number(d)]
        case .mute(let m): o = ["command": .string("mute"), "muted": .bool(m)]
        case .notch(let notchValue):
            o = ["command": .string("notch"), "centreHz": n(notchValue?.centreHz)]
            if let notch = notchValue {
                o["widthOctaves"] = .number(notch.widthOctaves)
                o["depthDb"] = .number(notch.depthDb)
            }
        case .hearing(let label, let centres, let gains):
            o = ["command": .string("hearing")]
            if let label { o["label"] = .string(label) }
            o["centresHz"] = centres.isEmpty ? .null : .array(centres.map { .number($0) })
            if !centres.isEmpty { o["gainsDb"] = .array(gains.map { .number($0) }) }
        }
        return CompactJSON.data(.object(o))
    }

    /// Members of a request object, read by the shared strict reader (`JSONMembers`); its
    /// failures are said in the socket's own wording (`ProtocolError(_:)`), which clients match.
    struct Fields {
        var members: JSONMembers

        init(_ object: JSONReader) throws(ProtocolError) {
            do { members = try JSONMembers(object) } catch { throw ProtocolError(error) }
        }

        mutating func take(_ key: String) -> JSONReader? { members.take(key) }

        func refuseRest() throws(ProtocolError) {
            do { try members.refuseRest() } catch { throw ProtocolError(error) }
        }

        mutating func number(
            _ key: String, range: ClosedRange<Double>, required: Bool = false,
            nullable: Bool = false
        ) throws(ProtocolError) -> Double? {
            do {
                guard let v = required ? try members.takeRequired(key) : take(key) else { return nil }
                if nullable, v.value == .null { return nil }
                return try v.number(in: range)
            } catch { throw ProtocolError(error) }
        }

        mutating func int(_ key: String, range: ClosedRange<Int>, required: Bool) throws(ProtocolError) -> Int? {
            do {
                guard let v = required ? try members.takeRequired(key) : take(key) else { return nil }
                return try v.wholeNumber(in: range)
            } catch { throw ProtocolError(error) }
        }

        /// 0 switches the cut off; the message says so.
        mutating func cut(_ key: String, range: ClosedRange<Double>) throws(ProtocolError) -> CutChange? {
            guard let v = take(key) else { return nil }
            let allowed = "allowed 0 (off) or \(JSONReader.formatted(range)) Hz"
            do {
                let hz = try v.number()
                if hz == 0 { return .off }
                guard range.contains(hz) else {
                    throw ProtocolError("'\(v.path)' \(JSONValue.formatted(hz)) Hz is out of range; \(allowed)")
                }
                return .hz(hz)
            } catch let e as JSONFieldError where e.problem == .tooLarge {
                throw ProtocolError("'\(v.path)' is \(JSONReader.tooLargeWords); \(allowed)")
            } catch let e as JSONFieldError {
                throw ProtocolError(e)
            } catch let e as ProtocolError {
                throw e
            } catch {
                throw ProtocolError("\(error)")
            }
        }

        mutating func bool(_ key: String) throws(ProtocolError) -> Bool? {
            do { return try take(key)?.bool() } catch { throw ProtocolError(error) }
        }

        mutating func string(_ key: String, required: Bool) throws(ProtocolError) -> String? {
            do {
                guard let v = required ? try members.takeRequired(key) : take(key) else { return nil }
                return try v.string(maxBytes: ControlRequest.limits.maxStringBytes)
            } catch { throw ProtocolError(error) }
        }
    }
}

extension ProtocolError {
    /// The socket's wording of a strict-reader failure: the field quoted, then what is wrong
    /// (`'change.volume' 2 is out of range; allowed 0…1`). Clients and tests match these words.
    init(_ e: JSONFieldError) {
        let field = "'\(e.path)'"
        switch e.problem {
        case .missing: self.init("\(field) is missing")
        case .wrongType(let expected): self.init("\(field) must be \(expected), found \(e.foundType ?? "nothing")")
        case .outOfRange:
            let range = e.allowedRange.map(JSONReader.formatted)
            self.init("\(field) \(e.value ?? "") is out of range; allowed \(range ?? "")")
        case .tooLarge:
            let allowed = e.allowedRange.map { "; allowed \(JSONReader.formatted($0))" } ?? ""
            self.init("\(field) is \(JSONReader.tooLargeWords)\(allowed)")
        case .notWhole: self.init("\(field) must be a whole number")
        case .unknownField: self.init("\(field) is not a known field")
        case .overLimit, .invalid: self.init(e.path == JSONReader.topLevel ? e.reason : "\(field): \(e.reason)")
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
        return (try? ControlJSON.encoder(pretty: false).encode(wire))
            ?? Data(#"{"ok":false,"error":"could not encode the response"}"#.utf8)
    }

    public static func decode(_ line: Data) throws -> ControlResponse {
        guard line.count <= maximumResponseBytes else {
            throw ProtocolError("response larger than \(maximumResponseBytes) bytes")
        }
        let wire = try ControlJSON.decode(Wire.self, from: line)
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
