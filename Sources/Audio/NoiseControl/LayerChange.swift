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

/// Changes to one layer; what is absent stays as it is. Each is a row of the mix table
/// (`MixFields`, by `MixParameter`), which holds its range, unit and step; the numbers travel as
/// (parameter, value) pairs and are set through the parameter's `layerSlot`.
public struct LayerChange: Equatable, Sendable {
    public var enabled: Bool?
    /// Off, or a corner in `MixFields.lowCutHz`'s range.
    public var lowCutHz: CutChange?
    /// Off, or a corner in `MixFields.highCutHz`'s range.
    public var highCutHz: CutChange?
    /// What the layer makes; a change of texture drops a density or brightness that does not suit it.
    public var texture: Mix.Texture?
    /// The layer's numbers changed (volume, colour, EQ, movement, density, brightness).
    public var numbers: [MixParameter: Double]

    public init(
        _ numbers: [MixParameter: Double] = [:], enabled: Bool? = nil, lowCutHz: CutChange? = nil,
        highCutHz: CutChange? = nil, texture: Mix.Texture? = nil
    ) {
        precondition(numbers.keys.allSatisfy { $0.layerSlot != nil }, "only a layer's numbers")
        (self.numbers, self.enabled, self.lowCutHz, self.highCutHz, self.texture) = (
            numbers, enabled, lowCutHz, highCutHz, texture
        )
    }

    /// Every field of `layer`, as a change that replaces the layer whole (a hand-over): a layer
    /// without movement sets it still; a density or brightness left to the texture stays as it is.
    public init(replacing layer: Mix.Layer) {
        self.init(
            enabled: layer.enabled, lowCutHz: layer.lowCutHz.map { .hz($0) } ?? .off,
            highCutHz: layer.highCutHz.map { .hz($0) } ?? .off, texture: layer.texture ?? .noise)
        for parameter in MixParameter.layerNumbers { self[parameter] = parameter.value(in: layer) }
    }

    /// The change's number for `parameter`, one of `MixParameter.layerNumbers`.
    public subscript(parameter: MixParameter) -> Double? {
        get { numbers[parameter] }
        set {
            precondition(parameter.layerSlot != nil, "\(parameter) is not a layer's number")
            numbers[parameter] = newValue
        }
    }

    public var changesMovement: Bool { numbers.keys.contains { $0.isMovement } }

    public var isEmpty: Bool { self == LayerChange() }

    public func applied(to layer: Mix.Layer) -> Mix.Layer {
        var l = layer
        if let enabled { l.enabled = enabled }
        if let lowCutHz { l.lowCutHz = lowCutHz.value }
        if let highCutHz { l.highCutHz = highCutHz.value }
        // Before the numbers: a density or brightness in the same change is for the new texture.
        if let texture {
            let kind = texture == .noise ? nil : texture
            if kind != l.texture {
                // A density suits both textures; brightness is crackle's alone.
                if kind == nil { l.densityPerSecond = nil }
                if kind != .crackle { l.brightness = nil }
            }
            l.texture = kind
        }
        for (parameter, value) in numbers { parameter.set(value, in: &l) }
        if changesMovement, l.movement?.isStill == true { l.movement = nil }
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
                    "\(FieldFormat.number(volume)) is out of range; allowed \(FieldFormat.range(field.numberRange))")
        }
        masterVolume = volume
    }
}
