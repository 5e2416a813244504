import CivilDates
import Foundation
import Testing

@testable import ICalendar

/// Task lists as Thunderbird, Evolution and Nextcloud Tasks export them (hand-made in their
/// shapes: the PRODIDs, the VTIMEZONE Thunderbird writes, Evolution's DATE dues and repeating
/// tasks, Nextcloud's completed ones with categories).
enum TaskExports {
    static let thunderbird = """
        BEGIN:VCALENDAR\r
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
        VERSION:2.0\r
        X-WR-CALNAME:Home\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Dublin\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:+0000\r
        TZOFFSETTO:+0000\r
        TZNAME:GMT\r
        DTSTART:19701025T020000\r
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        TZOFFSETFROM:+0000\r
        TZOFFSETTO:+0100\r
        TZNAME:IST\r
        DTSTART:19700329T010000\r
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r
        BEGIN:VTODO\r
        CREATED:20260110T101010Z\r
        LAST-MODIFIED:20260110T101200Z\r
        DTSTAMP:20260110T101200Z\r
        UID:0b3c5d7e-1f2a-4b6c-8d9e-0a1b2c3d4e5f\r
        SUMMARY:Renew passport\r
        PRIORITY:1\r
        STATUS:NEEDS-ACTION\r
        DTSTART;TZID=Europe/Dublin:20260720T090000\r
        DUE;TZID=Europe/Dublin:20260724T170000\r
        PERCENT-COMPLETE:0\r
        CATEGORIES:Personal\r
        X-MOZ-GENERATION:2\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;VALUE=DURATION;RELATED=END:-PT15M\r
        DESCRIPTION:Default Mozilla Description\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTODO\r
        CREATED:20260111T080000Z\r
        DTSTAMP:20260118T080000Z\r
        UID:5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9\r
        SUMMARY:Return library books\r
        STATUS:COMPLETED\r
        COMPLETED:20260118T080000Z\r
        PERCENT-COMPLETE:100\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    static let evolution = """
        BEGIN:VCALENDAR\r
        CALSCALE:GREGORIAN\r
        PRODID:-//Ximian//NONSGML Evolution Calendar//EN\r
        VERSION:2.0\r
        X-EVOLUTION-DATA-REVISION:2026-01-15T09:30:00.123456Z(3)\r
        BEGIN:VTODO\r
        UID:20260115T093000Z-4821-1000-1-0@laptop\r
        DTSTAMP:20260115T093000Z\r
        SUMMARY:Pay the electricity bill\r
        DUE;VALUE=DATE:20260123\r
        CLASS:PUBLIC\r
        PRIORITY:5\r
        CREATED:20260115T093000Z\r
        LAST-MODIFIED:20260115T093000Z\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:20260115T093100Z-4821-1000-2-0@laptop\r
        DTSTAMP:20260115T093100Z\r
        SUMMARY:Water the plants\\, all of them\r
        DTSTART;VALUE=DATE:20260117\r
        DUE;VALUE=DATE:20260124\r
        RRULE:FREQ=WEEKLY;BYDAY=SA\r
        PRIORITY:0\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    static let nextcloud = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Nextcloud Tasks v0.16.1\r
        X-WR-CALNAME:Groceries\r
        BEGIN:VTODO\r
        UID:b7d3c6a0-61f4-4c29-9f0c-6d2e2f1a4e11\r
        CREATED:20260120T120000Z\r
        DTSTAMP:20260123T181500Z\r
        LAST-MODIFIED:20260123T181500Z\r
        SUMMARY:Oat milk\r
        PRIORITY:9\r
        STATUS:COMPLETED\r
        COMPLETED:20260123T181500Z\r
        PERCENT-COMPLETE:100\r
        CATEGORIES:Shop,Weekly\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:e0c1d2b3-a4f5-4e6d-8c7b-9a0f1e2d3c4b\r
        CREATED:20260120T120100Z\r
        DTSTAMP:20260120T120100Z\r
        SUMMARY:Coffee beans\r
        DUE:20260124T160000Z\r
        PRIORITY:3\r
        STATUS:IN-PROCESS\r
        PERCENT-COMPLETE:40\r
        CATEGORIES:Shop\r
        CATEGORIES:Treats\\,small\r
        END:VTODO\r
        END:VCALENDAR\r

        """
}

@Suite("iCalendar tasks (VTODO)")
struct TaskTests {
    func read(_ text: String, zone: String = "Europe/Dublin", limits: ICalendarLimits = ICalendarLimits()) throws
        -> TaskReader.Result
    {
        let doc = try ICalendarDocument.parse(Data(text.utf8), limits: limits)
        return TaskReader(limits: limits, localZone: TimeZone(identifier: zone)!).tasks(in: doc)
    }

    @Test func thunderbirdTasksWithTheirZoneAndAlarm() throws {
        let r = try read(TaskExports.thunderbird)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        #expect(r.tasks.count == 2 && r.taskCount == 2)
        let passport = r.tasks[0]
        #expect(passport.title == "Renew passport" && passport.list == "Home" && passport.priority == 1)
        // 17:00 Irish Summer Time is 16:00 UTC (the file's own VTIMEZONE).
        #expect(passport.due.map(iso) == "2026-07-24T16:00:00Z" && !passport.dueIsDate)
        #expect(passport.status == "NEEDS-ACTION" && passport.percentComplete == 0 && !passport.isCompleted)
        #expect(passport.categories == ["Personal"] && passport.line == 22)
        let books = r.tasks[1]
        #expect(books.isCompleted && books.completedAt.map(iso) == "2026-01-18T08:00:00Z" && books.due == nil)
    }

    @Test func evolutionDateDuesAndARepeatingTask() throws {
        let r = try read(TaskExports.evolution, zone: "America/New_York")
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let bill = r.tasks[0]
        // A DATE due is the user's local midnight (New York here), and says it has no time.
        #expect(bill.dueIsDate && bill.due.map(iso) == "2026-01-23T05:00:00Z" && bill.priority == 5 && bill.list == nil)
        let plants = r.tasks[1]
        #expect(plants.title == "Water the plants, all of them" && plants.priority == 0)
        #expect(
            plants.recurrence == "FREQ=WEEKLY;BYDAY=SA"
                && plants.nextDue == .date(CivilTime(year: 2026, month: 1, day: 31)))
    }

    @Test func nextcloudCompletedTasksAndCategories() throws {
        let r = try read(TaskExports.nextcloud)
        #expect(r.warnings.isEmpty)
        #expect(r.tasks.map(\.list) == ["Groceries", "Groceries"])
        let milk = r.tasks[0]
        #expect(milk.isCompleted && milk.status == "COMPLETED" && milk.percentComplete == 100 && milk.priority == 9)
        #expect(milk.categories == ["Shop", "Weekly"])
        let coffee = r.tasks[1]
        #expect(!coffee.isCompleted && coffee.status == "IN-PROCESS" && coffee.percentComplete == 40)
        #expect(coffee.due.map(iso) == "2026-01-24T16:00:00Z")
        // Every CATEGORIES line counts; an escaped comma stays inside its name.
        #expect(coffee.categories == ["Shop", "Treats,small"])
    }

    /// Bad values are said with their line and left out; the task still counts.
    @Test func badValuesAreWarnedAboutAndTheTaskKept() throws {
        let data = calendar(
            """
            BEGIN:VTODO
            UID:odd
            SUMMARY:Odd one
            DUE:next tuesday
            PRIORITY:11
            STATUS:MAYBE
            PERCENT-COMPLETE:250
            COMPLETED:yesterday
            RRULE:FREQ=SECONDLY
            DUE;TZID=Mars/Olympus:20260124T100000
            END:VTODO
            BEGIN:VTODO
            UID:zoneless
            DUE;TZID=Mars/Olympus:20260124T100000
            SUMMARY:Unknown zone
            END:VTODO
            """)
        let doc = try ICalendarDocument.parse(data)
        let r = TaskReader(localZone: TimeZone(identifier: "UTC")!).tasks(in: doc)
        let t = r.tasks[0]
        #expect(t.title == "Odd one" && t.due == nil && t.priority == 0 && t.status == nil && t.percentComplete == nil)
        #expect(t.completedAt == nil && t.recurrence == nil && !t.isCompleted)
        let messages = r.warnings.map(\.description)
        #expect(messages.contains("line 7: DUE 'next tuesday' is not a date or date-time; the task has no due date"))
        #expect(messages.contains("line 8: PRIORITY '11' is outside 0…9; ignored"))
        #expect(messages.contains { $0.hasPrefix("line 9: STATUS 'MAYBE' is not a task status") })
        #expect(messages.contains("line 10: PERCENT-COMPLETE '250' is outside 0…100; ignored"))
        #expect(messages.contains { $0.hasPrefix("line 12: RRULE FREQ=SECONDLY is not supported") })
        #expect(messages.contains("line 17: unknown time zone 'Mars/Olympus'; read as local time"))
        #expect(r.tasks[1].due.map(iso) == "2026-01-24T10:00:00Z")
    }

    /// Hostile files are bounded as calendars are: size, nesting, components, line length, and
    /// a truncated task is not half-read.
    @Test func hostileTaskFilesAreBounded() throws {
        var small = ICalendarLimits()
        small.maxFileBytes = 4_096
        let big = calendar(String(repeating: "BEGIN:VTODO\nSUMMARY:x\nEND:VTODO\n", count: 200))
        #expect(throws: ICalendarError.self) { _ = try ICalendarDocument.parse(big, limits: small) }

        var few = ICalendarLimits()
        few.maxComponents = 50
        let many = calendar(String(repeating: "BEGIN:VTODO\nSUMMARY:x\nEND:VTODO\n", count: 60))
        #expect(throws: ICalendarError.self) { _ = try ICalendarDocument.parse(many, limits: few) }

        let deep = calendar(String(repeating: "BEGIN:VTODO\n", count: 20) + String(repeating: "END:VTODO\n", count: 20))
        #expect(throws: ICalendarError.self) { _ = try ICalendarDocument.parse(deep) }

        var short = ICalendarLimits()
        short.maxLineBytes = 1_024
        let long = calendar(
            "BEGIN:VTODO\nUID:long\nSUMMARY:\(String(repeating: "a", count: 5_000))\nDUE:20260124T100000Z\nEND:VTODO")
        let r = try read(String(decoding: long, as: UTF8.self), limits: short)
        #expect(r.tasks.count == 1 && r.tasks[0].title.isEmpty && r.tasks[0].due != nil)
        #expect(r.warnings.contains { $0.message.contains("longer than 1024 bytes") })

        // The download stopped inside the second task: the first is kept, the second is not read.
        let cut =
            """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Whole\r\nEND:VTODO\r\nBEGIN:VTODO\r\n\
            UID:b\r\nSUMMARY:Half
            """
        let t = try read(cut)
        #expect(t.tasks.map(\.title) == ["Whole"])
        #expect(t.warnings.contains { $0.message.contains("never closed") })

        // A rule that would step for ever stops at the budget: the next due is simply not found.
        var tight = ICalendarLimits()
        tight.maxPeriodsPerRule = 3
        let sparse = calendar(
            "BEGIN:VTODO\nUID:leap\nDUE;VALUE=DATE:20240229\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29\nEND:VTODO")
        let l = try read(String(decoding: sparse, as: UTF8.self), limits: tight)
        #expect(l.tasks[0].recurrence != nil && l.tasks[0].nextDue == nil)
    }
}
