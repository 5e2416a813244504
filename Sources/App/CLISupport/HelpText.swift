/// Help text that reads well in an 80-column terminal. argument-parser wraps each line of a
/// discussion to the terminal's width but keeps the line breaks it is given, so prose wrapped by
/// hand in the source breaks mid-sentence; and a word longer than a line (a `a|b|c` value list)
/// spills onto a line of its own after a blank one.
public enum HelpText {
    /// Joins hand-wrapped prose into one line per paragraph, for argument-parser to wrap. Lines that
    /// start with a space (examples, lists) and blank lines are kept as they are.
    public static func prose(_ text: String) -> String {
        var out: [String] = []
        var joinable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.isEmpty || line.hasPrefix(" ") {
                out.append(line)
                joinable = false
            } else if joinable, let last = out.popLast() {
                out.append(last + " " + line)
            } else {
                out.append(line)
                joinable = true
            }
        }
        return out.joined(separator: "\n")
    }

    /// `label: value`, wrapped at `width` columns (argument-parser re-wraps lines of 80 and more) with continuation
    /// lines indented by `indent` spaces. The value breaks after a space or a `|`, so value lists wrap instead of
    /// spilling.
    public static func hanging(
        _ label: String, _ value: String, firstIndent: Int = 2, indent: Int = 6,
        width: Int = 78
    ) -> String {
        var lines: [String] = []
        var line = String(repeating: " ", count: firstIndent) + label + ":"
        // Pieces keep their separator at their end so the text joins back unchanged.
        var pieces: [String] = []
        var current = ""
        for ch in value {
            current.append(ch)
            if ch == " " || ch == "|" {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        var first = true
        for piece in pieces {
            let separator = first ? " " : ""
            let candidate = line + separator + piece
            if candidate.trimmingTrailingSpaces().count > width, !first || line.count > indent {
                lines.append(line.trimmingTrailingSpaces())
                line = String(repeating: " ", count: indent) + piece
            } else {
                line = candidate
            }
            first = false
        }
        lines.append(line.trimmingTrailingSpaces())
        return lines.joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
