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

    private var dateFormatters: [String: DateFormatter] = [:]

    public init(locale: Locale, timeZone: TimeZone) {
        self.locale = locale
        self.timeZone = timeZone
    }

    func matches(_ context: RenderContext) -> Bool {
        context.locale.identifier == locale.identifier && context.timeZone.identifier == timeZone.identifier
    }

    enum NumberKind {
        case decimal, percent, currency(code: String?)
    }

    /// Formats `x` in the cache's locale. `fractionDigits` nil keeps the style's default; ties
    /// round away from zero (2.5 → 3), as a reader expects, not ICU's default half-even.
    ///
    /// Uses Foundation's format styles, not `NumberFormatter`: on Linux, setting a
    /// `NumberFormatter`'s minimum fraction digits makes it ignore the maximum (3.14159 with
    /// 2 decimals prints `3.142`).
    func number(_ x: Double, _ kind: NumberKind, fractionDigits: Int?) -> String {
        let precision: NumberFormatStyleConfiguration.Precision? = fractionDigits.map { .fractionLength($0) }
        switch kind {
        case .decimal:
            var style = FloatingPointFormatStyle<Double>(locale: locale).rounded(rule: .toNearestOrAwayFromZero)
            if let precision { style = style.precision(precision) }
            return style.format(x)
        case .percent:
            var style = FloatingPointFormatStyle<Double>.Percent(locale: locale).rounded(rule: .toNearestOrAwayFromZero)
            if let precision { style = style.precision(precision) }
            return style.format(x)
        case .currency(let code):
            let currency = code ?? locale.currency?.identifier ?? "USD"
            return FloatingPointFormatStyle<Double>.Currency(code: currency, locale: locale)
                .rounded(rule: .toNearestOrAwayFromZero).format(x)
        }
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
