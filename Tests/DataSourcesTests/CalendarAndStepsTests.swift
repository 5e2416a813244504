import Foundation
import SharedStore
import Synchronization
import TestSupport
import Testing

@testable import DataSources
@testable import WidgetDataKeys

@Suite("Calendars → snapshots/calendar.json → __calendar_* keys")
struct CalendarServiceTests {
    /// Saturday 24 January 2026, 09:30 UTC.
    let now = Fixtures.fetchTime

    @Test func fileAndWebCalendarsMakeTheNextUpSnapshot() throws {
        let root = try Fixtures.store()
        let folder = try Products.temporaryDirectory("ics")
        let file = folder.appendingPathComponent("work.ics")
        try Data(DataFixtures.workCalendar.utf8).write(to: file)
        let online = Mutex(true)
        let server = try LocalHTTPServer { request in
            guard online.withLock({ $0 }) else { return .json("down", status: 503) }
            return LocalHTTPServer.Response(
                contentType: "text/calendar",
                body: Data(
                    """
                    BEGIN:VCALENDAR\r
                    VERSION:2.0\r
                    BEGIN:VEVENT\r
                    UID:dentist\r
                    DTSTART;TZID=America/New_York:20260124T080000\r
                    DTEND;TZID=America/New_York:20260124T083000\r
                    SUMMARY:Dentist\r
                    END:VEVENT\r
                    END:VCALENDAR\r

                    """.utf8))
        }
        defer { server.stop() }
        let client = HTTPClient()
        var service = CalendarService(root: root, client: client)
        service.policy.retryDelaysSeconds = [0.01]
        let added = try service.add(file.path, name: nil, now: now)
        #expect(added.0.name == "Work" && added.0.id == "work" && added.eventCount == 3)
        let web = try service.add("\(server.baseURL)/family.ics", name: "Family", now: now)
        #expect(web.0.id == "family" && web.eventCount == 1)
        #expect(throws: DataSourceError.self) { _ = try service.add(file.path, name: nil, now: now) }

        let report = try service.refresh(now: now, timeZone: TimeZone(identifier: "Europe/Dublin")!)
        let s = report.snapshot
        #expect(s.lastError == nil && s.calendars.map(\.ok) == [true, true])
        // Dentist 08:00 New York is 13:00 UTC; the stand-up resumes on Monday.
        let (next, second) = s.nextTwo(at: now)
        #expect(next?.title == "Dentist" && next?.calendar == "Family")
        #expect(next?.start == Date(timeIntervalSince1970: 1_769_259_600))
        #expect(second?.title == "Stand-up" && second?.location == "Room 2")
        #expect(s.access == "authorized")
        #expect(s.events.contains { $0.isAllDay && $0.title == "Team day" && $0.startDay == "2026-01-26" })

        // The keys pick again at the render clock: at 14:00 the dentist is over.
        #expect(
            Fixtures.render(
                """
                {{__calendar_next_header}}: {{__calendar_next_title}} {{__calendar_next_countdown}} · \
                {{__calendar_next_label}} · {{__calendar_next_range}}
                """,
                root: root, tz: "Europe/Dublin", locale: "en_US"
            )
            // ICU 72+ puts a narrow no-break space before AM/PM.
            .replacingOccurrences(of: "\u{202F}", with: " ")
                == "Next Up: Dentist 3h · In 3 hr · 1:00 PM–1:30 PM")
        #expect(
            Fixtures.render(
                """
                {{__calendar_next_title}} {{__calendar_next_label}} then {{__calendar_second_title}} \
                {{__calendar_second_label}} ({{__calendar_second_countdown}})
                """,
                root: root, at: now + 4.5 * 3600, tz: "Europe/Dublin", locale: "en_GB")
                == "Stand-up In 2 days then Design review In 2 days (2d)")
        #expect(
            Fixtures.render(
                """
                {{__calendar_next_title}} {{__calendar_next_ongoing}} {{__calendar_next_ends_in_min}} \
                {{__calendar_all_day_today}}
                """,
                root: root, at: Date(timeIntervalSince1970: 1_769_421_900), tz: "Europe/Dublin")
                == "Stand-up true 10 Team day")

        // Offline: the web calendar keeps its last download, the failure is reported.
        online.withLock { $0 = false }
        let offline = try service.refresh(now: now, timeZone: TimeZone(identifier: "Europe/Dublin")!)
        #expect(offline.snapshot.nextTwo(at: now).next?.title == "Dentist")
        #expect(offline.snapshot.lastError?.contains("HTTP 503") == true)
        #expect(offline.notes.contains { $0.hasPrefix("Family: ") && $0.contains("using the copy downloaded") })
        let listed = try service.list()
        #expect(listed.first { $0.id == "family" }?.lastError?.contains("503") == true)

        _ = try service.remove("Family")
        #expect(try service.list().map(\.id) == ["work"])
        #expect(throws: DataSourceError.self) { _ = try service.remove("nope") }
    }

    /// Issue 28 item 12: a bad DTEND is said when the calendar is read, and a truncated file's
    /// "never closed" is said once per command (add, then refresh), not once per reader.
    @Test func badEndsAndTruncationAreEachSaidOnce() throws {
        let root = try Fixtures.store()
        let file = try Products.temporaryDirectory("ics").appendingPathComponent("broken.ics")
        try Data(
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:late\r
            DTSTART:20260124T110000Z\r
            DTEND:20260124T100000Z\r
            SUMMARY:Ends before it starts\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:garbled\r
            DTSTART:20260124T120000Z\r
            DTEND:2026-01-24 13:00\r
            SUMMARY:Garbled end\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:cut\r
            DTSTART:20260125T090000Z\r

            """.utf8
        ).write(to: file)
        let service = CalendarService(root: root)
        let expected = [
            "line 6: DTEND 20260124T100000Z is before DTSTART 20260124T110000Z; the event is read as zero-length",
            "line 12: DTEND '2026-01-24 13:00' is not a date or date-time; the event is read as zero-length",
            "line 15: BEGIN:VEVENT is never closed (truncated file?)",
        ]
        // `add` says what `refresh` will (it used to say only the parser's half).
        let added = try service.add(file.path, name: "Broken", now: now, timeZone: TimeZone(identifier: "UTC")!)
        #expect(added.warnings.map(\.description) == expected)
        let report = try service.refresh(now: now, timeZone: TimeZone(identifier: "UTC")!)
        #expect(report.notes == expected.map { "Broken: \($0)" })
        #expect(report.snapshot.calendars.first?.warnings == 3)
        #expect(report.snapshot.events.map(\.title) == ["Ends before it starts", "Garbled end"])
    }

    @Test func notACalendarIsRefusedAndNothingIsSaved() throws {
        let root = try Fixtures.store()
        let folder = try Products.temporaryDirectory("ics")
        let file = folder.appendingPathComponent("page.ics")
        try Data("<html>Please sign in</html>".utf8).write(to: file)
        let service = CalendarService(root: root)
        #expect(throws: DataSourceError.self) { _ = try service.add(file.path, name: nil) }
        #expect(try service.list().isEmpty)
    }
}

@Suite("Steps import and goals")
struct StepsTests {
    func importing(_ csv: String, name: String = "steps.csv", root: StoreRoot? = nil) throws -> (
        StepsService.ImportReport, StoreRoot
    ) {
        let root = try root ?? Fixtures.store()
        let file = try Products.temporaryDirectory("steps").appendingPathComponent(name)
        try Data(csv.utf8).write(to: file)
        let r = try StepsService(root: root).importFile(
            file, now: Fixtures.fetchTime, timeZone: TimeZone(identifier: "UTC")!)
        return (r, root)
    }

    @Test func csvFeedsTheStepsAndActivityKeys() throws {
        let (r, root) = try importing(
            """
            date,steps,distance_m,active_min
            2026-01-19,11000,,
            2026-01-20,12000,8100,60
            2026-01-21,9000,6000,40
            2026-01-22,11000,7000,50
            2026-01-23,12500,8800,70
            2026-01-24,6500,4520.5,30
            """)
        #expect(r.imported == 6 && r.today?.steps == 6500 && r.firstDate == "2026-01-19")
        try StepsService(root: root).setGoal(weekday: 10_000, weekend: 6000)
        // Saturday: the weekend goal (6,000) is met; Thu and Fri met 10,000, Wednesday did not.
        #expect(
            Fixtures.render(
                """
                {{__steps_today}} {{__steps_goal_today}} {{__steps_today_percent}} {{__steps_goal_hit_today}} \
                {{__steps_streak}} {{__steps_avg_7}} {{__steps_best_day}} {{__steps_best_day_date_iso}}
                """,
                root: root) == "6500 6000 108 true 3 11100 12500 2026-01-23")
        #expect(
            Fixtures.render(
                "{{__activity_steps_today}} {{__activity_distance_km}} {{__activity_distance_m}}", root: root)
                == "6500 4.5 4521")

        // A second import replaces days with the same date and keeps the others.
        let (again, _) = try importing("2026-01-24,8000\n2026-01-25,100\n", root: root)
        #expect(again.replaced == 1 && again.today?.steps == 8000)
        let file = try #require(try StepsService(root: root).load())
        #expect(file.history?.count == 7 && file.goalWeekday == 10_000 && file.goalWeekend == 6000)
    }

    @Test(arguments: [
        (
            "date,steps\n2026-01-20,12000\n2026-02-30,5\n",
            "steps.csv line 3, field 'date': '2026-02-30' is not a date yyyy-MM-dd between 1900 and 2999"
        ),
        ("2026-01-20,-5\n", "steps.csv line 1, field 'steps': '-5' is not a whole number in 0…200000"),
        ("2026-01-20,250000\n", "steps.csv line 1, field 'steps': '250000' is not a whole number in 0…200000"),
        ("2026-01-20,100,abc\n", "steps.csv line 1, field 'distance_m': 'abc' is not a number in 0…500000"),
        ("2026-01-20,100,10,2000\n", "steps.csv line 1, field 'active_min': '2000' is not a number in 0…1440"),
        ("2026-01-20,100\n\n2026-01-20,200\n", "steps.csv line 3, field 'date': 2026-01-20 is already on line 1"),
        (
            "date,stride\n",
            "steps.csv line 1, field 'stride': unknown column; the columns are date, steps, distance_m, active_min"
        ),
        ("# nothing\n", "steps.csv: no rows (expected lines like 2026-01-24,8532,6120,45)"),
    ])
    func badRowsNameFileLineFieldAndRange(csv: String, message: String) throws {
        let root = try Fixtures.store()
        #expect(throws: Never.self) { try StepsService(root: root).setGoal(weekday: 9000, weekend: nil) }
        do {
            _ = try importing(csv, root: root)
            Issue.record("accepted: \(csv)")
        } catch let e as DataSourceError {
            #expect(e.description == message)
        }
        // Nothing was written over the existing file.
        #expect(try StepsService(root: root).load()?.history == nil)
    }

    @Test func jsonInTheSnapshotsOwnShape() throws {
        let (r, root) = try importing(
            """
            {"goalWeekday": 8000, "history": [{"date": "2026-01-22", "steps": 9000, "distanceMeters": 6100}],
             "today": {"date": "2026-01-24", "steps": 4000}}
            """, name: "export.json")
        #expect(r.imported == 2 && r.today?.steps == 4000)
        #expect(Fixtures.render("{{__steps_goal_weekday}} {{__steps_today}}", root: root) == "8000 4000")
        #expect(throws: DataSourceError.self) {
            _ = try importing(#"{"history": [{"date": "2026-01-22", "steps": "many"}]}"#, name: "bad.json")
        }
    }
}
