import CivilDates
import Foundation
import Testing

@testable import ICalendar

/// Repeating tasks by RFC 5545's recurrence set: instances step from DTSTART; RDATE adds,
/// EXDATE removes; an edited instance (RECURRENCE-ID) sets its own due or is done; each
/// instance is due at its start plus DUE − DTSTART (or DURATION, §3.8.2.5).
@Suite("iCalendar: repeating tasks")
struct RepeatingTaskTests {
    func tasks(_ body: String, zone: String = "UTC") throws -> TaskReader.Result {
        TaskReader(localZone: TimeZone(identifier: zone)!).tasks(in: try ICalendarDocument.parse(calendar(body)))
    }

    /// Weekly on Mondays, due on Wednesday: the next is due the Wednesday after next Monday.
    @Test func theNextDueCountsFromDTSTART() throws {
        let r = try tasks(
            """
            BEGIN:VTODO
            UID:report
            SUMMARY:Weekly report
            DTSTART;TZID=Europe/Berlin:20260105T090000
            DUE;TZID=Europe/Berlin:20260107T170000
            RRULE:FREQ=WEEKLY;BYDAY=MO
            END:VTODO
            """)
        let t = r.tasks[0]
        #expect(t.due.map(iso) == "2026-01-07T16:00:00Z")
        #expect(t.nextDue == .zoned(CivilTime(year: 2026, month: 1, day: 14, hour: 17), tzid: "Europe/Berlin"))
        #expect(
            t.advance
                == TaskAdvance(
                    start: .zoned(CivilTime(year: 2026, month: 1, day: 12, hour: 9), tzid: "Europe/Berlin"),
                    due: .zoned(CivilTime(year: 2026, month: 1, day: 14, hour: 17), tzid: "Europe/Berlin"),
                    rules: []))
    }

    /// EXDATE removes an instance (its due with it); RDATE adds one; an edited instance sets its
    /// own due, and one completed in its edit is passed over. Edits are not tasks of their own.
    @Test func exdateRdateAndEditedInstances() throws {
        let r = try tasks(
            """
            BEGIN:VTODO
            UID:bins
            SUMMARY:Bins out
            DTSTART;VALUE=DATE:20260105
            DUE;VALUE=DATE:20260106
            RRULE:FREQ=WEEKLY;COUNT=6
            EXDATE;VALUE=DATE:20260112
            RDATE;VALUE=DATE:20260115
            END:VTODO
            BEGIN:VTODO
            UID:bins
            RECURRENCE-ID;VALUE=DATE:20260115
            SUMMARY:Bins out (holiday week)
            DUE;VALUE=DATE:20260117
            STATUS:COMPLETED
            END:VTODO
            BEGIN:VTODO
            UID:bins
            RECURRENCE-ID;VALUE=DATE:20260119
            SUMMARY:Bins out (late)
            DUE;VALUE=DATE:20260121
            END:VTODO
            """)
        #expect(r.tasks.count == 1 && r.taskCount == 3)
        let t = r.tasks[0]
        #expect(t.title == "Bins out" && t.due.map(iso) == "2026-01-06T00:00:00Z")
        // 12th excluded, the 15th (RDATE) done in its edit: next is the 19th's, edited to the 21st.
        #expect(t.nextDue == .date(CivilTime(year: 2026, month: 1, day: 21)))
        // DTSTART and DUE move to the 19th's place (the edit still names it); COUNT: 6 less 2 passed.
        #expect(
            t.advance
                == TaskAdvance(
                    start: .date(CivilTime(year: 2026, month: 1, day: 19)),
                    due: .date(CivilTime(year: 2026, month: 1, day: 20)),
                    rules: [.init(line: 9, value: "FREQ=WEEKLY;COUNT=4")]))
    }

    /// When DTSTART itself is excluded, the task shown is its first instance left.
    @Test func anExcludedFirstInstanceIsPassedOver() throws {
        let t = try tasks(
            """
            BEGIN:VTODO
            UID:water
            DTSTART:20260105T080000Z
            DUE:20260105T100000Z
            RRULE:FREQ=DAILY
            EXDATE:20260105T080000Z,20260107T080000Z
            END:VTODO
            """
        ).tasks[0]
        #expect(t.due.map(iso) == "2026-01-06T10:00:00Z")
        #expect(t.nextDue == .utc(CivilTime(year: 2026, month: 1, day: 8, hour: 10)))
        #expect(t.advance?.start == .utc(CivilTime(year: 2026, month: 1, day: 8, hour: 8)))
    }

    /// DTSTART + DURATION without DUE has a due date (§3.8.2.5); HOURLY rules repeat too; a task
    /// with only DTSTART still repeats (its DTSTART moves on).
    @Test func durationHourlyAndStartOnly() throws {
        let r = try tasks(
            """
            BEGIN:VTODO
            UID:meds
            SUMMARY:Medicine
            DTSTART:20260105T080000Z
            DURATION:PT30M
            RRULE:FREQ=HOURLY;INTERVAL=6
            END:VTODO
            BEGIN:VTODO
            UID:plain
            SUMMARY:Call back
            DTSTART;TZID=Europe/Dublin:20260105T140000
            DURATION:P1DT2H
            END:VTODO
            BEGIN:VTODO
            UID:start-only
            SUMMARY:Stretch
            DTSTART:20260105T070000Z
            RRULE:FREQ=DAILY;INTERVAL=2
            END:VTODO
            """)
        let meds = r.tasks[0]
        #expect(meds.due.map(iso) == "2026-01-05T08:30:00Z" && !meds.dueIsDate)
        #expect(meds.nextDue == .utc(CivilTime(year: 2026, month: 1, day: 5, hour: 14, minute: 30)))
        #expect(meds.advance?.start == .utc(CivilTime(year: 2026, month: 1, day: 5, hour: 14)))
        #expect(meds.advance?.due == nil)  // no DUE property to move
        #expect(r.tasks[1].due.map(iso) == "2026-01-06T16:00:00Z" && r.tasks[1].advance == nil)
        let stretch = r.tasks[2]
        #expect(stretch.due == nil && stretch.nextDue == nil)
        #expect(
            stretch.advance
                == TaskAdvance(start: .utc(CivilTime(year: 2026, month: 1, day: 7, hour: 7)), due: nil, rules: []))
    }

    /// Moving DTSTART to an RDATE that is not one of the rule's instances writes out what the rule
    /// took from the old DTSTART, so the later instances stay where they were.
    @Test func movingOntoAnRdateKeepsTheRule() throws {
        let t = try tasks(
            """
            BEGIN:VTODO
            UID:piano
            DTSTART;VALUE=DATE:20260105
            RRULE:FREQ=WEEKLY;COUNT=3
            RDATE;VALUE=DATE:20260108
            END:VTODO
            """
        ).tasks[0]
        #expect(
            t.advance
                == TaskAdvance(
                    start: .date(CivilTime(year: 2026, month: 1, day: 8)), due: nil,
                    rules: [.init(line: 7, value: "FREQ=WEEKLY;COUNT=3;BYDAY=MO")]))
    }
}
