/// The JSON encoding of the tables, a contract for the browser editor and `GET /api/fields`:
/// `{"design": [FIELD...], "mix": [FIELD...]}`, FIELD =
/// `{"key","group","label","help","type","min","max","step","unit","allowed","default","optional",
/// "pro","maxLength","scale","template","aliases"}`; members that do not apply are left out
/// (`scale` only when `log`, `template` only when true, `aliases` only when there are some).
public enum FieldJSON {
    /// `{"design":[...],"mix":[...]}`, members in a fixed order so the bytes are stable.
    public static func document(design: FieldTable, mix: FieldTable) -> String {
        "{\"design\":\(array(design)),\"mix\":\(array(mix))}"
    }

    public static func array(_ table: FieldTable) -> String {
        "[" + table.fields.map(object).joined(separator: ",") + "]"
    }

    public static func object(_ f: FieldSpec) -> String {
        var m: [(String, String)] = [
            ("key", string(f.key)), ("group", string(f.group)), ("label", string(f.label)),
            ("help", string(f.help)), ("type", string(f.kind.rawValue)),
        ]
        if let r = f.range {
            m.append(("min", FieldFormat.number(r.lowerBound)))
            m.append(("max", FieldFormat.number(r.upperBound)))
        }
        if let step = f.step { m.append(("step", FieldFormat.number(step))) }
        if !f.unit.isEmpty { m.append(("unit", string(f.unit))) }
        if !f.allowed.isEmpty { m.append(("allowed", "[" + f.allowed.map(string).joined(separator: ",") + "]")) }
        switch f.defaultValue {
        case .number(let d): m.append(("default", FieldFormat.number(d)))
        case .text(let s): m.append(("default", string(s)))
        case .flag(let b): m.append(("default", b ? "true" : "false"))
        case .none: m.append(("default", "null"))
        }
        m.append(("optional", f.isOptional ? "true" : "false"))
        m.append(("pro", f.isPro ? "true" : "false"))
        if let n = f.maxLength { m.append(("maxLength", String(n))) }
        if f.scale == .log { m.append(("scale", string("log"))) }
        if f.takesTemplate { m.append(("template", "true")) }
        if !f.aliases.isEmpty { m.append(("aliases", "[" + f.aliases.map(string).joined(separator: ",") + "]")) }
        return "{" + m.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
