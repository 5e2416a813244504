import Foundation

/// Formatters for one locale and time zone, made on first use and reused: creating a
/// `DateFormatter` costs hundreds of microseconds on Linux, using one costs about one.
///
/// Not thread-safe; each `TemplateRenderer` owns one. Holds at most `capacity` formatters (and
/// formatted numbers) of each kind so a template with thousands of distinct `date:` patterns or
/// values cannot grow it without bound.
public final class FormatterCache {
    public let locale: Locale
    public let timeZone: TimeZone
    static let capacity = 32

    private var dateFormatters: [String: DateFormatter] = [:]

    /// Formatted numbers by input. Formatting goes through ICU and allocates about half a dozen
    /// times per call; a widget's values rarely change between renders, so most calls repeat.
    /// The output depends only on the locale (fixed for this cache) and the key.
    private var formattedNumbers: [NumberKey: String] = [:]

    /// Values made from the render clock last asked for (the time keys of `WidgetDataKeys`), by
    /// slot. Every token and template rendered for one timeline entry shares `now`, and the zone
    /// and locale they depend on are this cache's, so only `now` needs checking.
    private var clockNow: Date?
    private var clockValues: [String?] = []

    public init(locale: Locale, timeZone: TimeZone) {
        self.locale = locale
        self.timeZone = timeZone
    }

    func matches(_ context: some TemplateScope) -> Bool {
        context.locale.identifier == locale.identifier && context.timeZone.identifier == timeZone.identifier
    }

    enum NumberKind: Hashable {
        case decimal, percent
        case currency(code: String?)
    }

    private struct NumberKey: Hashable {
        // The bit pattern, not the value: 0 and -0 are equal as Doubles but may print differently.
        var bits: UInt64
        var kind: NumberKind
        var fractionDigits: Int?
    }

    /// The cached value in `slot` for the scope's clock, made by `make` on first use.
    package func clockValue(_ slot: Int, in context: some TemplateScope, make: () -> String) -> String {
        // A caller of the public `BuiltInKeySource` API may pass a cache made for another zone or
        // locale; its cached values would be wrong for this context.
        guard matches(context) else { return make() }
        let now = context.now
        // Compared by bit pattern so a NaN `now` still matches itself instead of recomputing forever.
        if clockNow?.timeIntervalSince1970.bitPattern != now.timeIntervalSince1970.bitPattern {
            clockNow = now
            clockValues.removeAll(keepingCapacity: true)
        }
        if slot < clockValues.count, let cached = clockValues[slot] { return cached }
        let made = make()
        if clockValues.count <= slot { clockValues += repeatElement(nil, count: slot + 1 - clockValues.count) }
        clockValues[slot] = made
        return made
    }

    /// Formats `x` in the cache's locale. `fractionDigits` nil keeps the style's default; ties
    /// round away from zero (2.5 → 3), as a reader expects, not ICU's default half-even.
    ///
    /// Uses Foundation's format styles, not `NumberFormatter`: on Linux, setting a
    /// `NumberFormatter`'s minimum fraction digits makes it ignore the maximum (3.14159 with
    /// 2 decimals prints `3.142`).
    func number(_ x: Double, _ kind: NumberKind, fractionDigits: Int?) -> String {
        let key = NumberKey(bits: x.bitPattern, kind: kind, fractionDigits: fractionDigits)
        if let cached = formattedNumbers[key] { return cached }
        let made = formatNumber(x, kind, fractionDigits: fractionDigits)
        if formattedNumbers.isEmpty { formattedNumbers.reserveCapacity(Self.capacity) }
        store(made, key, in: &formattedNumbers)
        return made
    }

    private func formatNumber(_ x: Double, _ kind: NumberKind, fractionDigits: Int?) -> String {
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
    package func date(pattern: String?) -> DateFormatter {
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

    private func store<K, F>(_ formatter: F, _ key: K, in table: inout [K: F]) {
        if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
        table[key] = formatter
    }
}
