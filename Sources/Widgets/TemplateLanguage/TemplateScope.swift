import Foundation

/// What a template is rendered against: the render clock, time zone and locale (filters and maths
/// read nothing else of the world) and the values of its keys. The language owns no keys: the
/// widgets' scope, with the built-in `__` keys and the custom variables, is `WidgetDataKeys`'
/// `RenderContext`.
public protocol TemplateScope {
    /// The render clock ("now").
    var now: Date { get }
    var timeZone: TimeZone { get }
    var locale: Locale { get }
    /// The value of canonical `key` (see `KeyCanonicaliser`), or nil when missing. `formatters`
    /// is the renderer's cache for this scope's locale and zone.
    func value(forKey key: String, formatters: FormatterCache) -> String?
}
