import Foundation
import NoiseEngine

/// The home screen and mixer as HTML. Pictures come from `/widgets/…`; this file only places them,
/// labels them and puts a real `<button>` over each of the renderer's action rects.
public enum Page {
    /// The whole page. `tiles` in page order (see `WidgetBoard.tiles`).
    public static func home(tiles: [WidgetTile], mixer: MixerState, token: String) -> String {
        var groups: [(id: String, name: String, tiles: [WidgetTile])] = []
        for tile in tiles {
            if let i = groups.firstIndex(where: { $0.id == tile.designID }) {
                groups[i].tiles.append(tile)
            } else {
                groups.append((tile.designID, tile.designName, [tile]))
            }
        }
        let designs = groups.map { designSection(id: $0.id, name: $0.name, tiles: $0.tiles) }
        let html = templates.render("home", ["designs": designs, "mixer": mixerSection(mixer)])
        return AppShell.page(
            title: "WidgetWeaver", active: .home, token: token, body: html.description,
            stylesheets: ["/static/app.css"], scripts: ["/static/app.js"])
    }

    static let templates = HTMLTemplates(PackageResources.home_html, file: "Home/home.html")

    /// The Noise section: the mixer, with the same script (it binds to whatever of the home page
    /// it finds), then the night (`NightSection`: timer, its end, schedules) with its own script.
    public static func noise(mixer: MixerState, token: String, night: String = "") -> String {
        AppShell.page(
            title: "Noise", active: .noise, token: token, body: mixerSection(mixer).description + night,
            stylesheets: ["/static/app.css", "/static/night.css"], scripts: ["/static/app.js", "/static/night.js"])
    }

    static func designSection(id: String, name: String, tiles: [WidgetTile]) -> HTML {
        let home = tiles.filter { WidgetTile.homeFamilies.contains($0.family) }
        let lock = tiles.filter { WidgetTile.lockScreenFamilies.contains($0.family) }
        return templates.render(
            "design",
            [
                "id": id, "name": name, "home": home.map(tileFragment),
                "lock": lock.isEmpty ? .empty : templates.render("lockRow", ["tiles": lock.map(tileFragment)]),
            ])
    }

    /// One widget: the picture, its label, and a button over each action.
    static func tileFragment(_ t: WidgetTile) -> HTML {
        let buttons = t.buttons.map { b in
            templates.render(
                "button",
                [
                    "kind": b.kind, "id": b.id,
                    "layer": b.layer.map { templates.render("layerAttribute", ["layer": $0]) } ?? .empty,
                    "x": number(b.x + b.width / 2), "y": number(b.y + b.height / 2),
                    "left": number(b.x), "top": number(b.y), "width": number(b.width), "height": number(b.height),
                    "label": b.label,
                ])
        }
        return templates.render(
            "tile",
            [
                "family": t.family, "id": t.designID, "version": t.version, "width": number(t.widthPt),
                "height": number(t.heightPt), "file": urlPath(t.designID), "label": t.label, "buttons": buttons,
                "name": t.designName, "familyName": familyName(t.family),
            ])
    }

    /// One tile's markup, as the event stream sends it when the tile changes.
    public static func tile(_ t: WidgetTile) -> String { tileFragment(t).description }

    static func familyName(_ family: String) -> String {
        switch family {
        case "small": return "Small"
        case "medium": return "Medium"
        case "large": return "Large"
        case "circular": return "Circular"
        case "rectangular": return "Rectangular"
        case "inline": return "Inline"
        default: return family
        }
    }

    static func option(_ value: String, _ name: String, selected: Bool) -> HTML {
        templates.render(
            "option", ["value": value, "name": name, "selected": selected ? templates.render("selected") : .empty])
    }

    static func mixerSection(_ m: MixerState) -> HTML {
        var presets: [HTML] = []
        if m.presetID == nil || !m.presets.contains(where: { $0.id == m.presetID }) {
            presets.append(templates.render("customMix", ["name": m.mixName]))
        }
        presets += m.presets.map { option($0.id, $0.name, selected: $0.id == m.presetID) }
        let timers = [15, 30, 45, 60, 90, 120, 240, 480].map { minutes in
            let label =
                minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h\(minutes % 60 == 0 ? "" : " \(minutes % 60) min")"
            return option("\(minutes * 60)", label, selected: false)
        }
        let layers = (1...4).map { n in
            let layer = n <= m.layers.count ? m.layers[n - 1] : Mix.Layer(enabled: false)
            func control(_ param: MixParameter, _ label: String, _ value: Double?, _ text: String) -> HTML {
                let id = "l\(n)-\(param.rawValue)"
                return templates.render(
                    "control",
                    ["id": id, "label": label, "input": slider(id: id, layer: n, param, value: value, text: text)])
            }
            var controls = [control(.volume, "Volume", layer.volume, percent(layer.volume))]
            controls += textureControls(layer: n, layer)
            controls.append(
                templates.render(
                    "control",
                    [
                        "id": "l\(n)-colour", "label": "Colour",
                        "input": slider(
                            id: "l\(n)-colour", layer: n, .colour, value: layer.colour,
                            text: colourName(layer.colour), extraClass: "colour"),
                    ]))
            controls.append(control(.lowCutHz, "Low cut", layer.lowCutHz, cutText(layer.lowCutHz)))
            controls.append(control(.highCutHz, "High cut", layer.highCutHz, cutText(layer.highCutHz)))
            for (param, name, value) in [
                (MixParameter.eqLowDb, "EQ low", layer.eq.lowDb), (.eqMidDb, "EQ mid", layer.eq.midDb),
                (.eqHighDb, "EQ high", layer.eq.highDb),
            ] {
                controls.append(control(param, name, value, "\(signed(value)) dB"))
            }
            return templates.render(
                "layer",
                ["n": n, "checked": layer.enabled ? templates.render("checked") : .empty, "controls": controls])
        }
        return templates.render(
            "mixer",
            [
                "summary": mixerSummary(m),
                "master": slider(
                    id: "master", layer: nil, .master, value: m.masterVolume, text: percent(m.masterVolume)),
                "presets": presets, "timers": timers, "timeLeft": m.timerRemainingSeconds.map(timeLeft) ?? "",
                "layers": layers,
            ])
    }

    /// A layer's texture (a choice of the table's `allowed`), its density and brightness, labelled
    /// from the table's rows. Drops and crackle replace the noise (the colour slider shapes noise
    /// only); density applies to both, brightness to crackle alone, so a control that does not
    /// apply is disabled (the page's script re-enables it when the texture changes).
    static func textureControls(layer n: Int, _ layer: Mix.Layer) -> [HTML] {
        let kind = layer.texture ?? .noise, t = layer.textureSettings
        let field = MixParameter.texture.field, id = "l\(n)-\(MixParameter.texture.rawValue)"
        var html = [
            templates.render(
                "texture",
                [
                    "id": id, "label": field.label, "n": n, "param": MixParameter.texture.rawValue,
                    "options": field.allowed.map { option($0, $0, selected: $0 == kind.rawValue) },
                ])
        ]
        for (param, value, text, applies) in [
            (
                MixParameter.densityPerSecond, Double(t.densityPerSecond),
                "\(number(Double(t.densityPerSecond))) per second", kind != .noise
            ),
            (.brightness, Double(t.brightness), percent(Double(t.brightness)), kind == .crackle),
        ] {
            // What an absent value means, per texture, for the script to show when the mix has none.
            let defaults =
                param == .densityPerSecond
                ? templates.render(
                    "densityDefaults",
                    ["drops": number(ownDensity(.drops)), "crackle": number(ownDensity(.crackle))])
                : templates.render("brightnessDefault", ["crackle": number(param.field.defaultNumber)])
            let sliderID = "l\(n)-\(param.rawValue)"
            html.append(
                templates.render(
                    "control",
                    [
                        "id": sliderID, "label": param.field.label,
                        "input": slider(
                            id: sliderID, layer: n, param, value: value, text: text, disabled: !applies,
                            defaults: defaults),
                    ]))
        }
        return html
    }

    /// A texture's density when the mix sets none.
    static func ownDensity(_ t: Mix.Texture) -> Double {
        Double(Mix.Layer(texture: t).textureSettings.densityPerSecond)
    }

    /// A range control for one parameter, its min, max and step from the mix table. An optional
    /// parameter (a cut) gets one more step past its range, on the side where the filter does
    /// nothing, that means off (`data-off`): below the low cut's range, above the high cut's.
    static func slider(
        id: String, layer: Int?, _ param: MixParameter, value: Double?, text: String,
        extraClass: String? = nil, disabled: Bool = false, defaults: HTML = .empty
    ) -> HTML {
        let c = MixerControl(param)
        let v = value ?? c.offValue ?? c.min
        return templates.render(
            "slider",
            [
                "id": id, "class": extraClass.map { templates.render("class", ["name": $0]) } ?? .empty,
                "disabled": disabled ? templates.render("disabled") : .empty, "defaults": defaults,
                "layer": layer.map { templates.render("layerAttribute", ["layer": $0]) } ?? .empty,
                "param": param.rawValue,
                "off": c.offValue.map { templates.render("off", ["off": number($0)]) } ?? .empty,
                "min": number(c.min), "max": number(c.max), "step": number(c.step),
                "value": number(Swift.min(Swift.max(v, c.min), c.max)), "text": text,
            ])
    }

    public static func mixerSummary(_ m: MixerState) -> String {
        let state = m.state.prefix(1).uppercased() + m.state.dropFirst()
        var text = "\(state): \(m.mixName)"
        if !m.running { text += " (no player running: changes edit the Last Mix)" }
        return text
    }

    static func percent(_ v: Double) -> String { "\(Int((v * 100).rounded()))%" }
    static func signed(_ v: Double) -> String { v > 0 ? "+\(number(v))" : number(v) }
    static func cutText(_ hz: Double?) -> String { hz.map { "\(number($0)) Hz" } ?? "off" }
    static func timeLeft(_ seconds: Int) -> String { "\(seconds / 60):\(String(format: "%02d", seconds % 60)) left" }

    /// 0 white, 1 pink, 2 brown, and the shades between.
    public static func colourName(_ c: Double) -> String { ColourName.of(c) }

    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return String(format: "%.2f", v).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    static func urlPath(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? s
    }

    /// HTML text and attribute escaping (design names and texts are user data).
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Controls other than tab/newline never belong in a page.
                if ch.value < 0x20 && ch != "\t" && ch != "\n" { out += " " } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}
