import BoundedJSON

/// `{"family","scale","width","height","elements":[{"kind","text"?,"shown"?,"rect"}],`
/// `"actions":[{"id","kind","title"?,"layer"?,"minutes"?,"reminderID"?,"preset"?,"rect"}]}`, keys in that order,
/// numbers in points rounded to 0.01.
enum LayoutJSON {
    static func encode(_ layout: WidgetLayout) -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func string(_ s: String) { JSONValue.writeString(s, to: &out) }
        func number(_ d: Double) {
            let r = (d * 100).rounded() / 100
            raw(JSONValue.format(r == 0 ? 0 : r))
        }
        func rect(_ r: Rect) {
            raw("{\"x\": ")
            number(r.x)
            raw(", \"y\": ")
            number(r.y)
            raw(", \"width\": ")
            number(r.width)
            raw(", \"height\": ")
            number(r.height)
            raw("}")
        }
        raw("{\n  \"family\": ")
        string(layout.family.rawValue)
        raw(",\n  \"scale\": \(layout.scale)")
        raw(",\n  \"width\": ")
        number(layout.width)
        raw(",\n  \"height\": ")
        number(layout.height)
        raw(",\n  \"elements\": [")
        for (i, e) in layout.elements.enumerated() {
            raw(i == 0 ? "\n    " : ",\n    ")
            raw("{\"kind\": ")
            string(e.kind.rawValue)
            if let t = e.text {
                raw(", \"text\": ")
                string(t)
            }
            if let shown = e.textRun?.shownText {
                raw(", \"shown\": ")
                string(shown)
            }
            raw(", \"rect\": ")
            rect(e.rect)
            raw("}")
        }
        raw(layout.elements.isEmpty ? "]" : "\n  ]")
        raw(",\n  \"actions\": [")
        for (i, a) in layout.actions.enumerated() {
            raw(i == 0 ? "\n    " : ",\n    ")
            raw("{\"id\": ")
            string(a.id)
            raw(", \"kind\": ")
            string(a.kind.rawValue)
            if let t = a.title {
                raw(", \"title\": ")
                string(t)
            }
            if let l = a.layer { raw(", \"layer\": \(l)") }
            if let m = a.timerMinutes { raw(", \"minutes\": \(m)") }
            if let r = a.reminderID {
                raw(", \"reminderID\": ")
                string(r)
            }
            if let p = a.presetID {
                raw(", \"preset\": ")
                string(p)
            }
            raw(", \"rect\": ")
            rect(a.rect)
            raw("}")
        }
        raw(layout.actions.isEmpty ? "]" : "\n  ]")
        raw("\n}\n")
        return String(decoding: out, as: UTF8.self)
    }
}
