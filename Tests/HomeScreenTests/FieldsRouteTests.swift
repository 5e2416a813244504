import FieldTable
import Foundation
import NoiseEngine
import TestSupport
import Testing
import WidgetDesign

/// `GET /api/fields` and the mixer page's controls, over a real socket to a real `weaver serve`:
/// both carry exactly the field tables.
@Suite(.serialized)
struct FieldsRouteTests {
    @Test func fieldsAnswerIsBothTablesAndTheMixerCarriesTheirRanges() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.startServer()

        let answer = try RawHTTP.send(port: rig.port, path: "/api/fields")
        #expect(answer.status == 200 && answer.headers["content-type"] == "application/json")
        let doc = try #require(answer.json())
        let design = try #require(doc["design"] as? [[String: Any]])
        let mix = try #require(doc["mix"] as? [[String: Any]])
        #expect(design.map { $0["key"] as? String } == DesignFields.table.keys)
        #expect(mix.map { $0["key"] as? String } == MixFields.table.keys)
        let lowCut = try #require(mix.first { $0["key"] as? String == "layers[].lowCutHz" })
        #expect(lowCut["min"] as? Double == 10 && lowCut["max"] as? Double == 2000 && lowCut["unit"] as? String == "Hz")
        #expect(
            lowCut["scale"] as? String == "log" && lowCut["optional"] as? Bool == true
                && lowCut["group"] as? String == "Layer")
        let padding = try #require(design.first { $0["key"] as? String == "style.padding" })
        #expect(
            padding["min"] as? Double == 0 && padding["max"] as? Double == 32 && padding["default"] as? Double == 16)
        // Read-only, and the Host rules of every other route.
        #expect(try RawHTTP.send(port: rig.port, path: "/api/fields", host: "evil.example:\(rig.port)").status == 403)
        #expect(try RawHTTP.send(port: rig.port, method: "POST", path: "/api/fields").status != 200)

        // The served page's sliders: min, max and step from the table; a cut's off position one
        // step past its range, on the side where the filter does nothing.
        let page = try RawHTTP.send(port: rig.port, path: "/")
        let inputs = page.text.matches(of: /<input type="range"[^>]*>/).map { attributes(String($0.0)) }
        var seen: [String: Int] = [:]
        for a in inputs {
            let name = try #require(a["data-param"])
            let param = try #require(MixParameter(rawValue: name), "unknown control \(name)")
            let f = param.field, r = f.numberRange, step = try #require(f.step)
            seen[name, default: 0] += 1
            #expect(Double(a["step"] ?? "") == step, "\(name) step")
            switch param {
            case .lowCutHz:
                #expect(Double(a["min"] ?? "") == r.lowerBound - step && Double(a["max"] ?? "") == r.upperBound, "\(a)")
                #expect(Double(a["data-off"] ?? "") == r.lowerBound - step)
            case .highCutHz:
                #expect(Double(a["min"] ?? "") == r.lowerBound && Double(a["max"] ?? "") == r.upperBound + step, "\(a)")
                #expect(Double(a["data-off"] ?? "") == r.upperBound + step)
            default:
                #expect(
                    Double(a["min"] ?? "") == r.lowerBound && Double(a["max"] ?? "") == r.upperBound, "\(name): \(a)")
                #expect(a["data-off"] == nil)
            }
        }
        #expect(
            seen == [
                "master": 1, "volume": 4, "colour": 4, "lowCutHz": 4, "highCutHz": 4, "eqLowDb": 4, "eqMidDb": 4,
                "eqHighDb": 4, "densityPerSecond": 4, "brightness": 4,
            ])
        // Each layer's texture is a choice of the table's allowed values, labelled from its row.
        let selects = page.text.matches(of: /<select id="l(\d)-texture"[^>]*>(.*?)<\/select>/.dotMatchesNewlines())
        #expect(selects.count == 4)
        for s in selects {
            let values = s.2.matches(of: /<option value="([^"]*)"/).map { String($0.1) }
            #expect(values == MixFields.texture.allowed, "layer \(s.1): \(values)")
            #expect(page.text.contains(#"<label for="l\#(s.1)-texture">\#(MixFields.texture.label)</label>"#))
        }
        // The script reads the off position from the page, not from a literal.
        let js = try RawHTTP.send(port: rig.port, path: "/static/app.js")
        #expect(js.status == 200 && js.text.contains("dataset.off"))
        for literal in ["20000", "20100", "2000"] { #expect(!js.text.contains(literal), "\(literal) in app.js") }
    }

    func attributes(_ tag: String) -> [String: String] {
        var out: [String: String] = [:]
        for m in tag.matches(of: /([a-z-]+)="([^"]*)"/) { out[String(m.1)] = String(m.2) }
        return out
    }
}
