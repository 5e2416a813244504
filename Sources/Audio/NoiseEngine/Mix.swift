import FieldTable
import NoiseDSP

/// A complete noise mix: what presets, `--mix FILE` and the Last Mix hold.
///
/// JSON shape (see docs/mix-format.md):
/// `{ "name", "description", "masterVolume", "layers": [ { "enabled", "volume", "colour",
///    "lowCutHz", "highCutHz", "eq": { "lowDb", "midDb", "highDb" } } ] }`
public struct Mix: Codable, Equatable, Sendable {
    public var name: String
    public var description: String
    /// Master slider 0…1 (cubic curve, see `VolumeCurve`).
    public var masterVolume: Double
    /// 1 to 4 layers; missing layers are disabled.
    public var layers: [Layer]
    /// A band removed from the whole mix (tinnitus relief); nil (absent in JSON) plays it whole.
    public var notch: Notch?

    /// The master notch (see `NotchDesign`): `widthOctaves` between its −3 dB edges, at least
    /// `depthDb` down across its stopband.
    public struct Notch: Codable, Equatable, Sendable {
        public var centreHz: Double
        public var widthOctaves: Double
        public var depthDb: Double

        public init(
            centreHz: Double, widthOctaves: Double = MixFields.notchWidthOctaves.defaultNumber,
            depthDb: Double = MixFields.notchDepthDb.defaultNumber
        ) {
            self.centreHz = centreHz
            self.widthOctaves = widthOctaves
            self.depthDb = depthDb
        }

        public var settings: NotchSettings {
            NotchSettings(centreHz: centreHz, widthOctaves: widthOctaves, depthDb: depthDb)
        }
    }

    public struct Layer: Codable, Equatable, Sendable {
        public var enabled: Bool
        /// Slider 0…1.
        public var volume: Double
        /// β of 1/f^β, 0…2: 0 white, 1 pink, 2 brown.
        public var colour: Double
        /// High-pass corner 10…2000 Hz, nil (absent or 0 in JSON) when off.
        public var lowCutHz: Double?
        /// Low-pass corner 500…20000 Hz, nil (absent or 0 in JSON) when off.
        public var highCutHz: Double?
        public var eq: EQ
        /// Slow swells of level and high cut; nil (absent in JSON) when the layer is steady.
        public var movement: Movement?
        /// What the layer makes; nil (absent in JSON) is noise, so mixes written before textures
        /// read and render as they did.
        public var texture: Texture?
        /// Drops or crackles per second (`densityRange`); nil takes the texture's default.
        public var densityPerSecond: Double?
        /// Crackle's brightness 0…1; nil takes the default (0.5).
        public var brightness: Double?

        public init(
            enabled: Bool = MixFields.enabled.defaultFlag, volume: Double = MixFields.volume.defaultNumber,
            colour: Double = MixFields.colour.defaultNumber, lowCutHz: Double? = nil,
            highCutHz: Double? = nil, eq: EQ = EQ(), movement: Movement? = nil, texture: Texture? = nil,
            densityPerSecond: Double? = nil, brightness: Double? = nil
        ) {
            self.enabled = enabled
            self.volume = volume
            self.colour = colour
            self.lowCutHz = lowCutHz
            self.highCutHz = highCutHz
            self.eq = eq
            self.movement = movement
            self.texture = texture
            self.densityPerSecond = densityPerSecond
            self.brightness = brightness
        }

        /// The texture as the DSP takes it (defaults filled in).
        public var textureSettings: TextureSettings {
            TextureSettings(
                kind: texture?.kind ?? .noise, densityPerSecond: densityPerSecond.map(Float.init),
                brightness: brightness.map(Float.init))
        }
    }

    /// A layer's source (see `TextureKind`).
    public enum Texture: String, Codable, Equatable, Sendable, CaseIterable {
        case noise, drops, crackle, rain, surf, wind, fire, fan, stream, thunder

        public var kind: TextureKind { TextureKind(name: rawValue) ?? .noise }
    }

    /// A layer's movement (see `MovementSettings`): a smooth, seeded random swell.
    public struct Movement: Codable, Equatable, Sendable {
        /// Average length of one swell, 2…120 s.
        public var periodSeconds: Double
        /// Level swing either side of the volume, 0…12 dB.
        public var levelDb: Double
        /// High-cut swing either side of `highCutHz`, 0…3 octaves (needs a high cut).
        public var highCutOctaves: Double

        public init(
            periodSeconds: Double = Double(MovementSettings.defaultPeriodSeconds), levelDb: Double = 0,
            highCutOctaves: Double = 0
        ) {
            self.periodSeconds = periodSeconds
            self.levelDb = levelDb
            self.highCutOctaves = highCutOctaves
        }

        public var isStill: Bool { levelDb == 0 && highCutOctaves == 0 }

        var settings: MovementSettings {
            MovementSettings(
                periodSeconds: Float(periodSeconds), levelDb: Float(levelDb), highCutOctaves: Float(highCutOctaves))
        }
    }

    public struct EQ: Codable, Equatable, Sendable {
        public var lowDb: Double
        public var midDb: Double
        public var highDb: Double

        public init(lowDb: Double = 0, midDb: Double = 0, highDb: Double = 0) {
            self.lowDb = lowDb
            self.midDb = midDb
            self.highDb = highDb
        }
    }

    public init(
        name: String, description: String = "", masterVolume: Double = MixFields.masterVolume.defaultNumber,
        layers: [Layer], notch: Notch? = nil
    ) {
        self.name = name
        self.description = description
        self.masterVolume = masterVolume
        self.layers = layers
        self.notch = notch
    }

    // Allowed ranges, read from the mix field table (`MixFields`), where each is described once.
    public static let volumeRange = MixFields.volume.numberRange
    public static let layerCountRange = 1...NoiseMachine.layerCount
    public static let densityRange = MixFields.densityPerSecond.numberRange

    /// The four layers as the DSP takes them (absent layers are off).
    public var layerSettings: [LayerSettings] {
        (0..<NoiseMachine.layerCount).map { i in
            guard i < layers.count else { return .off }
            let l = layers[i]
            return LayerSettings(
                isEnabled: l.enabled, volume: Float(l.volume), colour: Float(l.colour),
                lowCutHz: l.lowCutHz.map(Float.init), highCutHz: l.highCutHz.map(Float.init),
                eqLowDb: Float(l.eq.lowDb), eqMidDb: Float(l.eq.midDb), eqHighDb: Float(l.eq.highDb),
                movement: l.movement?.settings ?? .still, texture: l.textureSettings)
        }
    }

    /// Every rule a mix must meet; the first broken one is thrown, naming its field path.
    public func validate(sampleRate: Double? = nil) throws(MixError) {
        func check(_ v: Double, _ field: FieldSpec, layer: Int? = nil) throws(MixError) {
            let range = field.numberRange, unit = field.unit.isEmpty ? "" : " \(field.unit)"
            guard v.isFinite, range.contains(v) else {
                throw MixError(
                    path: layer.map { MixFields.path(field, layer: $0) } ?? field.key,
                    message: "\(MixError.format(v))\(unit) is out of range; allowed \(FieldFormat.range(range))\(unit)")
            }
        }
        guard Self.layerCountRange.contains(layers.count) else {
            throw MixError(path: "layers", message: "has \(layers.count) layers; allowed 1…\(NoiseMachine.layerCount)")
        }
        try check(masterVolume, MixFields.masterVolume)
        if let notch {
            try check(notch.centreHz, MixFields.notchCentreHz)
            try check(notch.widthOctaves, MixFields.notchWidthOctaves)
            try check(notch.depthDb, MixFields.notchDepthDb)
            if let sampleRate, notch.centreHz >= sampleRate * 0.45 {
                throw MixError(
                    path: MixFields.notchCentreHz.key,
                    message:
                        """
                        \(MixError.format(notch.centreHz)) Hz is too close to Nyquist at \(Int(sampleRate)) Hz; \
                        allowed below \(MixError.format(sampleRate * 0.45)) Hz
                        """)
            }
        }
        for (i, l) in layers.enumerated() {
            let p = "layers[\(i)]"
            try check(l.volume, MixFields.volume, layer: i)
            try check(l.colour, MixFields.colour, layer: i)
            if let lc = l.lowCutHz { try check(lc, MixFields.lowCutHz, layer: i) }
            if let hc = l.highCutHz {
                try check(hc, MixFields.highCutHz, layer: i)
                if let sampleRate, hc >= sampleRate / 2 {
                    throw MixError(
                        path: "\(p).highCutHz",
                        message:
                            """
                            \(MixError.format(hc)) Hz is not below Nyquist (\(MixError.format(sampleRate / 2)) Hz \
                            at \(Int(sampleRate)) Hz)
                            """
                    )
                }
            }
            if let lc = l.lowCutHz, let hc = l.highCutHz, lc >= hc {
                throw MixError(
                    path: "\(p).lowCutHz",
                    message: "\(MixError.format(lc)) Hz must be below highCutHz (\(MixError.format(hc)) Hz)")
            }
            try check(l.eq.lowDb, MixFields.eqLowDb, layer: i)
            try check(l.eq.midDb, MixFields.eqMidDb, layer: i)
            try check(l.eq.highDb, MixFields.eqHighDb, layer: i)
            let kind = l.texture ?? .noise
            if let d = l.densityPerSecond {
                guard kind != .noise else {
                    throw MixError(
                        path: "\(p).densityPerSecond",
                        message:
                            """
                            applies to the drops and crackle textures; this layer makes noise (set \(p).texture to \
                            drops or crackle, or remove it)
                            """
                    )
                }
                try check(d, MixFields.densityPerSecond, layer: i)
            }
            if let b = l.brightness {
                guard kind != .noise && kind != .drops else {
                    throw MixError(
                        path: "\(p).brightness",
                        message:
                            "applies to crackle and the statistical textures only; this layer makes \(kind.rawValue)")
                }
                try check(b, MixFields.brightness, layer: i)
            }
            if let m = l.movement {
                try check(m.periodSeconds, MixFields.movementPeriodSeconds, layer: i)
                try check(m.levelDb, MixFields.movementLevelDb, layer: i)
                try check(m.highCutOctaves, MixFields.movementHighCutOctaves, layer: i)
                if m.highCutOctaves > 0 && l.highCutHz == nil {
                    let cut = MixFields.highCutHz.numberRange
                    throw MixError(
                        path: "\(p).movement.highCutOctaves",
                        message:
                            """
                            \(MixError.format(m.highCutOctaves)) octaves moves the high cut, but this layer has \
                            none; set \(p).highCutHz \
                            (\(MixError.format(cut.lowerBound))…\(MixError.format(cut.upperBound)) Hz) or use 0
                            """
                    )
                }
            }
        }
    }
}

/// A mix that breaks a rule: the field path (`layers[2].lowCutHz`), what is wrong and, when it
/// came from a file, which file.
public struct MixError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String?
    public var path: String
    public var message: String

    public init(file: String? = nil, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String {
        (file.map { "\($0): " } ?? "") + (path.isEmpty ? message : "\(path): \(message)")
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
