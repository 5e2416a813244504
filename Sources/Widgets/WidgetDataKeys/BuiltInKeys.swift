import Foundation
import SharedStore
import TemplateLanguage

/// A source of built-in (`__`) keys: the clock, the noise player's status, a snapshot file.
///
/// Every implementation guarantees:
/// - `value(forKey:)` returns nil for keys it does not own, cheaply (a prefix or switch check),
///   because the renderer asks each source in turn.
/// - It reads no clock, time zone or locale except those in the context.
/// - It does no I/O while rendering: files are read once, when the source is made.
/// - A key it cannot currently back with data is absent (nil), never a made-up value.
public protocol BuiltInKeySource: Sendable {
    /// The value of the canonical built-in `key`, or nil when absent or not owned.
    func value(forKey key: String, in context: RenderContext, formatters: FormatterCache) -> String?
    /// Every key this source currently resolves, with its value, for the keys browser.
    func entries(in context: RenderContext, formatters: FormatterCache) -> [(key: String, value: String)]
}

/// The built-in key sources of one render, asked in order.
public struct BuiltInKeys: Sendable {
    public var sources: [any BuiltInKeySource]

    public init(sources: [any BuiltInKeySource]) { self.sources = sources }

    /// Just the time keys, which are always available.
    public static let timeOnly = BuiltInKeys(sources: [TimeProvider()])

    /// The time keys plus whatever the store currently publishes: the noise player's status and
    /// the weather, steps, activity, calendar and reminders snapshots. Missing or unreadable files contribute no keys;
    /// `warn` hears fields of a snapshot that are there but unusable.
    public static func load(from root: StoreRoot, warn: (String) -> Void = { _ in }) -> BuiltInKeys {
        var sources: [any BuiltInKeySource] = [TimeProvider()]
        if let noise = NoiseStatusProvider.load(from: root.status) { sources.append(noise) }
        if let weather = WeatherSnapshotProvider.load(from: root) { sources.append(weather) }
        if let steps = StepsSnapshotProvider.load(from: root, warn: warn) { sources.append(steps) }
        if let activity = ActivitySnapshotProvider.load(from: root) { sources.append(activity) }
        if let calendar = CalendarSnapshotProvider.load(from: root) { sources.append(calendar) }
        if let reminders = RemindersSnapshotProvider.load(from: root) { sources.append(reminders) }
        return BuiltInKeys(sources: sources)
    }

    func value(forKey key: String, in context: RenderContext, formatters: FormatterCache) -> String? {
        for source in sources {
            if let value = source.value(forKey: key, in: context, formatters: formatters) { return value }
        }
        return nil
    }

    /// All current built-in keys and values, sorted by key; an earlier source wins a duplicate.
    public func entries(in context: RenderContext, formatters: FormatterCache) -> [(key: String, value: String)] {
        var seen: [String: String] = [:]
        for source in sources {
            for (key, value) in source.entries(in: context, formatters: formatters) where seen[key] == nil {
                seen[key] = value
            }
        }
        return seen.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }
}

/// Sources whose keys are cheapest computed all at once (snapshots): `value(forKey:)` filters
/// on the prefix, then looks the key up in `entries`.
protocol DictionaryKeySource: BuiltInKeySource {
    var prefix: String { get }
    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String]
}

extension DictionaryKeySource {
    public func value(forKey key: String, in context: RenderContext, formatters: FormatterCache) -> String? {
        guard key.hasPrefix(prefix) else { return nil }
        return values(in: context, formatters: formatters)[key]
    }

    public func entries(in context: RenderContext, formatters: FormatterCache) -> [(key: String, value: String)] {
        values(in: context, formatters: formatters).map { (key: $0.key, value: $0.value) }
    }
}
