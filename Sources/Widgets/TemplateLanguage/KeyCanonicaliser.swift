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
        // Works on Unicode scalars, not Characters: a combining mark after a removed control
        // character would otherwise fuse with the inserted space into a new Character, and a second
        // pass would read that as whitespace, so canonical(canonical(k)) != canonical(k) (found by
        // the fuzzer). Scalar rules make the function idempotent.
        if isAlreadyCanonical(raw.utf8) { return String(raw) }
        let scalars = raw.unicodeScalars
        var start = scalars.startIndex
        while start < scalars.endIndex, isWhitespace(scalars[start]) { start = scalars.index(after: start) }
        let underscore: Unicode.Scalar = "_"
        var isBuiltIn = false
        if start < scalars.endIndex, scalars[start] == underscore {
            let second = scalars.index(after: start)
            isBuiltIn = second < scalars.endIndex && scalars[second] == underscore
        }
        var out = String.UnicodeScalarView()
        var pendingSeparator = false
        var wroteAny = false
        var index = start
        if isBuiltIn {
            out.append(underscore)
            out.append(underscore)
            index = scalars.index(index, offsetBy: 2)
        }
        let separator: Unicode.Scalar = isBuiltIn ? "_" : " "
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if isWhitespace(scalar) || (!isBuiltIn && scalar == underscore) {
                pendingSeparator = true
                continue
            }
            if pendingSeparator, wroteAny { out.append(separator) }
            pendingSeparator = false
            wroteAny = true
            if scalar.isASCII {
                let v = scalar.value
                out.append(v >= 65 && v <= 90 ? Unicode.Scalar(v + 32)! : scalar)
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(out)
    }

    /// True when the general rules below would return `raw` unchanged: ASCII without whitespace
    /// or capitals, and without `_` unless it is a built-in. Keys in templates and maths
    /// identifiers are almost always written that way, and building the result scalar by scalar
    /// costs more than the rest of a lookup.
    static func isAlreadyCanonical<U: Collection<UInt8>>(_ utf8: U) -> Bool {
        var bytes = utf8.makeIterator()
        let first = bytes.next(), second = bytes.next()
        let isBuiltIn = first == UInt8(ascii: "_") && second == UInt8(ascii: "_")
        for byte in utf8 {
            guard byte < 0x80, !isWhitespace(Unicode.Scalar(byte)), byte &- UInt8(ascii: "A") >= 26,
                isBuiltIn || byte != UInt8(ascii: "_")
            else { return false }
        }
        return true
    }

    /// Unicode whitespace, with the ASCII answer computed directly (the property lookup is slow).
    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    /// True for canonical keys that name a built-in.
    @inline(__always)
    public static func isBuiltIn(_ canonicalKey: String) -> Bool { canonicalKey.hasPrefix(builtInPrefix) }
}
