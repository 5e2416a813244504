import FieldTable
import Foundation
import NoiseDSP

/// A mix parameter by typed name (STYLE: typed IDs, never string look-ups of ranges). The raw
/// value is the name the mixer page and `POST /api/mixer` use.
public enum MixParameter: String, CaseIterable, Sendable {
    case master
    case enabled, volume, colour, lowCutHz, highCutHz, eqLowDb, eqMidDb, eqHighDb
    case movementPeriodSeconds, movementLevelDb, movementHighCutOctaves
    case texture, densityPerSecond, brightness
    case notchCentreHz, notchWidthOctaves, notchDepthDb

    /// Its row of the mix table.
    public var field: FieldSpec {
        switch self {
        case .master: MixFields.masterVolume
        case .enabled: MixFields.enabled
        case .volume: MixFields.volume
        case .colour: MixFields.colour
        case .lowCutHz: MixFields.lowCutHz
        case .highCutHz: MixFields.highCutHz
        case .eqLowDb: MixFields.eqLowDb
        case .eqMidDb: MixFields.eqMidDb
        case .eqHighDb: MixFields.eqHighDb
        case .movementPeriodSeconds: MixFields.movementPeriodSeconds
        case .movementLevelDb: MixFields.movementLevelDb
        case .movementHighCutOctaves: MixFields.movementHighCutOctaves
        case .texture: MixFields.texture
        case .densityPerSecond: MixFields.densityPerSecond
        case .brightness: MixFields.brightness
        case .notchCentreHz: MixFields.notchCentreHz
        case .notchWidthOctaves: MixFields.notchWidthOctaves
        case .notchDepthDb: MixFields.notchDepthDb
        }
    }

    /// A layer's parameters (all but the master's and the notch's).
    public static var layerParameters: [MixParameter] { allCases.filter { $0.field.key.hasPrefix("layers[].") } }

    /// Where a layer holds the parameter as a number; nil for those that are not a plain number
    /// (on/off, the cuts, which are off or a corner, the texture) and those not of a layer.
    public var layerSlot: LayerSlot? {
        switch self {
        case .volume: .number(\.volume)
        case .colour: .number(\.colour)
        case .eqLowDb: .number(\.eq.lowDb)
        case .eqMidDb: .number(\.eq.midDb)
        case .eqHighDb: .number(\.eq.highDb)
        case .movementPeriodSeconds: .number(\.movementOrStill.periodSeconds)
        case .movementLevelDb: .number(\.movementOrStill.levelDb)
        case .movementHighCutOctaves: .number(\.movementOrStill.highCutOctaves)
        case .densityPerSecond: .optional(\.densityPerSecond)
        case .brightness: .optional(\.brightness)
        case .master, .enabled, .lowCutHz, .highCutHz, .texture, .notchCentreHz, .notchWidthOctaves, .notchDepthDb:
            nil
        }
    }

    /// The layer parameters held as numbers (those with a `layerSlot`), in table order.
    public static let layerNumbers: [MixParameter] = allCases.filter { $0.layerSlot != nil }

    /// The parameter's number in `layer`; nil when the layer leaves it to its texture.
    public func value(in layer: Mix.Layer) -> Double? {
        switch layerSlot {
        case .number(let path)?: layer[keyPath: path]
        case .optional(let path)?: layer[keyPath: path]
        case nil: nil
        }
    }

    /// Sets the parameter's number in `layer` (a parameter without a slot is not a layer's number).
    public func set(_ value: Double, in layer: inout Mix.Layer) {
        switch layerSlot {
        case .number(let path)?: layer[keyPath: path] = value
        case .optional(let path)?: layer[keyPath: path] = value
        case nil: preconditionFailure("\(self) is not a layer's number")
        }
    }

    /// The whole mix's notch (`notch.…` in mix files).
    public var isNotch: Bool { field.group == "Notch" }

    /// One of the layer's slow swells (`movement.…` in mix files).
    public var isMovement: Bool { field.group == "Movement" }
}

/// A key path a row keeps (the rows are shared by every thread that reads or changes a mix).
public typealias LayerKeyPath<Value> = WritableKeyPath<Mix.Layer, Value> & Sendable

/// Where a layer keeps one of its numbers.
public enum LayerSlot: Sendable {
    /// A number every layer has (the movement's read as still when the layer has none).
    case number(LayerKeyPath<Double>)
    /// A number a layer may leave to its texture (absent in the mix file).
    case optional(LayerKeyPath<Double?>)
}

extension Mix.Layer {
    /// The layer's movement, a still one when it has none, so each of its numbers has a key path;
    /// a movement set still through it is dropped by `LayerChange` once every change is in.
    public var movementOrStill: Mix.Movement {
        get { movement ?? Mix.Movement() }
        set { movement = newValue }
    }
}

/// Every parameter of a mix, described once: `Mix.validate`, the mix file reader's defaults,
/// `noise set`, `POST /api/mixer`, the mixer page's controls, `GET /api/fields` and
/// docs/mix-format.md read this table. Layer fields are keyed `layers[].…`, as mix files nest
/// them. Adding a parameter is one entry here (and a case of `MixParameter`).
public enum MixFields {
    public static let groups = ["Master", "Layer", "EQ", "Movement", "Texture", "Notch"]

    public static let masterVolume = volumeSlider(
        key: "masterVolume", group: "Master", label: "Master volume",
        help: "The slider over all layers; amplitude is its cube.")
    public static let enabled = FieldSpec(
        key: "layers[].enabled", kind: .flag, group: "Layer", label: "On",
        help: "Whether the layer plays.", default: .flag(true))
    public static let volume = volumeSlider(
        key: "layers[].volume", group: "Layer", label: "Volume", help: "The layer's slider; amplitude is its cube.")
    public static let colour = FieldSpec(
        key: "layers[].colour", kind: .number, group: "Layer", label: "Colour",
        help: "β of 1/f^β: 0 white, 1 pink, 2 brown, continuous between.",
        range: 0...2, step: 0.01, default: .number(1))
    public static let lowCutHz = FieldSpec(
        key: "layers[].lowCutHz", kind: .number, group: "Layer", label: "Low cut",
        help: "12 dB/octave high-pass corner; 0 or absent is off.",
        range: 10...2000, step: 10, unit: "Hz", optional: true, scale: .log)
    public static let highCutHz = FieldSpec(
        key: "layers[].highCutHz", kind: .number, group: "Layer", label: "High cut",
        help: "12 dB/octave low-pass corner, above the low cut and below Nyquist; 0 or absent is off.",
        range: 500...20000, step: 100, unit: "Hz", optional: true, scale: .log)
    public static let eqLowDb = eqBand("lowDb", label: "Low", help: "Low shelf at 160 Hz.")
    public static let eqMidDb = eqBand("midDb", label: "Mid", help: "Peak at 1.2 kHz, one octave wide.")
    public static let eqHighDb = eqBand("highDb", label: "High", help: "High shelf at 6 kHz.")
    public static let movementPeriodSeconds = FieldSpec(
        key: "layers[].movement.periodSeconds", kind: .number, group: "Movement",
        label: "Swell length", help: "Average length of one swell.",
        range: 2...120, step: 1, unit: "s",
        default: .number(Double(MovementSettings.defaultPeriodSeconds)))
    public static let movementLevelDb = FieldSpec(
        key: "layers[].movement.levelDb", kind: .number, group: "Movement",
        label: "Level swing", help: "Level swing either side of the volume; 0 is still.",
        range: 0...12, step: 0.5, unit: "dB", default: .number(0))
    public static let movementHighCutOctaves = FieldSpec(
        key: "layers[].movement.highCutOctaves", kind: .number, group: "Movement",
        label: "Cut swing",
        help: "High-cut swing either side of its corner (needs a high cut); 0 is still.",
        range: 0...3, step: 0.1, unit: "octaves", default: .number(0))

    public static let texture = FieldSpec(
        key: "layers[].texture", kind: .choice, group: "Texture", label: "Texture",
        help: "What the layer makes: coloured noise, raindrops (bubble resonances) or a fire's crackle; "
            + "a texture ignores the colour.",
        allowed: Mix.Texture.allCases.map(\.rawValue), default: .text(Mix.Texture.noise.rawValue))
    /// No default of its own: absent takes the texture's (40 drops, 8 crackles a second).
    public static let densityPerSecond = FieldSpec(
        key: "layers[].densityPerSecond", kind: .number, group: "Texture", label: "Density",
        help: "Mean drops or crackles a second (Poisson arrivals; drops and crackle only); absent is "
            + """
            \(Int(TextureSettings.defaultDropDensity)) for drops, \(Int(TextureSettings.defaultCrackleDensity)) \
            for crackle.
            """,
        range: Double(TextureSettings.densityRange.lowerBound)...Double(TextureSettings.densityRange.upperBound),
        step: 0.5, unit: "per second", optional: true, scale: .log)
    public static let brightness = FieldSpec(
        key: "layers[].brightness", kind: .number, group: "Texture", label: "Brightness",
        help: "Crackle only: 0 dull pops (bursts coloured pink), 1 bright clicks (white bursts).",
        range: 0...1, step: 0.01, default: .number(Double(TextureSettings.defaultBrightness)))

    /// No default: absent is no notch.
    public static let notchCentreHz = FieldSpec(
        key: "notch.centreHz", kind: .number, group: "Notch", label: "Notch centre",
        help: "Removes a band of the whole mix around this frequency (e.g. a matched tinnitus pitch); "
            + "absent plays the mix whole.",
        range: NotchSettings.centreRange, step: 10, unit: "Hz", optional: true, scale: .log)
    public static let notchWidthOctaves = FieldSpec(
        key: "notch.widthOctaves", kind: .number, group: "Notch", label: "Notch width",
        help: "Width between the notch's −3 dB edges.",
        range: NotchSettings.widthRange, step: 0.05, unit: "octaves",
        default: .number(NotchSettings.defaultWidthOctaves))
    public static let notchDepthDb = FieldSpec(
        key: "notch.depthDb", kind: .number, group: "Notch", label: "Notch depth",
        help: "How far the band is lowered, at least, across the notch's centre.",
        range: NotchSettings.depthRange, step: 1, unit: "dB", default: .number(NotchSettings.defaultDepthDb))

    /// A volume slider, the master's or a layer's: 0…1, amplitude its cube, 0.8 to start.
    private static func volumeSlider(key: String, group: String, label: String, help: String) -> FieldSpec {
        FieldSpec(
            key: key, kind: .number, group: group, label: label, help: help, range: 0...1, step: 0.01,
            default: .number(0.8))
    }

    /// One of a layer's three EQ bands: ±12 dB in half-decibel steps, flat to start.
    private static func eqBand(_ name: String, label: String, help: String) -> FieldSpec {
        FieldSpec(
            key: "layers[].eq.\(name)", kind: .number, group: "EQ", label: label, help: help, range: -12...12,
            step: 0.5, unit: "dB", default: .number(0))
    }

    public static let table = FieldTable(groups: groups, fields: MixParameter.allCases.map(\.field))

    /// The members the table puts in the object at `prefix` of a mix file (`""` the top level,
    /// `layers[]` a layer, `layers[].eq`), in table order: the mix file reader allows these (and,
    /// at the top, the name, description and schema version, which no control edits).
    public static func memberNames(under prefix: String) -> [String] {
        var names: [String] = []
        for key in table.keys {
            guard prefix.isEmpty || key.hasPrefix(prefix + ".") else { continue }
            let rest = prefix.isEmpty ? key : String(key.dropFirst(prefix.count + 1))
            let first = String(rest.prefix { $0 != "." && $0 != "[" })
            if !names.contains(first) { names.append(first) }
        }
        return names
    }

    /// `layers[].lowCutHz` for layer index 2 → `layers[2].lowCutHz`, as errors name it.
    public static func path(_ field: FieldSpec, layer: Int) -> String {
        field.key.replacingOccurrences(of: "layers[]", with: "layers[\(layer)]")
    }
}
