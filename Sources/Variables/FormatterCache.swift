import Foundation

/// Formatters for one locale and time zone, made on first use and reused: creating a
/// `DateFormatter` costs hundreds of microseconds on Linux, using one costs about one.
///
/// Not thread-safe; each `TemplateRenderer` owns one. Holds at most `capacity` formatters of each
/// kind so a template with thousands of distinct `date:` patterns cannot grow it without bound.
public final class FormatterCache {
    public let locale: Locale
    public let timeZone: TimeZone
    static let capacity = 32

    private var numberFormatters: [String: NumberFormatter] = [:]
    private var dateFormatters: [String: DateFormatter] = [:]

    public init(locale: Locale, timeZone: TimeZone) {
        self.locale = locale
        self.timeZone = timeZone
    }

    func matches(_ context: RenderContext) -> Bool {
        context.locale.identifier == locale.identifier && context.timeZone.identifier == timeZone.identifier
    }

    enum NumberKind: String {
        case decimal = "n", percent = "p", currency = "c"
    }

    /// `fractionDigits` nil keeps the style's default; ties round away from zero (2.5 → 3), as a
    /// reader expects, not ICU's default half-even.
    func number(_ kind: NumberKind, fractionDigits: Int?, currencyCode: String? = nil) -> NumberFormatter {
        let key = "\(kind.rawValue)\(fractionDigits.map(String.init) ?? "")\(currencyCode ?? "")"
        if let cached = numberFormatters[key] { return cached }
        let f = NumberFormatter()
        f.locale = locale
        switch kind {
        case .decimal: f.numberStyle = .decimal
        case .percent: f.numberStyle = .percent
        case .currency: f.numberStyle = .currency
        }
        if let currencyCode { f.currencyCode = currencyCode }
        if let fractionDigits {
            f.minimumFractionDigits = fractionDigits
            f.maximumFractionDigits = fractionDigits
        }
        f.roundingMode = .halfUp
        store(f, key, in: &numberFormatters)
        return f
    }

    /// A formatter for a `DateFormatter` pattern, or the medium date style when `pattern` is nil.
    func date(pattern: String?) -> DateFormatter {
        let key = pattern ?? "\u{0}medium"
        if let cached = dateFormatters[key] { return cached }
        let f = DateFormatter()
        f.locale = locale
        f.timeZone = timeZone
        if let pattern {
            f.dateFormat = pattern
        } else {
            f.dateStyle = .medium
            f.timeStyle = .none
        }
        store(f, key, in: &dateFormatters)
        return f
    }

    /// "2 hours ago", "tomorrow", "in 3 days", in the cache's locale.
    ///
    /// `AnchoredRelativeFormatStyle` formats its anchor relative to its input, so the target is
    /// the anchor and the render clock is the input. It never reads the real clock.
    func relative(_ target: Date, now: Date) -> String {
        var style = Date.AnchoredRelativeFormatStyle(anchor: target, presentation: .named, unitsStyle: .wide)
        style.locale = locale
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        style.calendar = calendar
        return style.format(now)
    }

    private func store<F>(_ formatter: F, _ key: String, in table: inout [String: F]) {
        if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
        table[key] = formatter
    }
}
