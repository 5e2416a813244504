/// Turns the many ways a key can be written into the one form variables are stored and looked up
/// under.
///
/// The specification's rule (trim, lowercase, collapse whitespace) and its own example (`last_done`
/// and `Last Done` are one key) disagree. The example wins for custom keys because it is what a
/// user types: underscores count as whitespace. Built-in keys (`__` prefix) cannot follow that rule
/// (`__now` would collapse to `now`), so they keep their underscores and whitespace inside them
/// becomes `_`. See docs/variables.md, "Key canonicalisation".
public enum KeyCanonicaliser {
    /// Every built-in key starts with this; custom keys can never produce it.
    public static let builtInPrefix = "__"

    /// The canonical key for `raw`, or `""` when nothing is left.
    ///
    /// - Custom keys: trimmed, lowercased, runs of whitespace and `_` become one space
    ///   (`" Last__Done "` → `"last done"`).
    /// - Built-in keys (trimmed text starting with `__`): lowercased, runs of whitespace inside
    ///   become one `_` (`"__Steps Today"` → `"__steps_today"`).
    public static func canonical<S: StringProtocol>(_ raw: S) -> String {
        let trimmed = raw.drop(while: { $0.isWhitespace })
        if trimmed.hasPrefix(builtInPrefix) {
            return collapse(trimmed, separator: "_", underscoreIsSeparator: false, keepPrefix: true)
        }
        return collapse(trimmed, separator: " ", underscoreIsSeparator: true, keepPrefix: false)
    }

    /// True for canonical keys that name a built-in.
    @inline(__always)
    public static func isBuiltIn(_ canonicalKey: String) -> Bool { canonicalKey.hasPrefix(builtInPrefix) }

    private static func collapse<S: StringProtocol>(_ text: S, separator: Character,
                                                    underscoreIsSeparator: Bool, keepPrefix: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSeparator = false
        var wroteAny = false
        var index = text.startIndex
        if keepPrefix {
            out += builtInPrefix
            index = text.index(index, offsetBy: 2)
        }
        while index < text.endIndex {
            let ch = text[index]
            index = text.index(after: index)
            if ch.isWhitespace || (underscoreIsSeparator && ch == "_") {
                pendingSeparator = true
                continue
            }
            if pendingSeparator, wroteAny { out.append(separator) }
            pendingSeparator = false
            wroteAny = true
            if ch.isASCII {
                out.append(ch.isUppercase ? Character(ch.lowercased()) : ch)
            } else {
                out += ch.lowercased()
            }
        }
        return out
    }
}
