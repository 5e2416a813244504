import FieldTable
import Foundation
import NoiseEngine

/// The searchable parameters of a mix, read from its field table (`MixFields`), so a field added
/// there (a new texture's parameter) is searched with no change here.
///
/// A value is set where a mix file holds it (the field's key path inside a layer's JSON object)
/// and the result read back through the strict mix reader, which applies every rule a mix must
/// meet: a setting the mix cannot take (brightness on drops) is simply not a candidate.
struct MixParameterSpace {
    /// One coordinate: a field of one layer.
    struct Dimension: CustomStringConvertible {
        var layer: Int
        var field: FieldSpec
        /// The member path inside the layer object (`eq.lowDb`).
        var memberPath: [String] { field.key.dropFirst("layers[].".count).split(separator: ".").map(String.init) }
        var description: String { MixFields.path(field, layer: layer) }
    }

    /// Groups whose fields shape the long-term spectrum (searched first, against M1).
    static let spectralGroups: Set<String> = ["Layer", "EQ"]
    /// Groups never searched: the master (level only) is set for loudness at the end.
    static let fixedGroups: Set<String> = ["Master"]

    static var layerFields: [FieldSpec] { MixFields.table.fields.filter { $0.key.hasPrefix("layers[].") } }

    /// Spectral numbers of a layer: its colour, cuts and EQ (the volume only sets the level).
    static func spectral(layer: Int) -> [Dimension] {
        layerFields.filter {
            spectralGroups.contains($0.group) && ($0.kind == .number || $0.kind == .integer)
                && $0.key != MixFields.volume.key
        }.map { Dimension(layer: layer, field: $0) }
    }

    /// Everything of a layer that is not spectral, on/off or the master: texture, its parameters,
    /// movement, and whatever groups the table gains.
    static func texture(layer: Int) -> [Dimension] {
        layerFields.filter {
            !spectralGroups.contains($0.group) && !fixedGroups.contains($0.group) && $0.kind != .flag
        }.map { Dimension(layer: layer, field: $0) }
    }

    static func volume(layer: Int) -> Dimension { Dimension(layer: layer, field: MixFields.volume) }

    /// The field's choice fields' values (texture kinds), in table order.
    static var textureChoiceField: FieldSpec? {
        layerFields.first { $0.kind == .choice && $0.group == MixFields.texture.group }
    }

    // MARK: - Values through the mix file's own shape

    /// The layer's JSON object as a mix file holds it.
    static func layerObject(_ mix: Mix, _ layer: Int) -> [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: mix.encodedJSON())) as? [String: Any]
        let layers = object?["layers"] as? [[String: Any]] ?? []
        return layer < layers.count ? layers[layer] : [:]
    }

    /// The value of `d` in `mix` (nil when absent: a cut that is off, a texture default).
    static func value(_ mix: Mix, _ d: Dimension) -> Any? {
        var node: Any? = layerObject(mix, d.layer)
        for key in d.memberPath { node = (node as? [String: Any])?[key] }
        return node
    }

    /// `mix` with `d` set to `value` (nil removes it), or nil when the mix reader refuses it.
    static func setting(_ mix: Mix, _ d: Dimension, to value: Any?) -> Mix? {
        guard var root = (try? JSONSerialization.jsonObject(with: mix.encodedJSON())) as? [String: Any],
            var layers = root["layers"] as? [[String: Any]], d.layer < layers.count
        else { return nil }
        layers[d.layer] = set(layers[d.layer], d.memberPath[...], value)
        root["layers"] = layers
        guard let bytes = try? JSONSerialization.data(withJSONObject: root) else { return nil }
        return try? Mix.decode([UInt8](bytes), file: nil, sampleRate: Double(MixSearch.renderRate))
    }

    private static func set(_ object: [String: Any], _ path: ArraySlice<String>, _ value: Any?) -> [String: Any] {
        var o = object
        guard let first = path.first else { return o }
        if path.count == 1 {
            o[first] = value
        } else {
            o[first] = set(o[first] as? [String: Any] ?? [:], path.dropFirst(), value)
        }
        return o
    }

    // MARK: - Numbers on a unit axis

    /// A number's position 0…1 across its range (log-spaced where the table says so).
    static func unit(of v: Double, _ f: FieldSpec) -> Double {
        let r = f.numberRange
        if f.scale == .log, r.lowerBound > 0 { return log(v / r.lowerBound) / log(r.upperBound / r.lowerBound) }
        return (v - r.lowerBound) / (r.upperBound - r.lowerBound)
    }

    static func number(atUnit u: Double, _ f: FieldSpec) -> Double {
        let r = f.numberRange, c = min(max(u, 0), 1)
        var v =
            f.scale == .log && r.lowerBound > 0
            ? r.lowerBound * pow(r.upperBound / r.lowerBound, c) : r.lowerBound + c * (r.upperBound - r.lowerBound)
        if f.kind == .integer { v = v.rounded() }
        // On the table's step, with as many decimals as the step has, so a mix file reads
        // `0.6` and `40`, not `0.6000000000000001` and `37.606`.
        if let step = f.step, step > 0 {
            v = (v / step).rounded() * step
            let scale = pow(10, max(0, -floor(log10(step))))
            v = (v * scale).rounded() / scale
        }
        return min(max(v, r.lowerBound), r.upperBound)
    }
}
