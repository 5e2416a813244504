import Foundation

/// The docs' field tables, generated from a table so they cannot drift from it.
public enum FieldMarkdown {
    /// One Markdown table per group (a `### Group` heading each), in the table's group order.
    public static func tables(_ table: FieldTable) -> String {
        var out: [String] = []
        for group in table.groups {
            let rows = table.fields.filter { $0.group == group }
            guard !rows.isEmpty else { continue }
            out.append("### \(group)\n")
            out.append("| field | allowed | default | meaning |")
            out.append("| --- | --- | --- | --- |")
            for f in rows {
                out.append("| \(names(f)) | \(cell(allowed(f))) | \(cell(defaultText(f))) | \(cell(meaning(f))) |")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    static func names(_ f: FieldSpec) -> String {
        "`\(f.key)`" + (f.aliases.isEmpty ? "" : " (" + f.aliases.map { "`\($0)`" }.joined(separator: ", ") + ")")
    }

    static func allowed(_ f: FieldSpec) -> String {
        var s: String
        switch f.kind {
        case .choice: s = f.allowed.map { "`\($0)`" }.joined(separator: ", ")
        case .flag: s = "true/false"
        case .number, .integer:
            s = FieldFormat.range(f.numberRange) + (f.unit.isEmpty ? "" : " \(f.unit)")
            if f.kind == .integer { s += ", whole" }
        case .text, .symbol, .image, .date:
            s = f.kind == .text ? "text" : f.kind.rawValue
            if let n = f.maxLength { s += ", ≤ \(n) characters" }
        }
        if f.isOptional { s += "; none = off" }
        return s
    }

    static func defaultText(_ f: FieldSpec) -> String {
        switch f.defaultValue {
        case .number(let d): FieldFormat.number(d)
        case .text(let t): t.isEmpty ? "empty" : "`\(t)`"
        case .flag(let b): b ? "true" : "false"
        case .none: f.isOptional ? "none" : "—"
        }
    }

    static func meaning(_ f: FieldSpec) -> String {
        var s = "\(f.label): \(f.help)"
        if f.takesTemplate { s += " Takes `{{variables}}`." }
        if f.isPro { s += " Pro." }
        return s
    }

    static func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
}
