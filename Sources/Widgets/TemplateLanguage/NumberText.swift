/// Reading numbers out of variable values and writing maths results back as text.
///
/// Values are user text, so parsing is strict: plain decimal notation only. `Double(String)` alone
/// would also accept `nan`, `inf` and hexadecimal (`0x1p3`), none of which a widget author means.
public enum NumberText {
    /// Longest text considered a number; longer values are never numeric (bounds parsing cost).
    public static let maximumLength = 64
    /// Every integer of this many decimal digits is exactly representable in a Double.
    static let exactDigits = 15

    /// Parses `[+-]digits[.digits][e[+-]digits]` (surrounding whitespace allowed) into a finite Double.
    public static func parse<S: StringProtocol>(_ original: S) -> Double? {
        let text = Substring(original)
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength + 16 else { return nil }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        guard start < end else { return nil }
        var i = start
        var mantissaDigits = 0
        let isNegative = utf8[i] == UInt8(ascii: "-")
        if utf8[i] == UInt8(ascii: "+") || isNegative { i = utf8.index(after: i) }
        var integer = 0
        while i < end, isDigit(utf8[i]) {
            if mantissaDigits < exactDigits { integer = integer * 10 + Int(utf8[i] &- UInt8(ascii: "0")) }
            mantissaDigits += 1
            i = utf8.index(after: i)
        }
        // Plain integers (most widget values) are exact in a Double up to 15 digits, where the
        // C library's `strtod` would return the same value at several times the cost.
        if i == end, mantissaDigits > 0, mantissaDigits <= exactDigits {
            let value = Double(integer)
            return isNegative ? -value : value
        }
        if i < end, utf8[i] == UInt8(ascii: ".") {
            i = utf8.index(after: i)
            while i < end, isDigit(utf8[i]) {
                mantissaDigits += 1
                i = utf8.index(after: i)
            }
        }
        guard mantissaDigits > 0 else { return nil }
        if i < end, utf8[i] == UInt8(ascii: "e") || utf8[i] == UInt8(ascii: "E") {
            i = utf8.index(after: i)
            if i < end, utf8[i] == UInt8(ascii: "+") || utf8[i] == UInt8(ascii: "-") { i = utf8.index(after: i) }
            var exponentDigits = 0
            while i < end, isDigit(utf8[i]) {
                exponentDigits += 1
                i = utf8.index(after: i)
            }
            guard exponentDigits > 0 else { return nil }
        }
        guard i == end, utf8.distance(from: start, to: end) <= maximumLength else { return nil }
        guard let value = Double(text[start..<end]), value.isFinite else { return nil }
        return value
    }

    /// Like `parse`, but also reads `true`/`false` as 1/0 so boolean built-ins work in maths.
    public static func parseForMaths<S: StringProtocol>(_ text: S) -> Double? {
        if let value = parse(text) { return value }
        switch text.utf8.count {
        case 4 where text.lowercased() == "true": return 1
        case 5 where text.lowercased() == "false": return 0
        default: return nil
        }
    }

    /// Values at or beyond this magnitude (2^53) print in exponent form; below it every integer
    /// is exact in a Double and prints without a decimal point.
    static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// Canonical text for a computed number: integers without a decimal point (`3`, not `3.0`),
    /// other values rounded to 10 decimals with trailing zeros dropped (`0.1+0.2` prints `0.3`),
    /// values of 2^53 and more in exponent form (`9.2e+18`). Never traps; non-finite input prints as `""`.
    public static func canonical(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == 0 { return "0" }  // also folds -0
        let magnitude = Swift.abs(value)
        if magnitude >= exactIntegerLimit {
            // Swift's shortest form; it switches to exponent form just above 2^53.
            let text = value.description
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        if value.rounded(.towardZero) == value { return String(Int64(value)) }
        let scaled = (value * 1e10).rounded(.toNearestOrAwayFromZero) / 1e10
        if scaled == 0 { return "0" }
        if scaled.rounded(.towardZero) == scaled { return String(Int64(scaled)) }
        return scaled.description
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
