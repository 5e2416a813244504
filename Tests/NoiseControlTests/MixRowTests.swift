import BoundedJSON
import Foundation
import NoiseEngine
import Testing

@testable import NoiseControl

/// Every number a layer holds (`MixParameter.layerNumbers`) through each use of its row: the layer
/// change sets it where the layer keeps it, the control protocol carries it under the parameter's
/// name and refuses a value past its range in the protocol's words, and a hand-over
/// (`LayerChange(replacing:)`) carries it on.
@Suite struct MixRowTests {
    /// A layer every number applies to: crackle takes a density and a brightness, a high cut
    /// lets the cut swing, and a swell keeps a new swell length.
    static let layer = Mix.Layer(highCutHz: 16000, movement: Mix.Movement(levelDb: 2), texture: .crackle)

    @Test func everyLayerNumberIsNamedAndPlaced() {
        let numbers = MixParameter.layerNumbers
        #expect(numbers.count == 10)
        for p in MixParameter.allCases {
            // Only the layer's own numbers have a place in it; on/off, the cuts and the texture
            // travel as their own types.
            let isNumber =
                p.field.key.hasPrefix("layers[].") && p.field.kind == .number
                && p != .lowCutHz && p != .highCutHz
            #expect(numbers.contains(p) == isNumber, "\(p)")
        }
    }

    @Test(arguments: MixParameter.layerNumbers)
    func aLayerNumberIsChangedSentAndHandedOver(_ p: MixParameter) throws {
        let r = p.field.numberRange
        // Any in-range value other than the layer's own.
        let value = p.value(in: Self.layer) == r.upperBound ? r.lowerBound : r.upperBound

        var mix = Mix(name: "T", layers: [Self.layer])
        try mix.apply(LayerChange([p: value]), toLayer: 0)
        var expected = Self.layer
        p.set(value, in: &expected)
        #expect(mix.layers[0] == expected && p.value(in: mix.layers[0]) == value, "\(p)")
        // The key path is the table's key: the mix file holds the value there.
        var node: Any? = try JSONSerialization.jsonObject(with: mix.encodedJSON())
        node = ((node as? [String: Any])?["layers"] as? [Any])?.first
        for member in p.field.key.dropFirst("layers[].".count).split(separator: ".") {
            node = (node as? [String: Any])?[String(member)]
        }
        #expect((node as? NSNumber)?.doubleValue == value, "\(p)")
        #expect(try Mix.decode([UInt8](mix.encodedJSON()), file: nil) == mix, "\(p): the mix file reader")
        // The Last Mix's tolerant reader takes it back; one past the range falls back to the
        // table's default at the row's path, in the row's unit.
        func lastMix(_ file: [String: Any]) throws -> JSONValue {
            try JSONValue.parse(JSONSerialization.data(withJSONObject: ["schemaVersion": 1, "mix": file]))
        }
        var file = try #require(try JSONSerialization.jsonObject(with: mix.encodedJSON()) as? [String: Any])
        #expect(LastMix.tolerant(try lastMix(file)).value.mix == mix, "\(p): the Last Mix reader")
        let member = String(p.field.key.dropFirst("layers[].".count))
        let names = member.split(separator: ".").map(String.init)
        var layer = try #require((file["layers"] as? [[String: Any]])?.first)
        if names.count == 2 {
            var inner = layer[names[0]] as? [String: Any] ?? [:]
            inner[names[1]] = r.upperBound + 1
            layer[names[0]] = inner
        } else {
            layer[names[0]] = r.upperBound + 1
        }
        file["layers"] = [layer]
        let repaired = LastMix.tolerant(try lastMix(file))
        #expect(repaired.repairs.map(\.path) == ["mix.layers[0].\(member)"], "\(p): \(repaired.repairs)")

        let request = ControlRequest.setLayer(index: 0, change: LayerChange([p: value]))
        let line = request.encoded()
        #expect(String(decoding: line, as: UTF8.self).contains("\"\(p.rawValue)\":"), "\(p)")
        #expect(try ControlRequest.decode(line) == request)

        let past = JSONValue.format(r.upperBound + (p.field.step ?? 1))
        let refused = #"{"command":"setLayer","layer":0,"change":{"\#(p.rawValue)":\#(past)}}"#
        #expect(
            throws: ProtocolError("'change.\(p.rawValue)' \(past) is out of range; allowed \(JSONReader.formatted(r))")
        ) {
            try ControlRequest.decode(Data(refused.utf8))
        }

        #expect(LayerChange(replacing: mix.layers[0])[p] == value, "\(p)")
        var handedOver = Mix(name: "T", layers: [Mix.Layer()])
        try handedOver.apply(LayerChange(replacing: mix.layers[0]), toLayer: 0)
        #expect(handedOver.layers[0] == mix.layers[0], "\(p)")
    }
}
