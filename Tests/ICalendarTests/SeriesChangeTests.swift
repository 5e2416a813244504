import Foundation
import Testing

@testable import ICalendar

/// What a series says about its own instances after it was changed: overrides it no longer has,
/// rules this reader cannot follow.
@Suite("iCalendar: changed series and rules it cannot follow")
struct SeriesChangeTests {
    /// A daily series was edited twice: one instance moved (SEQUENCE 1), then the series was
    /// shortened and that day and another excluded (SEQUENCE 2). Google keeps the old overrides
    /// in its export; they name instances the series no longer has (RFC 5545 §3.8.4.4, §3.8.5.1).
    @Test(arguments: ["Europe/Berlin", "UTC"])
    func overridesTheSeriesDroppedAreNotShown(tzid: String) throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:standup
            SEQUENCE:2
            DTSTART;TZID=\(tzid):20260105T090000
            DURATION:PT15M
            RRULE:FREQ=DAILY;UNTIL=20260109T235959Z
            EXDATE;TZID=\(tzid):20260107T090000
            RDATE;TZID=\(tzid):20260112T090000
            SUMMARY:Stand-up
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            SEQUENCE:1
            RECURRENCE-ID;TZID=\(tzid):20260107T090000
            DTSTART;TZID=\(tzid):20260107T113000
            DURATION:PT15M
            SUMMARY:Moved, then excluded
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            SEQUENCE:1
            RECURRENCE-ID;TZID=\(tzid):20260111T090000
            DTSTART;TZID=\(tzid):20260111T100000
            DURATION:PT15M
            SUMMARY:Moved, then past UNTIL
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            SEQUENCE:1
            RECURRENCE-ID;TZID=\(tzid):20260112T090000
            DTSTART;TZID=\(tzid):20260112T100000
            DURATION:PT15M
            SUMMARY:Moved RDATE instance
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            SEQUENCE:1
            RECURRENCE-ID;TZID=\(tzid):20260108T090000
            DTSTART;TZID=\(tzid):20260108T100000
            DURATION:PT15M
            SUMMARY:Moved and still there
            END:VEVENT
            """)
        let r = try expand(data, zone: "UTC", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            r.occurrences.map(\.title) == [
                "Stand-up", "Stand-up", "Moved and still there", "Stand-up", "Moved RDATE instance",
            ])
    }

    /// An all-day series whose EXDATE names a day an override moved (Outlook writes DATE values).
    @Test func allDayOverrideOfAnExcludedDay() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:bins
            DTSTART;VALUE=DATE:20260105
            RRULE:FREQ=WEEKLY;COUNT=4
            EXDATE;VALUE=DATE:20260112
            SUMMARY:Bins
            END:VEVENT
            BEGIN:VEVENT
            UID:bins
            RECURRENCE-ID;VALUE=DATE:20260112
            DTSTART;VALUE=DATE:20260113
            SUMMARY:Bins (Tuesday)
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(r.occurrences.map { $0.startDay ?? "" } == ["2026-01-05", "2026-01-19", "2026-01-26"])
    }
}
