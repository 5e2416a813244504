import Foundation
import TemplateLanguage

/// Everything one render depends on. Nothing in the engine reads the real clock, the system time
/// zone or the system locale: they all come from here, so a render is reproducible.
///
/// As a template's scope, `{{key}}` resolves so:
/// - a built-in key (`__` prefix) comes only from the built-in sources: built-ins override any
///   custom variable of the same name, keeping the widget truthful;
/// - any other key is a custom variable and resolves only when `isPro`.
public struct RenderContext: TemplateScope, Sendable {
    /// The render clock ("now"): the timeline entry date in the seed app, `--now` in the CLI.
    public var now: Date
    public var timeZone: TimeZone
    public var locale: Locale
    /// Custom variables resolve only when Pro is unlocked.
    public var isPro: Bool
    /// Custom (stored and ad hoc) variables under canonical keys; see `KeyCanonicaliser`.
    public var customVariables: [String: String]
    /// Sources of `__` keys, asked in order.
    public var builtIns: BuiltInKeys
    /// How `{{__time}}` is written (a design's `clock.format`): 24-hour `HH:mm` by default.
    public var timeFormat = TimeTextFormat()

    public init(
        now: Date, timeZone: TimeZone, locale: Locale, isPro: Bool = false,
        customVariables: [String: String] = [:], builtIns: BuiltInKeys = .timeOnly
    ) {
        self.now = now
        self.timeZone = timeZone
        self.locale = locale
        self.isPro = isPro
        self.customVariables = customVariables
        self.builtIns = builtIns
    }

    public func value(forKey key: String, formatters: FormatterCache) -> String? {
        if KeyCanonicaliser.isBuiltIn(key) { return builtIns.value(forKey: key, in: self, formatters: formatters) }
        guard isPro, !key.isEmpty else { return nil }
        return customVariables[key]
    }

    /// Adds custom variables, canonicalising their keys; later values replace earlier ones.
    /// Keys that canonicalise to a built-in (`__` prefix) or to nothing are skipped: built-ins
    /// always win, so such a custom variable could never be read.
    public mutating func addCustomVariables<S: Sequence>(_ pairs: S) where S.Element == (String, String) {
        for (key, value) in pairs {
            let canonical = KeyCanonicaliser.canonical(key)
            guard !canonical.isEmpty, !KeyCanonicaliser.isBuiltIn(canonical) else { continue }
            customVariables[canonical] = value
        }
    }
}

/// How digital times are written: 24- or 12-hour, with or without seconds.
public struct TimeTextFormat: Sendable, Hashable {
    public var twelveHour: Bool
    public var seconds: Bool
    public init(twelveHour: Bool = false, seconds: Bool = false) {
        self.twelveHour = twelveHour
        self.seconds = seconds
    }
}
