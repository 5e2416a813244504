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
        var html = "<section id=\"home\" aria-label=\"Home screen\">\n"
        for group in groups {
            html += designSection(id: group.id, name: group.name, tiles: group.tiles)
        }
        html += "</section>\n"
        html += mixerSection(mixer)
        return AppShell.page(
            title: "WidgetWeaver", active: .home, token: token, body: html,
            stylesheets: ["/static/app.css"], scripts: ["/static/app.js"])
    }

    /// The Noise section: the mixer alone, with the same script (it binds to whatever of the
    /// home page it finds).
    public static func noise(mixer: MixerState, token: String) -> String {
        AppShell.page(
            title: "Noise", active: .noise, token: token, body: mixerSection(mixer),
            stylesheets: ["/static/app.css"], scripts: ["/static/app.js"])
    }

    static func designSection(id: String, name: String, tiles: [WidgetTile]) -> String {
        let home = tiles.filter { WidgetTile.homeFamilies.contains($0.family) }
        let lock = tiles.filter { WidgetTile.lockScreenFamilies.contains($0.family) }
        var html = "<section class=\"design\" data-design-section=\"\(escape(id))\" aria-label=\"\(escape(name))\">\n"
        html += "<h2>\(escape(name))</h2>\n<div class=\"row\">\n"
        for t in home { html += tile(t) }
        html += "</div>\n"
        if !lock.isEmpty {
            html += "<div class=\"row lock\" aria-label=\"Lock screen\">\n"
            for t in lock { html += tile(t) }
            html += "</div>\n"
        }
        return html + "</section>\n"
    }

    /// One widget: the picture, its label, and a button over each action.
    public static func tile(_ t: WidgetTile) -> String {
        let w = number(t.widthPt), h = number(t.heightPt)
        var html = "<figure class=\"widget family-\(escape(t.family))\" data-design-id=\"\(escape(t.designID))\" "
        html += "data-family=\"\(escape(t.family))\" data-version=\"\(escape(t.version))\">\n"
        html += "<div class=\"surface\" style=\"width:\(w)px;height:\(h)px\">\n"
        html +=
            """
            <img src=\"/widgets/\(escape(urlPath(t.designID))).svg?\
            family=\(escape(t.family))&amp;v=\(escape(t.version))\"\u{20}
            """
        html +=
            """
            width=\"\(w)\" height=\"\(h)\" alt=\"\(escape(t.label))\" role=\"img\" \
            aria-label=\"\(escape(t.label))\">\n
            """
        for b in t.buttons {
            html +=
                """
                <button type=\"button\" class=\"hit\" data-action-kind=\"\(escape(b.kind))\" \
                data-action-id=\"\(escape(b.id))\"\u{20}
                """
            if let layer = b.layer { html += "data-layer=\"\(layer)\" " }
            html += "data-x=\"\(number(b.x + b.width / 2))\" data-y=\"\(number(b.y + b.height / 2))\" "
            html +=
                """
                style=\"left:\(number(b.x))px;top:\(number(b.y))px;width:\(number(b.width))px;\
                height:\(number(b.height))px\"\u{20}
                """
            html += "aria-label=\"\(escape(b.label))\" title=\"\(escape(b.label))\"></button>\n"
        }
        html +=
            "</div>\n<figcaption>\(escape(t.designName)) · \(escape(familyName(t.family)))</figcaption>\n</figure>\n"
        return html
    }

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

    static func mixerSection(_ m: MixerState) -> String {
        var html = """
            <section id="mixer" aria-label="Mixer">
            <h2>Mixer</h2>
            <p id="mixer-state" aria-live="polite">\(escape(mixerSummary(m)))</p>
            <form id="mixer-form" autocomplete="off">
            <fieldset class="master">
            <legend>Master</legend>
            <label for="master">Volume</label>
            \(slider(id: "master", layer: nil, .master, value: m.masterVolume, text: percent(m.masterVolume)))
            <label for="preset">Preset</label>
            <select id="preset" data-param="preset">

            """
        if m.presetID == nil || !m.presets.contains(where: { $0.id == m.presetID }) {
            html += "<option value=\"\" selected>\(escape(m.mixName)) (custom)</option>\n"
        }
        for p in m.presets {
            html +=
                "<option value=\"\(escape(p.id))\"\(p.id == m.presetID ? " selected" : "")>\(escape(p.name))</option>\n"
        }
        html += "</select>\n<label for=\"timer\">Sleep timer</label>\n<select id=\"timer\" data-param=\"timer\">\n"
        html += "<option value=\"\">Off</option>\n"
        for minutes in [15, 30, 45, 60, 90, 120, 240, 480] {
            let label =
                minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h\(minutes % 60 == 0 ? "" : " \(minutes % 60) min")"
            html += "<option value=\"\(minutes * 60)\">\(label)</option>\n"
        }
        html +=
            """
            </select>\n<output id=\"timer-left\" \
            for=\"timer\">\(m.timerRemainingSeconds.map(timeLeft) ?? "")</output>\n</fieldset>\n
            """
        for n in 1...4 {
            let layer = n <= m.layers.count ? m.layers[n - 1] : Mix.Layer(enabled: false)
            html += "<fieldset class=\"layer\" data-layer-group=\"\(n)\">\n<legend>Layer \(n)</legend>\n"
            html +=
                """
                <label class=\"toggle\"><input type=\"checkbox\" id=\"l\(n)-enabled\" data-layer=\"\(n)\" \
                data-param=\"enabled\"\(layer.enabled ? " checked" : "")> On</label>\n
                """
            html += "<label for=\"l\(n)-volume\">Volume</label>\n"
            html += slider(id: "l\(n)-volume", layer: n, .volume, value: layer.volume, text: percent(layer.volume))
            html += textureControls(layer: n, layer)
            html += "<label for=\"l\(n)-colour\">Colour</label>\n"
            html += slider(
                id: "l\(n)-colour", layer: n, .colour, value: layer.colour, text: colourName(layer.colour),
                extraClass: "colour")
            html += "<label for=\"l\(n)-lowCutHz\">Low cut</label>\n"
            html += slider(
                id: "l\(n)-lowCutHz", layer: n, .lowCutHz, value: layer.lowCutHz, text: cutText(layer.lowCutHz))
            html += "<label for=\"l\(n)-highCutHz\">High cut</label>\n"
            html += slider(
                id: "l\(n)-highCutHz", layer: n, .highCutHz, value: layer.highCutHz, text: cutText(layer.highCutHz))
            for (param, name, value) in [
                (MixParameter.eqLowDb, "EQ low", layer.eq.lowDb), (.eqMidDb, "EQ mid", layer.eq.midDb),
                (.eqHighDb, "EQ high", layer.eq.highDb),
            ] {
                html += "<label for=\"l\(n)-\(param.rawValue)\">\(name)</label>\n"
                html += slider(
                    id: "l\(n)-\(param.rawValue)", layer: n, param, value: value, text: "\(signed(value)) dB")
            }
            html += "</fieldset>\n"
        }
        html += "</form>\n</section>\n"
        return html
    }

    /// A layer's texture (a choice of the table's `allowed`), its density and brightness, labelled
    /// from the table's rows. Drops and crackle replace the noise (the colour slider shapes noise
    /// only); density applies to both, brightness to crackle alone, so a control that does not
    /// apply is disabled (the page's script re-enables it when the texture changes).
    static func textureControls(layer n: Int, _ layer: Mix.Layer) -> String {
        let kind = layer.texture ?? .noise, t = layer.textureSettings
        let field = MixParameter.texture.field, id = "l\(n)-\(MixParameter.texture.rawValue)"
        var html = "<label for=\"\(id)\">\(escape(field.label))</label>\n"
        html += "<select id=\"\(id)\" data-layer=\"\(n)\" data-param=\"\(MixParameter.texture.rawValue)\">\n"
        for name in field.allowed {
            html +=
                """
                <option \
                value=\"\(escape(name))\"\(name == kind.rawValue ? " selected" : "")>\(escape(name))</option>\n
                """
        }
        html += "</select>\n"
        for (param, value, text, applies) in [
            (
                MixParameter.densityPerSecond, Double(t.densityPerSecond),
                "\(number(Double(t.densityPerSecond))) per second", kind != .noise
            ),
            (.brightness, Double(t.brightness), percent(Double(t.brightness)), kind == .crackle),
        ] {
            html += "<label for=\"l\(n)-\(param.rawValue)\">\(escape(param.field.label))</label>\n"
            // What an absent value means, per texture, for the script to show when the mix has none.
            let defaults =
                param == .densityPerSecond
                ? "data-default-drops=\"\(number(ownDensity(.drops)))\" "
                    + "data-default-crackle=\"\(number(ownDensity(.crackle)))\" "
                : "data-default-crackle=\"\(number(param.field.defaultNumber))\" "
            html += slider(
                id: "l\(n)-\(param.rawValue)", layer: n, param, value: value, text: text, disabled: !applies,
                attributes: defaults)
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
        extraClass: String? = nil, disabled: Bool = false, attributes: String = ""
    ) -> String {
        let c = MixerControl(param)
        var html = "<input type=\"range\" id=\"\(id)\" "
        if let extraClass { html += "class=\"\(extraClass)\" " }
        if disabled { html += "disabled " }
        html += attributes
        if let layer { html += "data-layer=\"\(layer)\" " }
        html += "data-param=\"\(param.rawValue)\" "
        if let off = c.offValue { html += "data-off=\"\(number(off))\" " }
        html += "min=\"\(number(c.min))\" max=\"\(number(c.max))\" step=\"\(number(c.step))\" "
        let v = value ?? c.offValue ?? c.min
        html += "value=\"\(number(Swift.min(Swift.max(v, c.min), c.max)))\" aria-valuetext=\"\(escape(text))\">"
        html += "<output for=\"\(id)\">\(escape(text))</output>\n"
        return html
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
