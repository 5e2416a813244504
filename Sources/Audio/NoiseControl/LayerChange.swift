import FieldTable
import NoiseDSP
import NoiseEngine

/// A cut filter setting in a change: switched off, or moved to a corner frequency.
public enum CutChange: Equatable, Sendable {
    case off
    case hz(Double)

    var value: Double? {
        if case .hz(let v) = self { return v }
        return nil
    }
}

/// Changes to one layer; nil fields stay as they are. Each field is a row of the mix table
/// (`MixFields`, by `MixParameter`), which holds its range, unit and step.
public struct LayerChange: Equatable, Sendable {
    public var enabled: Bool?
    public var volume: Double?
    public var colour: Double?
    /// Off, or a corner in `MixFields.lowCutHz`'s range.
    public var lowCutHz: CutChange?
    /// Off, or a corner in `MixFields.highCutHz`'s range.
    public var highCutHz: CutChange?
    public var eqLowDb: Double?
    public var eqMidDb: Double?
    public var eqHighDb: Double?
    public var movementPeriodSeconds: Double?
    public var movementLevelDb: Double?
    public var movementHighCutOctaves: Double?
    /// Texture: noise, drops or crackle; with its density (`Mix.densityRange`) and crackle's
    /// brightness (0…1).
    public var texture: Mix.Texture?
    public var densityPerSecond: Double?
    public var brightness: Double?

    public init(
        enabled: Bool? = nil, volume: Double? = nil, colour: Double? = nil, lowCutHz: CutChange? = nil,
        highCutHz: CutChange? = nil, eqLowDb: Double? = nil, eqMidDb: Double? = nil, eqHighDb: Double? = nil,
        movementPeriodSeconds: Double? = nil, movementLevelDb: Double? = nil, movementHighCutOctaves: Double? = nil
    ) {
        self.init(
            enabled: enabled, volume: volume, colour: colour, lowCutHz: lowCutHz, highCutHz: highCutHz,
            eqLowDb: eqLowDb, eqMidDb: eqMidDb, eqHighDb: eqHighDb, movement: nil)
        (self.movementPeriodSeconds, self.movementLevelDb, self.movementHighCutOctaves) = (
            movementPeriodSeconds, movementLevelDb, movementHighCutOctaves
        )
    }

    /// A full layer description; `movement` nil sets the layer still (a hand-over replaces everything).
    public init(
        enabled: Bool?, volume: Double?, colour: Double?, lowCutHz: CutChange?, highCutHz: CutChange?,
        eqLowDb: Double?, eqMidDb: Double?, eqHighDb: Double?, movement: Mix.Movement?,
        texture: Mix.Texture? = nil, densityPerSecond: Double? = nil, brightness: Double? = nil
    ) {
        (self.texture, self.densityPerSecond, self.brightness) = (texture, densityPerSecond, brightness)
        (self.enabled, self.volume, self.colour) = (enabled, volume, colour)
        (self.lowCutHz, self.highCutHz) = (lowCutHz, highCutHz)
        (self.eqLowDb, self.eqMidDb, self.eqHighDb) = (eqLowDb, eqMidDb, eqHighDb)
        let m = movement ?? Mix.Movement()
        movementPeriodSeconds = m.periodSeconds
        movementLevelDb = m.levelDb
        movementHighCutOctaves = m.highCutOctaves
    }

    public var changesMovement: Bool {
        movementPeriodSeconds != nil || movementLevelDb != nil || movementHighCutOctaves != nil
    }

    public var isEmpty: Bool { self == LayerChange() }

    public func applied(to layer: Mix.Layer) -> Mix.Layer {
        var l = layer
        if let enabled { l.enabled = enabled }
        if let volume { l.volume = volume }
        if let colour { l.colour = colour }
        if let lowCutHz { l.lowCutHz = lowCutHz.value }
        if let highCutHz { l.highCutHz = highCutHz.value }
        if let eqLowDb { l.eq.lowDb = eqLowDb }
        if let eqMidDb { l.eq.midDb = eqMidDb }
        if let eqHighDb { l.eq.highDb = eqHighDb }
        if changesMovement {
            var m = l.movement ?? Mix.Movement()
            if let movementPeriodSeconds { m.periodSeconds = movementPeriodSeconds }
            if let movementLevelDb { m.levelDb = movementLevelDb }
            if let movementHighCutOctaves { m.highCutOctaves = movementHighCutOctaves }
            l.movement = m.isStill ? nil : m
        }
        if let texture {
            let kind = texture == .noise ? nil : texture
            if kind != l.texture {
                // A density suits both textures; brightness is crackle's alone.
                if kind == nil { l.densityPerSecond = nil }
                if kind != .crackle { l.brightness = nil }
            }
            l.texture = kind
        }
        if let densityPerSecond { l.densityPerSecond = densityPerSecond }
        if let brightness { l.brightness = brightness }
        return l
    }
}

extension Mix {
    /// Layer indices as the control protocol counts them (0-based; the CLI's `--layer` is 1-based).
    public static let layerIndexRange = 0...(NoiseMachine.layerCount - 1)

    /// Applies `change` to layer `index` (0-based). Layers missing below `index` are added switched
    /// off. The mix is left unchanged when the result breaks a rule (the error names the field).
    public mutating func apply(_ change: LayerChange, toLayer index: Int) throws(MixError) {
        guard Self.layerIndexRange.contains(index) else {
            throw MixError(
                path: "layer",
                message: """
                    \(index + 1) is out of range; allowed 1…\(NoiseMachine.layerCount)
                    """)
        }
        var next = self
        while next.layers.count <= index { next.layers.append(Layer(enabled: false)) }
        next.layers[index] = change.applied(to: next.layers[index])
        try next.validate()
        self = next
    }

    /// Sets the master slider, checking the table's range.
    public mutating func setMaster(_ volume: Double) throws(MixError) {
        let field = MixFields.masterVolume
        guard volume.isFinite, field.numberRange.contains(volume) else {
            throw MixError(
                path: field.key,
                message:
                    """
                    \(JSONFormatting.number(volume)) is out of range; allowed \
                    \(JSONFormatting.number(field.numberRange.lowerBound))…\
                    \(JSONFormatting.number(field.numberRange.upperBound))
                    """
            )
        }
        masterVolume = volume
    }
}

enum JSONFormatting {
    static func number(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
