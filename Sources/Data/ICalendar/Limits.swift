import SizeLimits

/// Bounds on everything an untrusted calendar file can make the parser or the expander do.
public struct ICalendarLimits: Sendable, Equatable {
    /// Bytes of the whole file.
    public var maxFileBytes = SizeLimit.dataSourceFile.bytes
    /// Bytes of one unfolded content line. Longer properties (inline attachments, say) are
    /// skipped with a warning; the rest of the file still counts.
    public var maxLineBytes = 256 << 10
    /// BEGIN/END nesting (VCALENDAR > VEVENT > VALARM is 3; VTIMEZONE > STANDARD is 3).
    public var maxDepth = 8
    /// Components in the file.
    public var maxComponents = 200_000
    /// Properties in one component.
    public var maxPropertiesPerComponent = 2_000
    /// Periods (days, weeks, months, years) one recurrence rule may step through.
    public var maxPeriodsPerRule = 200_000
    /// Occurrences one event may produce inside the window.
    public var maxOccurrencesPerEvent = 5_000
    /// Periods all rules of one file may step through together.
    public var maxPeriodsPerFile = 2_000_000
    /// Values in one EXDATE/RDATE list, BYDAY list and so on.
    public var maxListValues = 1_000

    public init() {}
}
