import Foundation
import TemplateLanguage

/// What the widgets ask of a renderer beyond rendering: with its formatter cache, so these agree
/// with `{{…}}` in the same locale and zone.
extension TemplateRenderer {
    /// An event's time range as `__calendar_next_range` says it, in the context's locale and zone.
    public func eventTimeRange(start: Date, end: Date?, in context: RenderContext) -> String {
        CalendarSnapshotProvider.timeRange(start: start, end: end, formatters: cache(for: context))
    }

    /// Every built-in key the context's sources currently resolve, sorted.
    public func builtInEntries(in context: RenderContext) -> [(key: String, value: String)] {
        context.builtIns.entries(in: context, formatters: cache(for: context))
    }
}
