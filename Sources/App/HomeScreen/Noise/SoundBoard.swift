import Foundation
import NoiseControl
import NoiseEngine
import SharedStore
import Synchronization

/// A refusal of the board's API: the HTTP status it maps to, the message and the request field it is about.
public struct BoardError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Status: Sendable { case badRequest, conflict, notFound, unprocessable }
    public var status: Status
    public var message: String
    public var field: String?
    public init(_ status: Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }
    public var description: String { message }
}

/// The board as the page shows it: which sound each layer plays, the master, and the presets.
public struct BoardState: Encodable, Equatable, Sendable {
    public struct Layer: Encodable, Equatable, Sendable {
        /// 1…4, as the mixer's API counts.
        public var layer: Int
        public var enabled: Bool
        public var volume: Double
        /// The card that plays it; nil when the layer is no card's sound (shaped in Advanced, or a preset's
        /// other layers): then `name` describes it ("Pink to brown noise (shaped)").
        public var sound: String?
        public var name: String
    }
    public struct Preset: Encodable, Equatable, Sendable {
        public var id: String
        public var name: String
        public var user: Bool
    }
    public var running: Bool
    public var state: String
    public var presetID: String?
    public var mixName: String
    public var masterVolume: Double
    /// The loudness model's prediction of the mix as it stands (nil when silent).
    public var loudnessLufs: Double?
    public var referenceLoudnessLufs: Double
    public var maximumLayers: Int
    public var layers: [Layer]
    public var presets: [Preset]
}

/// The Noise page's board of sounds: adds and removes sounds as layers of the live mix (the running
/// player's, or the Last Mix when none runs), holding the mix at the reference loudness through the
/// loudness model, and keeps the user's presets through `PresetWriter` (what `noise presets save/delete` use).
public struct SoundBoard: Sendable {
    public let mixer: Mixer
    public init(mixer: Mixer) { self.mixer = mixer }

    public var sounds: [Sound] { SoundCatalogue.sounds(presets: mixer.presets) }
    public static let maximumLayers = Mix.layerIndexRange.upperBound + 1
    /// One change at a time: each reads the mix, changes it and sends it (two quick taps read the same mix).
    static let changes = Mutex(())

    // MARK: State

    /// The mix that plays now (or would: the Last Mix), and whether a player runs.
    func currentMix(now: Date = Date()) -> (mix: Mix, presetID: String?, running: Bool, state: String) {
        // The player itself first: its status file lags a change just sent by up to a publish.
        if case .ok(let status?)? = try? mixer.client.send(.status), status.state != .stopped {
            return (status.mix, status.presetID, true, status.state.rawValue)
        }
        if case .loaded(let status)? = try? StatusStore(root: mixer.root).read(), !status.isStale(now: now),
            status.state != .stopped
        {
            return (status.mix, status.presetID, true, status.state.rawValue)
        }
        let last = (try? LastMixStore(root: mixer.root).load())?.lastMix
        return (last?.mix ?? LastMix.defaultMix, last?.presetID, false, "stopped")
    }

    public func state(now: Date = Date()) -> BoardState {
        let current = currentMix(now: now)
        let sounds = self.sounds
        let layers = current.mix.layers.enumerated().map { i, l -> BoardState.Layer in
            let sound = sounds.first { $0.matches(l) }
            return BoardState.Layer(
                layer: i + 1, enabled: l.enabled, volume: l.volume, sound: sound?.id,
                name: sound?.name ?? "\(Sound.describe(l)) (shaped)")
        }
        let loudness = current.mix.predictedLoudness().loudnessLufs
        return BoardState(
            running: current.running, state: current.state, presetID: current.presetID, mixName: current.mix.name,
            masterVolume: current.mix.masterVolume, loudnessLufs: loudness.isFinite ? loudness : nil,
            referenceLoudnessLufs: Mix.referenceLoudnessLufs, maximumLayers: Self.maximumLayers, layers: layers,
            presets: presetList())
    }

    func presetList() -> [BoardState.Preset] {
        mixer.presets.entries().map { entry in
            let name = (try? Mix.load(path: entry.url.path).name) ?? entry.id
            return .init(id: entry.id, name: name, user: entry.isUserPreset)
        }
    }

    // MARK: Cards

    /// Adds `soundID` to the mix: into the first switched-off layer, else a new one, else `replacing`
    /// (1…4). With four layers playing and no `replacing`, refuses (409) naming them, so the page can ask.
    /// - Returns: what happened, for the page's status line.
    public func add(_ soundID: String, replacing: Int? = nil) throws(BoardError) -> String {
        try Self.changes.withLock { _ throws(BoardError) in try addLocked(soundID, replacing: replacing) }
    }

    func addLocked(_ soundID: String, replacing: Int?) throws(BoardError) -> String {
        let sound = try find(soundID)
        var mix = currentMix().mix
        if let i = mix.layers.firstIndex(where: { $0.enabled && sound.matches($0) }), replacing == nil {
            return "\(sound.name) is already in the mix (layer \(i + 1))"
        }
        let slot: Int
        if let replacing {
            guard (1...Self.maximumLayers).contains(replacing) else {
                throw BoardError(
                    .badRequest, "'replaceLayer' \(replacing) is out of range; allowed 1…\(Self.maximumLayers)",
                    field: "replaceLayer")
            }
            slot = replacing - 1
        } else if let off = mix.layers.firstIndex(where: { !$0.enabled }) {
            slot = off
        } else if mix.layers.count < Self.maximumLayers {
            slot = mix.layers.count
        } else {
            let names = state().layers.map { "\($0.layer) \($0.name)" }.joined(separator: ", ")
            throw BoardError(
                .conflict,
                "the mix has \(Self.maximumLayers) layers (\(names)); choose one for \(sound.name) to replace "
                    + "('replaceLayer' 1…\(Self.maximumLayers))",
                field: "replaceLayer")
        }
        while mix.layers.count <= slot { mix.layers.append(Mix.Layer(enabled: false)) }
        mix.layers[slot] = sound.layer
        let held = hold(&mix)
        try apply(mix, layers: [slot])
        return "Added \(sound.name) as layer \(slot + 1); \(held)"
    }

    /// Switches off every layer that plays `soundID`.
    public func remove(_ soundID: String) throws(BoardError) -> String {
        try Self.changes.withLock { _ throws(BoardError) in try removeLocked(soundID) }
    }

    func removeLocked(_ soundID: String) throws(BoardError) -> String {
        let sound = try find(soundID)
        var mix = currentMix().mix
        let slots = mix.layers.indices.filter { mix.layers[$0].enabled && sound.matches(mix.layers[$0]) }
        guard !slots.isEmpty else { return "\(sound.name) is not in the mix" }
        for i in slots { mix.layers[i].enabled = false }
        let held = hold(&mix)
        try apply(mix, layers: slots)
        return "Took \(sound.name) out of the mix; \(held)"
    }

    func find(_ soundID: String) throws(BoardError) -> Sound {
        let sounds = self.sounds
        guard let sound = sounds.first(where: { $0.id == soundID }) else {
            throw BoardError(
                .badRequest,
                "'sound' '\(soundID.prefix(80))' is unknown; allowed \(sounds.map(\.id).joined(separator: ", "))",
                field: "sound")
        }
        return sound
    }

    /// Sets the master that makes the mix measure the reference loudness (the loudness model's
    /// prediction); keeps the master when no setting reaches it, and says which happened.
    func hold(_ mix: inout Mix) -> String {
        let target = Mix.referenceLoudnessLufs
        if let master = try? mix.masterVolume(forLoudness: target) {
            mix.masterVolume = (master * 1000).rounded() / 1000
            return "held at \(Mix.lufs(target))"
        }
        // No clean setting: too soft even at full master (one quiet sound), or so peaky (crackle) that the
        // model has the limiter catch the loudest pulses at the reference. The first plays as loud as it
        // gets; the second plays at the reference all the same (the limiter is there for those pulses).
        var full = mix
        full.masterVolume = 1
        let atFull = full.predictedLoudness().loudnessLufs
        guard atFull.isFinite else {
            return "master kept at \(Int((mix.masterVolume * 100).rounded()))%: every layer is off or silent"
        }
        if atFull < target {
            mix.masterVolume = 1
            return "master 100%: the mix reaches \(Mix.lufs(atFull)) at most (raise a slider for \(Mix.lufs(target)))"
        }
        // The master is a cubic slider (60·log10 v dB); a few corrections for the model's bends.
        mix.masterVolume = pow(10, (target - atFull) / 60)
        for _ in 0..<4 {
            let off = target - mix.predictedLoudness().loudnessLufs
            guard off.isFinite, abs(off) > 0.02 else { break }
            mix.masterVolume = min(1, mix.masterVolume * pow(10, off / 60))
        }
        mix.masterVolume = (mix.masterVolume * 1000).rounded() / 1000
        let over = mix.predictedLoudness().peakOverCeilingDb
        return "held at \(Mix.lufs(target)); the limiter catches the loudest pulses (predicted "
            + String(format: "%.1f dB", over) + " over its ceiling)"
    }

    // MARK: Playing

    /// Gives `mix` to the running player (the layers in `layers`, or every one, then the master), or
    /// writes it as the Last Mix when none runs. The mix is no preset any more: the label is dropped.
    func apply(_ mix: Mix, layers: [Int]? = nil, resume: Bool = false) throws(BoardError) {
        do {
            try mix.validate()
        } catch {
            throw BoardError(.unprocessable, "\(error)")
        }
        let current = currentMix()
        if current.running {
            var requests: [ControlRequest] = []
            for i in layers ?? Array(0..<Self.maximumLayers) {
                let layer = i < mix.layers.count ? mix.layers[i] : Mix.Layer(enabled: false)
                // Back to plain noise first, so a density or brightness the layer had does not stay.
                requests.append(.setLayer(index: i, change: LayerChange(enabled: false)))
                var clear = LayerChange()
                clear.texture = .noise
                requests.append(.setLayer(index: i, change: clear))
                requests.append(.setLayer(index: i, change: LayerChange(replacing: layer)))
            }
            requests.append(.setMaster(volume: mix.masterVolume))
            if let label = current.presetID { requests.append(.forgetPreset(name: label)) }
            if resume { requests.append(.resume) }
            // When it stopped meanwhile: the Last Mix below.
            if try send(requests, refused: "the player refused the change") { return }
        }
        do {
            try LastMixStore(root: mixer.root).update { last in
                last.mix = mix
                last.presetID = nil
            }
        } catch {
            throw BoardError(.unprocessable, "cannot write the Last Mix: \(error)")
        }
    }

    /// Sends `requests` to the running player in order. False when it is not running (it stopped
    /// since the caller looked), so the caller falls back to the Last Mix; a refusal or a broken
    /// socket throws, worded with `refused` and "cannot reach the player".
    private func send(_ requests: [ControlRequest], refused: String) throws(BoardError) -> Bool {
        do {
            for request in requests {
                if case .error(let message) = try mixer.client.send(request) {
                    throw BoardError(.unprocessable, "\(refused): \(message)")
                }
            }
            return true
        } catch let error as BoardError {
            throw error
        } catch ControlError.notRunning {
            return false
        } catch {
            throw BoardError(.unprocessable, "cannot reach the player: \(error)")
        }
    }

    /// Plays: resumes a paused player, or starts `noise resume` (the Last Mix) when none runs.
    public func play() throws(BoardError) -> String {
        if currentMix().running {
            if try send([.resume], refused: "the player refused") { return "Playing" }
        }
        do {
            _ = try LastMixStore(root: mixer.root).saveIfMissing(LastMix(mix: LastMix.defaultMix))
            let noise = try DetachedPlayer.locateNoise()
            let started = try DetachedPlayer(noise: noise, storeDirectory: mixer.storeDirectory).start()
            return "Playing (player pid \(started.pid))"
        } catch {
            throw BoardError(.unprocessable, "cannot start the player: \(error)")
        }
    }

    /// Pauses the running player (nothing to do when none runs).
    public func pause() throws(BoardError) -> String {
        try send([.pause], refused: "the player refused") ? "Paused" : "No player is running"
    }

    /// Plays `mix` whole (a shared link's): hands it to the running player, or makes it the Last Mix and
    /// starts a player.
    public func play(_ mix: Mix) throws(BoardError) -> String {
        try apply(mix, resume: true)
        if currentMix().running { return "Playing \(mix.name)" }
        return try play()
    }

    // MARK: Presets

    /// Saves the current mix as the user's preset `name` (its id made from the name, as `noise presets
    /// save` would take it), never over an existing preset.
    public func savePreset(name: String) throws(BoardError) -> String {
        let title = try Self.checkedName(name)
        let id = try Self.presetID(for: title)
        var mix = currentMix().mix
        mix.name = title
        mix.description = "Saved from the Noise page"
        let url = try write(mix, id: id, replace: false)
        label(id)
        return "Saved the mix as '\(title)' (\(url.path))"
    }

    /// Renames the user's preset `id`: a new name, and the id made from it.
    public func renamePreset(_ id: String, to name: String) throws(BoardError) -> String {
        let title = try Self.checkedName(name)
        let newID = try Self.presetID(for: title)
        guard let entry = mixer.presets.entries().first(where: { $0.id == id }), entry.isUserPreset else {
            let builtIn = PresetWriter.hasBuiltIn(id, library: mixer.presets)
            throw BoardError(
                .notFound,
                builtIn
                    ? "'\(id)' is a built-in preset, not one of yours; only your presets can be renamed"
                    : "no preset of yours is named '\(id)' ('noise presets' lists them, marked 'yours')")
        }
        var mix: Mix
        do { mix = try Mix.load(path: entry.url.path) } catch { throw BoardError(.unprocessable, "\(error)") }
        mix.name = title
        _ = try write(mix, id: newID, replace: newID == id)
        if newID != id {
            do { try PresetWriter.delete(id: id, library: mixer.presets) } catch {
                throw BoardError(.unprocessable, "\(error)")
            }
        }
        if currentMix().presetID == id { label(newID) }
        return "Renamed '\(id)' to '\(title)'"
    }

    /// Deletes the user's preset `id`; a player or Last Mix labelled with it keeps its sound.
    public func deletePreset(_ id: String) throws(BoardError) -> String {
        let removed: (url: URL, builtInReturns: Bool)
        do { removed = try PresetWriter.delete(id: id, library: mixer.presets) } catch let e as PresetWriter.NotFound {
            throw BoardError(.notFound, e.description)
        } catch {
            throw BoardError(.unprocessable, "\(error)")
        }
        _ = try? mixer.client.send(.forgetPreset(name: id))
        let store = LastMixStore(root: mixer.root)
        if let last = try? store.load().lastMix, last.presetID == id {
            _ = try? store.update(now: last.updatedAt) { if $0.presetID == id { $0.presetID = nil } }
        }
        return "Deleted your preset '\(id)'" + (removed.builtInReturns ? "; the built-in '\(id)' plays again" : "")
    }

    func write(_ mix: Mix, id: String, replace: Bool) throws(BoardError) -> URL {
        do {
            return try PresetWriter.save(mix, id: id, replace: replace, library: mixer.presets)
        } catch let e as PresetWriter.Exists {
            throw BoardError(.conflict, "a preset of yours is already named '\(id)' (\(e.url.path))", field: "name")
        } catch let e as PresetWriter.OverridesBuiltIn {
            throw BoardError(.conflict, "'\(e.id)' is a built-in preset; choose another name", field: "name")
        } catch {
            throw BoardError(.unprocessable, "\(error)")
        }
    }

    /// Labels the playing mix (or the Last Mix) as preset `id`, as `noise presets save` does.
    func label(_ id: String) {
        do {
            _ = try mixer.client.send(.savePreset(name: id))
        } catch {
            _ = try? LastMixStore(root: mixer.root).update { $0.presetID = id }
        }
    }

    static let nameRange = 1...200

    static func checkedName(_ name: String) throws(BoardError) -> String {
        let title = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameRange.contains(title.count) else {
            throw BoardError(
                .badRequest, "'name' must be \(nameRange.lowerBound) to \(nameRange.upperBound) characters",
                field: "name")
        }
        return title
    }

    /// A preset id from a display name: lower-case letters and digits, every other run of characters one
    /// '-', at most 64 (`PresetLibrary.isValidID`).
    public static func presetID(for name: String) throws(BoardError) -> String {
        var id = ""
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty, !id.hasSuffix("-") {
                id += "-"
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        id = String(id.prefix(64))
        while id.hasSuffix("-") { id.removeLast() }
        guard PresetLibrary.isValidID(id) else {
            throw BoardError(
                .badRequest, "'name' needs at least one letter or digit (a-z, 0-9) to make a preset id", field: "name")
        }
        return id
    }
}
