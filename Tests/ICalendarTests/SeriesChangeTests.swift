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
        // The first edit's overrides: the 09:00 instance of `day` moved to `time` that day.
        func moved(_ day: String, to time: String, _ summary: String) -> String {
            """
            BEGIN:VEVENT
            UID:standup
            SEQUENCE:1
            RECURRENCE-ID;TZID=\(tzid):\(day)T090000
            DTSTART;TZID=\(tzid):\(day)T\(time)
            DURATION:PT15M
            SUMMARY:\(summary)
            END:VEVENT
            """
        }
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
            \(moved("20260107", to: "113000", "Moved, then excluded"))
            \(moved("20260111", to: "100000", "Moved, then past UNTIL"))
            \(moved("20260112", to: "100000", "Moved RDATE instance"))
            \(moved("20260108", to: "100000", "Moved and still there"))
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

    /// RFC 7529: a rule in another calendar scale (or with a part this reader does not know) is
    /// not stepped as if it were Gregorian: its first occurrence is shown, with a warning.
    @Test func unknownScalesAndPartsShowTheFirstOccurrenceOnly() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:new-year
            DTSTART;VALUE=DATE:20260217
            RRULE:RSCALE=CHINESE;FREQ=YEARLY
            SUMMARY:Chinese New Year
            END:VEVENT
            BEGIN:VEVENT
            UID:odd-part
            DTSTART:20260105T090000Z
            RRULE:FREQ=WEEKLY;COUNT=3;BYEASTER=1
            SUMMARY:Unknown part
            END:VEVENT
            BEGIN:VEVENT
            UID:month-end
            DTSTART:20260131T090000Z
            RRULE:RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD;COUNT=4
            SUMMARY:Month end
            END:VEVENT
            BEGIN:VEVENT
            UID:leap
            DTSTART;VALUE=DATE:20240229
            RRULE:RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD;COUNT=3
            SUMMARY:Leap day
            END:VEVENT
            """)
        let r = try expand(data, from: "2024-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z")
        func days(_ title: String) -> [String] {
            r.occurrences.filter { $0.title == title }.map { String(iso($0.start).prefix(10)) }
        }
        #expect(days("Chinese New Year") == ["2026-02-17"])
        #expect(days("Unknown part") == ["2026-01-05"])
        #expect(days("Month end") == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        #expect(days("Leap day") == ["2024-02-29", "2025-03-01", "2026-03-01"])
        let messages = r.warnings.map(\.description)
        #expect(
            messages.contains(
                """
                line 7: RRULE RSCALE=CHINESE is not supported (RFC 7529; GREGORIAN is); only the first \
                occurrence is shown
                """))
        #expect(
            messages.contains(
                "line 13: RRULE part BYEASTER is not one this reader knows; only the first occurrence is shown"))
        #expect(messages.count == 2, "\(messages)")

        // A task with such a rule is read as not repeating, with the same reason.
        let tasks = TaskReader(localZone: TimeZone(identifier: "UTC")!).tasks(
            in: try ICalendarDocument.parse(
                calendar("BEGIN:VTODO\nUID:t\nDUE:20260217T090000Z\nRRULE:RSCALE=CHINESE;FREQ=YEARLY\nEND:VTODO")))
        #expect(tasks.tasks[0].recurrence == nil && tasks.tasks[0].nextDue == nil)
        #expect(
            tasks.warnings.map(\.message) == [
                "RRULE RSCALE=CHINESE is not supported (RFC 7529; GREGORIAN is); the task is read as not repeating"
            ])
    }
}
