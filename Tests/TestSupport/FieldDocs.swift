import Foundation

/// Docs whose field tables are generated from a field table: the text between
/// `<!-- NAME begin … -->` and `<!-- NAME end -->` must equal what the table generates. With
/// WW_WRITE_FIELD_DOCS=1 in the environment, `committed` rewrites the section from the table.
public enum FieldDocs {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static func beginMarker(_ name: String) -> String {
        """
        <!-- \(name) begin: generated from the field table; change the table, then run WW_WRITE_FIELD_DOCS=1 swift \
        test --filter Fields -->\n
        """
    }

    public static func endMarker(_ name: String) -> String { "<!-- \(name) end -->" }

    /// The committed section of `file` (relative to the package root), or nil without markers.
    public static func committed(file: String, marker: String, generated: String) throws -> String? {
        let url = root.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: beginMarker(marker)),
            let stop = text.range(of: endMarker(marker), range: start.upperBound..<text.endIndex)
        else { return nil }
        let section = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["WW_WRITE_FIELD_DOCS"] == "1" && section != generated {
            let updated = String(text[..<start.upperBound]) + generated + String(text[stop.lowerBound...])
            try updated.write(to: url, atomically: true, encoding: .utf8)
            return generated
        }
        return section
    }
}
