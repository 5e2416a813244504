import Foundation

/// One filter of a token, parsed once when the template is parsed.
///
/// Names are case-insensitive. An unknown name, or a known name with an argument it cannot use
/// (`number:x`, `clamp:1`), is `.ignored`: the value passes through unchanged, as the
/// specification says of unsupported filters. Numeric filters pass non-numeric values through;
/// date filters pass values that are not dates through.
public enum Filter: Equatable, Sendable {
    case upper, lower, title, trim
    case prefix(String)
    case suffix(String)
    /// Zero-pads to this many characters, capped at `maximumPadWidth`.
    case pad(width: Int)
    case number(fractionDigits: Int?)
    case percent(fractionDigits: Int?)
    case currency(code: String?)
    case round(decimals: Int)
    case floor, ceil, abs
    case clamp(min: Double, max: Double)
    case date(pattern: String?)
    case relative
    /// `daysuntil` etc.: ceiling of (target - now) / unit.
    case until(unitSeconds: Double)
    /// `sincedays` etc.: ceiling of (now - target) / unit.
    case since(unitSeconds: Double)
    case plural(singular: String, plural: String)
    case bar(width: Int)
    case ignored

    /// Widths beyond these are clamped: a widget has no room for more, and they bound the output.
    public static let maximumPadWidth = 256
    public static let maximumBarWidth = 256
    /// Fixed decimals beyond this are clamped (a Double carries about 15 significant digits).
    public static let maximumFractionDigits = 10
    static let defaultBarWidth = 10

    public init<S: StringProtocol>(parsing text: S) {
        let colon = text.utf8.firstIndex(of: UInt8(ascii: ":"))
        let name = Self.trimmed(Substring(text[..<(colon ?? text.endIndex)])).lowercased()
        // The text after the first colon, verbatim: `date:HH:mm` and `suffix: km` keep theirs.
        let argument: String? = colon.map { String(text[text.utf8.index(after: $0)...]) }
        let trimmedArgument = argument.map { String(Self.trimmed(Substring($0))) }
        func digits(max: Int) -> Int?? {
            guard let trimmedArgument, !trimmedArgument.isEmpty else { return .some(nil) }
            guard let n = Int(trimmedArgument), n >= 0 else {
                // Too many digits for an Int is still "very large", so clamp it like other widths.
                if trimmedArgument.utf8.allSatisfy({ NumberText.isDigit($0) }) { return .some(max) }
                return nil
            }
            return .some(Swift.min(n, max))
        }
        switch name {
        case "upper": self = .upper
        case "lower": self = .lower
        case "title": self = .title
        case "trim": self = .trim
        case "prefix": self = .prefix(argument ?? "")
        case "suffix": self = .suffix(argument ?? "")
        case "pad":
            guard let width = digits(max: Self.maximumPadWidth), let width else {
                self = .ignored
                return
            }
            self = .pad(width: width)
        case "number":
            guard let n = digits(max: Self.maximumFractionDigits) else {
                self = .ignored
                return
            }
            self = .number(fractionDigits: n)
        case "percent":
            guard let n = digits(max: Self.maximumFractionDigits) else {
                self = .ignored
                return
            }
            self = .percent(fractionDigits: n)
        case "currency":
            guard let code = trimmedArgument, !code.isEmpty else {
                self = .currency(code: nil)
                return
            }
            guard code.utf8.count == 3, code.utf8.allSatisfy({ ($0 | 0x20) &- UInt8(ascii: "a") < 26 }) else {
                self = .ignored
                return
            }
            self = .currency(code: code.uppercased())
        case "round":
            guard let n = digits(max: Self.maximumFractionDigits) else {
                self = .ignored
                return
            }
            self = .round(decimals: n ?? 0)
        case "floor": self = .floor
        case "ceil": self = .ceil
        case "abs": self = .abs
        case "clamp":
            let parts = (argument ?? "").split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let a = NumberText.parse(parts[0]), let b = NumberText.parse(parts[1]) else {
                self = .ignored
                return
            }
            self = .clamp(min: Swift.min(a, b), max: Swift.max(a, b))
        case "date":
            self = .date(pattern: (argument?.isEmpty ?? true) ? nil : argument)
        case "relative": self = .relative
        case "daysuntil": self = .until(unitSeconds: 86_400)
        case "hoursuntil": self = .until(unitSeconds: 3600)
        case "minutesuntil": self = .until(unitSeconds: 60)
        case "sincedays": self = .since(unitSeconds: 86_400)
        case "sincehours": self = .since(unitSeconds: 3600)
        case "sinceminutes": self = .since(unitSeconds: 60)
        case "plural":
            guard let argument, !argument.isEmpty else {
                self = .ignored
                return
            }
            if let split = argument.firstIndex(of: ":") {
                self = .plural(
                    singular: String(argument[..<split]),
                    plural: String(argument[argument.index(after: split)...]))
            } else {
                self = .plural(singular: argument, plural: argument + "s")
            }
        case "bar":
            guard let width = digits(max: Self.maximumBarWidth) else {
                self = .ignored
                return
            }
            self = .bar(width: width ?? Self.defaultBarWidth)
        default: self = .ignored
        }
    }

    /// Without spaces and tabs at either end. (Foundation's `trimmingCharacters(in:)` costs
    /// microseconds on Linux, most of a template's parse time.)
    static func trimmed(_ text: Substring) -> Substring {
        let bytes = text.utf8
        func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return text[start..<end]
    }

    /// Applies the filter to `value` for `context`.
    func apply(to value: String, context: some TemplateScope, formatters: FormatterCache) -> String {
        switch self {
        case .ignored: return value
        case .upper: return value.uppercased(with: context.locale)
        case .lower: return value.lowercased(with: context.locale)
        case .title: return value.capitalized(with: context.locale)
        case .trim: return value.trimmingCharacters(in: .whitespacesAndNewlines)
        case .prefix(let text): return text + value
        case .suffix(let text): return value + text
        case .pad(let width): return Self.zeroPad(value, width: width)
        case .plural(let singular, let plural):
            guard let x = NumberText.parse(value) else { return value }
            return Swift.abs(x) == 1 ? singular : plural
        case .bar(let width):
            guard let x = NumberText.parse(value) else { return value }
            let fraction = Swift.min(Swift.max(x > 1 ? x / 100 : x, 0), 1)
            let filled = Int((fraction * Double(width)).rounded(.toNearestOrAwayFromZero))
            return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        case .number, .percent, .currency, .round, .floor, .ceil, .abs, .clamp:
            guard let x = NumberText.parse(value) else { return value }
            return numeric(x, formatters: formatters)
        case .date, .relative, .until, .since:
            guard let target = DateParsing.parse(value, now: context.now, timeZone: context.timeZone) else {
                return value
            }
            return dated(target, context: context, formatters: formatters)
        }
    }

    private func numeric(_ x: Double, formatters: FormatterCache) -> String {
        switch self {
        case .number(let digits):
            return formatters.number(x, .decimal, fractionDigits: digits)
        case .percent(let digits):
            // |x| <= 1 is a fraction (0.42 → 42%); larger values are already percentages.
            let fraction = Swift.abs(x) <= 1 ? x : x / 100
            return formatters.number(fraction, .percent, fractionDigits: digits ?? 0)
        case .currency(let code):
            return formatters.number(x, .currency(code: code), fractionDigits: nil)
        case .round(let decimals): return NumberText.canonical(Self.round(x, decimals: decimals))
        case .floor: return NumberText.canonical(x.rounded(.down))
        case .ceil: return NumberText.canonical(x.rounded(.up))
        case .abs: return NumberText.canonical(Swift.abs(x))
        case .clamp(let lo, let hi): return NumberText.canonical(Swift.min(Swift.max(x, lo), hi))
        default: return NumberText.canonical(x)
        }
    }

    /// Rounds half away from zero at `decimals` places, on the number as written: 2.675 is stored
    /// as 2.67499999..., but a reader wrote 2.675 and expects 2.68, so rounding goes through the
    /// shortest decimal text of the Double.
    package static func round(_ x: Double, decimals: Int) -> Double {
        if decimals == 0 || Swift.abs(x) >= NumberText.exactIntegerLimit {
            return x.rounded(.toNearestOrAwayFromZero)
        }
        guard var decimal = Decimal(string: x.description, locale: Locale(identifier: "en_US_POSIX")) else {
            return x
        }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &decimal, decimals, .plain)
        return NSDecimalNumber(decimal: rounded).doubleValue
    }

    private func dated(_ target: Date, context: some TemplateScope, formatters: FormatterCache) -> String {
        switch self {
        case .date(let pattern): return formatters.date(pattern: pattern).string(from: target)
        case .relative: return formatters.relative(target, now: context.now)
        case .until(let unit):
            return NumberText.canonical((target.timeIntervalSince(context.now) / unit).rounded(.up))
        case .since(let unit):
            return NumberText.canonical((context.now.timeIntervalSince(target) / unit).rounded(.up))
        default: return ""
        }
    }

    /// Left-pads with zeros to `width` characters; a leading minus sign stays in front
    /// (`-5` with `pad:3` is `-05`).
    static func zeroPad(_ value: String, width: Int) -> String {
        let count = value.count
        guard count < width else { return value }
        let zeros = String(repeating: "0", count: width - count)
        if value.hasPrefix("-"), NumberText.parse(value) != nil {
            return "-" + zeros + value.dropFirst()
        }
        return zeros + value
    }
}
