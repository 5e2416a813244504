import FieldTable
import Foundation
import WidgetDesign

/// What the model may answer, derived from the design field table: a list of edits, each naming one
/// real field with a value of its type inside its range or among its allowed values, and notes for what
/// it could not do. Servers that constrain decoding to a schema (llama-server, Ollama) then cannot name
/// a field that does not exist; every value is still checked again by its row when it is applied.
public enum EditSchema {
    /// The fields a model may set: the Editor's, less images (a model has no files to give).
    public static var fields: [FieldSpec] {
        DesignEditor.fields.map(\.spec).filter { $0.kind != .image }
    }

    public static let maximumEdits = 40
    public static let maximumNotes = 10

    /// The JSON schema of an answer.
    public static func schema() -> [String: Any] {
        let items: [[String: Any]] = fields.map { f in
            [
                "type": "object", "additionalProperties": false, "required": ["field", "value"],
                "properties": ["field": ["const": f.key], "value": valueSchema(f)],
            ]
        }
        return [
            "type": "object", "additionalProperties": false, "required": ["edits"],
            "properties": [
                "edits": ["type": "array", "maxItems": maximumEdits, "items": ["anyOf": items]],
                "notes": [
                    "type": "array", "maxItems": maximumNotes, "items": ["type": "string", "maxLength": 300],
                ],
            ],
        ]
    }

    static func valueSchema(_ f: FieldSpec) -> [String: Any] {
        var s: [String: Any]
        switch f.kind {
        case .number: s = ["type": "number"]
        case .integer: s = ["type": "integer"]
        case .flag: s = ["type": "boolean"]
        case .choice:
            s = ["type": "string", "enum": f.allowed + (f.isOptional && !f.allowed.contains("none") ? ["none"] : [])]
        case .text, .symbol, .image, .date: s = ["type": "string"]
        }
        if let r = f.range, f.kind == .number || f.kind == .integer {
            s["minimum"] = r.lowerBound
            s["maximum"] = r.upperBound
        }
        if let n = f.maxLength { s["maxLength"] = n }
        return s
    }

    /// The instructions: each field with its type, range or values, and help, so the model can only
    /// name real fields and knows what each does.
    public static func instructions() -> String {
        var lines = [
            """
            You design widgets for WidgetWeaver, a desktop widget app. You answer only with JSON that matches \
            the given schema: {"edits": [{"field": FIELD, "value": VALUE}, ...], "notes": [...]}. Each edit \
            sets one field of the design. Use only the fields below, each with a value of its type inside its \
            range or among its values. Put anything you cannot do with these fields in "notes". Text fields may \
            hold template variables such as {{__time}}, {{__weather_temp}} or {{coffee}}.
            """,
            "Fields:",
        ]
        for f in fields {
            var what = f.kind.rawValue
            if let r = f.range { what += " \(FieldFormat.range(r))\(f.unit.isEmpty ? "" : " \(f.unit)")" }
            if !f.allowed.isEmpty { what += " one of \(f.allowed.joined(separator: "|"))" }
            if let n = f.maxLength { what += ", at most \(n) characters" }
            lines.append("- \(f.key) (\(what)): \(f.label). \(f.help)")
        }
        return lines.joined(separator: "\n")
    }
}
