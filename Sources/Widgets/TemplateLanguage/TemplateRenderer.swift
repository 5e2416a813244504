import Foundation

/// Renders templates against a `TemplateScope` (for widgets, `WidgetDataKeys`' `RenderContext`,
/// which says what `{{key}}` resolves to).
///
/// A missing or empty value uses the fallback; with no fallback the token renders as `""` and its
/// filters do not run (so `prefix:`/`suffix:` never decorate nothing).
///
/// Maths identifiers (`steps_today`) map underscores to spaces and look up that custom variable;
/// when there is none, they read the built-in `__steps_today`, so built-ins are reachable without
/// their prefix. `__`-prefixed identifiers read built-ins directly. Constants `pi` and `e` win over
/// variables of those names. A failed expression (syntax, division by zero, overflow, NaN, depth)
/// uses the fallback.
///
/// Output is capped at `maximumOutputBytes`; tokens beyond the cap are dropped.
///
/// Not thread-safe (it caches formatters); use one renderer per thread.
public final class TemplateRenderer {
    public static let maximumOutputBytes = 1 << 20
    static let estimatedValueBytes = 12

    private var formatters: FormatterCache?

    public init() {}

    /// Parses and renders `source`.
    public func render(_ source: String, in context: some TemplateScope) -> String {
        render(Template(source), in: context)
    }

    public func render(_ template: Template, in context: some TemplateScope) -> String {
        let formatters = cache(for: context)
        var output = ""
        // One allocation instead of one per doubling: the literals plus a guess for each value.
        var estimate = 0
        for part in template.parts {
            switch part {
            case .literal(let literal): estimate += literal.utf8.count
            case .token: estimate += Self.estimatedValueBytes
            }
        }
        output.reserveCapacity(Swift.min(estimate, Self.maximumOutputBytes))
        var outputBytes = 0
        for part in template.parts {
            let text: String
            switch part {
            case .literal(let literal): text = literal
            case .token(let token): text = render(token, context: context, formatters: formatters)
            }
            let bytes = text.utf8.count
            guard outputBytes + bytes <= Self.maximumOutputBytes else { break }
            output += text
            outputBytes += bytes
        }
        return output
    }

    /// The value of one canonical key as `{{key}}` sees it, or nil when missing.
    public func value(forKey canonicalKey: String, in context: some TemplateScope) -> String? {
        context.value(forKey: canonicalKey, formatters: cache(for: context))
    }

    /// This renderer's formatter cache for the scope's locale and zone (made anew when they change).
    package func cache(for context: some TemplateScope) -> FormatterCache {
        if let formatters, formatters.matches(context) { return formatters }
        let made = FormatterCache(locale: context.locale, timeZone: context.timeZone)
        formatters = made
        return made
    }

    func render(_ token: Template.Token, context: some TemplateScope, formatters: FormatterCache) -> String {
        var value: String?
        switch token.base {
        case .key(let key):
            value = context.value(forKey: key, formatters: formatters)
        case .maths(let expression):
            // The evaluator is specialised for this closure and passes its captures down every
            // level of the recursive descent; a captured scope (a `RenderContext`) would be copied
            // (five reference counts) at each level. A pointer to it costs nothing to pass.
            value = withUnsafePointer(to: context) { context in
                try? NumberText.canonical(
                    MathExpression.evaluate(expression, now: context.pointee.now) { reference in
                        Self.mathsLookup(reference, context: context.pointee, formatters: formatters)
                    })
            }
        }
        if value?.isEmpty ?? true { value = token.fallback }
        guard var result = value, !result.isEmpty else { return "" }
        for filter in token.filters {
            result = filter.apply(to: result, context: context, formatters: formatters)
        }
        return result
    }

    static func mathsLookup(
        _ reference: MathExpression.Reference, context: some TemplateScope,
        formatters: FormatterCache
    ) -> String? {
        switch reference {
        case .quoted(let text):
            return context.value(forKey: KeyCanonicaliser.canonical(text), formatters: formatters)
        case .identifier(let name):
            let key = KeyCanonicaliser.canonical(name)
            if let value = context.value(forKey: key, formatters: formatters) { return value }
            if KeyCanonicaliser.isBuiltIn(key) { return nil }
            return context.value(forKey: KeyCanonicaliser.builtInPrefix + name.lowercased(), formatters: formatters)
        }
    }
}
