import BoundedJSON
import FieldTable
import Foundation
import NoiseControl
import NoiseEngine
import SharedStore

/// One control of the mixer page, as the page sends it (`POST /api/mixer`).
///
/// `{"layer":1,"param":"volume","value":0.4}` — layer 1…4 and one of `enabled`, `volume`, `colour`,
/// `lowCutHz`, `highCutHz`, `eqLowDb`, `eqMidDb`, `eqHighDb` (a cut of 0 switches it off),
/// `texture` (`"value":"drops"`, one of the table's choices), `densityPerSecond`, `brightness`;
/// `{"param":"master","value":0.7}`; `{"preset":"rain"}`; `{"timerSeconds":1800}` or
/// `{"timerSeconds":null}` (off).
public enum MixerChange: Equatable, Sendable {
    case layer(index: Int, change: LayerChange)
    case master(Double)
    case preset(String)
    case timer(seconds: Double?)

    /// The layer parameters the page has controls for (movement is set with `noise set`).
    public static let pageParameters: [MixParameter] = [
        .enabled, .volume, .colour, .lowCutHz, .highCutHz,
        .eqLowDb, .eqMidDb, .eqHighDb, .texture, .densityPerSecond, .brightness,
    ]
    public static let layerParameters = pageParameters.map(\.rawValue)

    /// Strict: unknown keys, wrong types, NaN and out-of-range values are refused with a message
    /// naming the field and its allowed range.
    public static func decode(_ body: Data) throws(MixerError) -> MixerChange {
        let request: JSONReader
        do {
            request = try JSONReader.parse(
                body, document: "request body", maxDepth: 4, maxValues: 64, maxStringBytes: 4096)
        } catch {
            throw MixerError("the body is not a JSON object")
        }
        guard case .object(let object) = request.value else { throw MixerError("the body is not a JSON object") }
        func number(_ key: String) throws(MixerError) -> Double {
            do { return try request.required(key).number() } catch {
                throw MixerError("'\(key)' must be a finite number")
            }
        }
        /// Checked against the parameter's row of the mix table; the message names the page's name.
        func checked(_ v: Double, _ field: FieldSpec, _ name: String) throws(MixerError) -> Double {
            do { return try field.check(v, as: name) } catch { throw MixerError(error.description) }
        }
        let keys = Set(object.keys)
        if keys == ["preset"] {
            guard let id = request.text("preset"), PresetLibrary.isValidID(id) else {
                throw MixerError("'preset' must be a preset id (letters, digits, '-' and '_')")
            }
            return .preset(id)
        }
        if keys == ["timerSeconds"] {
            if object["timerSeconds"] == .null { return .timer(seconds: nil) }
            let seconds = try number("timerSeconds")
            // Not a field of the mix table: the protocol's own limit, in the protocol's wording.
            let range = ControlRequest.timerRange
            guard range.contains(seconds) else {
                throw MixerError(
                    """
                    'timerSeconds' \(format(seconds)) s is out of range; allowed \(format(range.lowerBound))…\
                    \(format(range.upperBound)) s
                    """
                )
            }
            return .timer(seconds: seconds)
        }
        guard let name = request.text("param") else { throw MixerError("'param' is missing") }
        let allowedNames = "master, \(layerParameters.joined(separator: ", "))"
        guard let param = MixParameter(rawValue: name), param == .master || pageParameters.contains(param) else {
            throw MixerError("'param' '\(name)' is unknown; allowed \(allowedNames)")
        }
        if param == .master {
            guard keys == ["param", "value"] else { throw MixerError("'master' takes only 'value'") }
            return .master(try checked(try number("value"), param.field, name))
        }
        guard keys == ["layer", "param", "value"] else {
            throw MixerError("a layer change needs exactly 'layer', 'param' and 'value'")
        }
        let layerNumber = try number("layer")
        guard layerNumber == layerNumber.rounded(), (1...Mix.layerIndexRange.upperBound + 1).contains(Int(layerNumber))
        else {
            throw MixerError(
                "'layer' \(format(layerNumber)) is out of range; allowed 1…\(Mix.layerIndexRange.upperBound + 1)")
        }
        var change = LayerChange()
        if param == .enabled {
            guard let b = request.flag("value") else { throw MixerError("'enabled' must be true or false") }
            change.enabled = b
            return .layer(index: Int(layerNumber) - 1, change: change)
        }
        if param == .texture {
            let allowed = param.field.allowed
            guard let s = request.text("value"), allowed.contains(s), let texture = Mix.Texture(rawValue: s)
            else {
                throw MixerError("'texture' must be one of \(allowed.joined(separator: ", "))")
            }
            change.texture = texture
            return .layer(index: Int(layerNumber) - 1, change: change)
        }
        let v = try number("value")
        // A cut of 0 switches it off, as in mix files.
        func cut() throws(MixerError) -> CutChange { v == 0 ? .off : .hz(try checked(v, param.field, name)) }
        switch param {
        case .lowCutHz: change.lowCutHz = try cut()
        case .highCutHz: change.highCutHz = try cut()
        default: change[param] = try checked(v, param.field, name)
        }
        return .layer(index: Int(layerNumber) - 1, change: change)
    }

    static func format(_ v: Double) -> String { JSONValue.formatted(v) }
}

public struct MixerError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The mixer as the page shows it: the running player's status, or the Last Mix when none runs.
public struct MixerState: Codable, Equatable, Sendable {
    public struct Preset: Codable, Equatable, Sendable {
        public var id: String
        public var name: String
    }
    public var running: Bool
    /// `playing`, `paused` or `stopped`.
    public var state: String
    public var presetID: String?
    public var mixName: String
    public var masterVolume: Double
    public var layers: [Mix.Layer]
    public var timerRemainingSeconds: Int?
    public var presets: [Preset]
}

/// Applies the page's changes where they belong and reads the state back.
public struct Mixer: Sendable {
    public let root: StoreRoot
    public let client: ControlClient
    public let presets: PresetLibrary
    /// Preset switches from the page crossfade like `noise preset`.
    public var crossfadeSeconds = 2.0
    /// The store folder the user chose (`--store`, `$WIDGETWEAVER_HOME`), for what starts a player
    /// later (a schedule's unit); nil for the default store.
    public var storeDirectory: String?

    public init(root: StoreRoot, client: ControlClient = ControlClient(), presets: PresetLibrary = .standard()) {
        self.root = root
        self.client = client
        self.presets = presets
    }

    public func state(now: Date = Date()) -> MixerState {
        let presetList = presets.entries().map { entry -> MixerState.Preset in
            let name = (try? presets.load(entry.id).mix.name) ?? entry.id
            return .init(id: entry.id, name: name)
        }
        if case .loaded(let status)? = try? StatusStore(root: root).read(),
            !status.isStale(now: now), status.state != .stopped
        {
            return MixerState(
                running: true, state: status.state.rawValue, presetID: status.presetID,
                mixName: status.mix.name, masterVolume: status.masterVolume,
                layers: status.layers,
                timerRemainingSeconds: status.timerRemainingSeconds.map { Int($0.rounded()) },
                presets: presetList)
        }
        let last = (try? LastMixStore(root: root).load())?.lastMix
        let mix = last?.mix ?? LastMix.defaultMix
        return MixerState(
            running: false, state: "stopped", presetID: last?.presetID, mixName: mix.name,
            masterVolume: mix.masterVolume, layers: mix.layers, timerRemainingSeconds: nil,
            presets: presetList)
    }

    /// Sends the change to the running player, or edits the Last Mix when none runs.
    /// - Returns: a short message saying where it went.
    public func apply(_ change: MixerChange) throws -> String {
        let request: ControlRequest
        switch change {
        case .layer(let index, let c): request = .setLayer(index: index, change: c)
        case .master(let v): request = .setMaster(volume: v)
        case .preset(let id): request = .preset(id: id, crossfadeSeconds: crossfadeSeconds)
        case .timer(let seconds):
            // The running timer's fade is kept (as `noise timer` keeps it): the dropdown names a length
            // only, and a nil fade would reset a fade set on the Night section to the default 30 s.
            request = .timer(seconds: seconds, fadeSeconds: seconds.flatMap { runningTimerFade(limit: $0) })
        }
        do {
            switch try client.send(request) {
            case .ok: return "sent to the player"
            case .error(let message): throw MixerError("the player refused the change: \(message)")
            }
        } catch ControlError.notRunning {
            return try editLastMix(change)
        }
    }

    /// The fade of the player's running sleep timer, at most `limit` seconds; nil when none runs.
    private func runningTimerFade(limit: Double) -> Double? {
        guard case .loaded(let status)? = try? StatusStore(root: root).read(), !status.isStale(now: Date()),
            status.timerRemainingSeconds != nil, let fade = status.timerFadeSeconds
        else { return nil }
        return min(fade, limit)
    }

    private func editLastMix(_ change: MixerChange) throws -> String {
        if case .timer = change { throw MixerError("no player is running: start one to set a sleep timer") }
        let store = LastMixStore(root: root)
        _ = try store.update { last in
            switch change {
            case .layer(let index, let c): try last.mix.apply(c, toLayer: index)
            case .master(let v): try last.mix.setMaster(v)
            case .preset(let id):
                let loaded = try presets.load(id)
                last.mix = loaded.mix
                last.presetID = id
            case .timer: break
            }
        }
        return "no player is running: changed the Last Mix"
    }
}
