import CivilDates
import Foundation
import Testing

@testable import ICalendar

/// Builds a calendar from event bodies; lines are joined with CRLF as RFC 5545 asks.
func calendar(_ body: String, extra: String = "") -> Data {
    let lines =
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//WidgetWeaver tests//EN"] + (extra.isEmpty ? [] : [extra])
        + [body, "END:VCALENDAR"]
    return Data(
        lines.joined(separator: "\r\n").replacingOccurrences(of: "\n", with: "\r\n")
            .replacingOccurrences(of: "\r\r\n", with: "\r\n").utf8)
}

func utc(_ s: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    return f.date(from: s)!
}

func iso(_ d: Date) -> String {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    return f.string(from: d)
}

func expand(
    _ data: Data, zone: String = "UTC", from: String, to: String,
    limits: ICalendarLimits = ICalendarLimits()
) throws -> EventExpander.Result {
    let expander = EventExpander(limits: limits, localZone: TimeZone(identifier: zone)!)
    let tree: EventExpander.Result
    do {
        tree = expander.occurrences(
            in: try ICalendarDocument.parse(data, limits: limits), from: utc(from), to: utc(to))
    } catch let error as ICalendarError {
        // The streaming reader refuses what the tree reader refuses, with the same error.
        #expect(throws: error) {
            try expander.occurrences(inFile: data, from: utc(from), to: utc(to))
        }
        throw error
    }
    // Every test that expands also checks the streaming reader (what refresh uses) against the tree.
    let streamed = try expander.occurrences(inFile: data, from: utc(from), to: utc(to))
    #expect(streamed.occurrences == tree.occurrences)
    #expect(streamed.warnings == tree.warnings)
    #expect(streamed.eventCount == tree.eventCount)
    return tree
}

/// A VTIMEZONE for UK time written out in full, under a name the tz database does not know, so
/// the file's own definition is what converts times.
let customLondon = """
    BEGIN:VTIMEZONE
    TZID:Custom London
    BEGIN:DAYLIGHT
    TZOFFSETFROM:+0000
    TZOFFSETTO:+0100
    DTSTART:19810329T010000
    RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
    TZNAME:BST
    END:DAYLIGHT
    BEGIN:STANDARD
    TZOFFSETFROM:+0100
    TZOFFSETTO:+0000
    DTSTART:19961027T020000
    RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
    TZNAME:GMT
    END:STANDARD
    END:VTIMEZONE
    """

@Suite("iCalendar: recurrence, zones, overrides")
struct RecurrenceTests {
    /// Weekly on Mondays 09:00 London from 9 March 2026, six times, the 23 March one cancelled by
    /// EXDATE. Clocks go forward on 29 March: 09:00 is 09:00Z before and 08:00Z after.
    @Test(arguments: ["Europe/London", "Custom London"])
    func weeklyWithExdateAcrossDST(tzid: String) throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:weekly-1
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=\(tzid):20260309T090000
            DTEND;TZID=\(tzid):20260309T093000
            RRULE:FREQ=WEEKLY;COUNT=6
            EXDATE;TZID=\(tzid):20260323T090000
            SUMMARY:Team sync
            END:VEVENT
            """, extra: customLondon)
        let r = try expand(data, zone: "Asia/Tokyo", from: "2026-03-01T00:00:00Z", to: "2026-06-01T00:00:00Z")
        #expect(
            r.occurrences.map { iso($0.start) } == [
                "2026-03-09T09:00:00Z", "2026-03-16T09:00:00Z", "2026-03-30T08:00:00Z",
                "2026-04-06T08:00:00Z", "2026-04-13T08:00:00Z",
            ])
        #expect(r.occurrences.allSatisfy { $0.end.timeIntervalSince($0.start) == 1800 && $0.title == "Team sync" })
        #expect(r.occurrences.allSatisfy { !$0.isFloating && !$0.isAllDay })
    }

    @Test func overriddenAndCancelledInstances() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:standup
            DTSTART:20260105T100000Z
            DURATION:PT15M
            RRULE:FREQ=DAILY;COUNT=4
            SUMMARY:Stand-up
            LOCATION:Room 2
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            RECURRENCE-ID:20260106T100000Z
            DTSTART:20260106T140000Z
            DTEND:20260106T143000Z
            SUMMARY:Stand-up (moved)
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            RECURRENCE-ID:20260107T100000Z
            DTSTART:20260107T100000Z
            DURATION:PT15M
            STATUS:CANCELLED
            SUMMARY:Stand-up
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            r.occurrences.map { "\(iso($0.start)) \($0.title) \(Int($0.end.timeIntervalSince($0.start)))" } == [
                "2026-01-05T10:00:00Z Stand-up 900",
                "2026-01-06T14:00:00Z Stand-up (moved) 1800",
                "2026-01-08T10:00:00Z Stand-up 900",
            ])
        #expect(r.occurrences.first?.location == "Room 2")
    }

    @Test func allDayEventsAreLocalDates() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:trip
            DTSTART;VALUE=DATE:20260124
            DTEND;VALUE=DATE:20260126
            SUMMARY:Weekend away
            END:VEVENT
            BEGIN:VEVENT
            UID:bday
            DTSTART;VALUE=DATE:19900215
            RRULE:FREQ=YEARLY
            SUMMARY:Ada's birthday
            END:VEVENT
            """)
        let r = try expand(data, zone: "America/New_York", from: "2026-01-20T00:00:00Z", to: "2027-03-01T00:00:00Z")
        let trip = try #require(r.occurrences.first { $0.uid == "trip" })
        #expect(trip.isAllDay)
        #expect(iso(trip.start) == "2026-01-24T05:00:00Z")
        #expect(iso(trip.end) == "2026-01-26T05:00:00Z")
        #expect(trip.startDay == "2026-01-24" && trip.endDay == "2026-01-25")
        #expect(r.occurrences.filter { $0.uid == "bday" }.map { $0.startDay ?? "" } == ["2026-02-15", "2027-02-15"])
    }

    @Test func floatingEventIsReadInTheUsersZone() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:float
            DTSTART:20260124T090000
            DTEND:20260124T100000
            SUMMARY:Breakfast
            END:VEVENT
            """)
        let tokyo = try expand(data, zone: "Asia/Tokyo", from: "2026-01-23T00:00:00Z", to: "2026-01-25T00:00:00Z")
        #expect(tokyo.occurrences.map { iso($0.start) } == ["2026-01-24T00:00:00Z"])
        #expect(tokyo.occurrences.first?.isFloating == true)
        let dublin = try expand(data, zone: "Europe/Dublin", from: "2026-01-23T00:00:00Z", to: "2026-01-25T00:00:00Z")
        #expect(dublin.occurrences.map { iso($0.start) } == ["2026-01-24T09:00:00Z"])
    }

    @Test func eventInAnotherZone() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:ny
            DTSTART;TZID=America/New_York:20260710T090000
            DTEND;TZID=America/New_York:20260710T100000
            SUMMARY:Call with New York
            END:VEVENT
            BEGIN:VEVENT
            UID:outlook
            DTSTART;TZID="W. Europe Standard Time":20260710T090000
            DTEND;TZID="W. Europe Standard Time":20260710T100000
            SUMMARY:Outlook meeting
            END:VEVENT
            BEGIN:VEVENT
            UID:mozilla
            DTSTART;TZID=/mozilla.org/20050126_1/Asia/Kolkata:20260710T090000
            DURATION:PT1H
            SUMMARY:Prefixed TZID
            END:VEVENT
            """)
        let r = try expand(data, zone: "Europe/Dublin", from: "2026-07-01T00:00:00Z", to: "2026-08-01T00:00:00Z")
        #expect(
            r.occurrences.map { "\($0.uid) \(iso($0.start)) \(iso($0.end))" } == [
                "mozilla 2026-07-10T03:30:00Z 2026-07-10T04:30:00Z",
                "outlook 2026-07-10T07:00:00Z 2026-07-10T08:00:00Z",
                "ny 2026-07-10T13:00:00Z 2026-07-10T14:00:00Z",
            ])
        #expect(r.warnings.isEmpty)
    }

    @Test func monthlyAndYearlyByDay() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:second-monday
            DTSTART:20260112T180000Z
            RRULE:FREQ=MONTHLY;BYDAY=2MO;COUNT=4
            SUMMARY:Book club
            END:VEVENT
            BEGIN:VEVENT
            UID:last-friday
            DTSTART:20260130T170000Z
            RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20260430T235959Z
            SUMMARY:Drinks
            END:VEVENT
            BEGIN:VEVENT
            UID:month-end
            DTSTART:20260131T120000Z
            RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3
            SUMMARY:Invoices
            END:VEVENT
            BEGIN:VEVENT
            UID:thanksgiving
            DTSTART;VALUE=DATE:20261126
            RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=4TH
            SUMMARY:Thanksgiving
            END:VEVENT
            BEGIN:VEVENT
            UID:fortnightly
            DTSTART:20260106T080000Z
            RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=20260131
            SUMMARY:Gym
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2027-12-31T00:00:00Z")
        func days(_ uid: String) -> [String] {
            r.occurrences.filter { $0.uid == uid }.map { $0.startDay ?? String(iso($0.start).prefix(10)) }
        }
        #expect(days("second-monday") == ["2026-01-12", "2026-02-09", "2026-03-09", "2026-04-13"])
        #expect(days("last-friday") == ["2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24"])
        #expect(days("month-end") == ["2026-01-31", "2026-02-28", "2026-03-31"])
        #expect(days("thanksgiving") == ["2026-11-26", "2027-11-25"])
        #expect(days("fortnightly") == ["2026-01-06", "2026-01-08", "2026-01-20", "2026-01-22"])
    }

    @Test func cancelledEventsAreSkippedAndTextIsUnescaped() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:gone
            DTSTART:20260124T090000Z
            STATUS:CANCELLED
            SUMMARY:Cancelled
            END:VEVENT
            BEGIN:VEVENT
            UID:folded
            DTSTART:20260124T100000Z
            SUMMARY:Lunch\\, then a very long title that a calendar program folded across
              two lines\\; done
            LOCATION:Café\\nUpstairs
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-24T00:00:00Z", to: "2026-01-25T00:00:00Z")
        #expect(
            r.occurrences.map(\.title) == [
                "Lunch, then a very long title that a calendar program folded across two lines; done"
            ])
        #expect(r.occurrences.first?.location == "Café\nUpstairs")
        #expect(r.eventCount == 2)
    }
}

@Suite("iCalendar: hostile files")
struct HostileCalendarTests {
    @Test func hugeCountStopsAtTheWindow() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:forever
            DTSTART:20260101T090000Z
            RRULE:FREQ=DAILY;COUNT=2147483647
            SUMMARY:Forever
            END:VEVENT
            BEGIN:VEVENT
            UID:never
            DTSTART:20260101T090000Z
            RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=999999999
            SUMMARY:Never again
            END:VEVENT
            """)
        let clock = ContinuousClock()
        var r: EventExpander.Result?
        let took = try clock.measure {
            r = try expand(data, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z")
        }
        #expect(r?.occurrences.filter { $0.uid == "forever" }.count == 31)
        #expect(r?.occurrences.contains { $0.uid == "never" } == false)
        #expect(took < .seconds(5))
    }

    @Test func countFromLongAgoRunsOutOfBudgetNotTime() throws {
        var limits = ICalendarLimits()
        limits.maxPeriodsPerRule = 50_000
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:ancient
            DTSTART:16010101T090000Z
            RRULE:FREQ=DAILY;COUNT=900000000
            SUMMARY:Ancient
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z", limits: limits)
        // 50,000 days from 1601 end in 1737: the rule stops there and the window sees nothing.
        #expect(r.occurrences.isEmpty)
    }

    @Test func tooManyOccurrencesAreCutWithAWarning() throws {
        var limits = ICalendarLimits()
        limits.maxOccurrencesPerEvent = 100
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:daily
            DTSTART:20260101T090000Z
            RRULE:FREQ=DAILY
            SUMMARY:Daily
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", limits: limits)
        #expect(r.occurrences.count == 100)
        #expect(r.warnings.contains { $0.message.contains("more than 100 occurrences") })
    }

    /// Every RRULE of an event (they are united) draws on the one budget of the file, so a
    /// thousand rules counting from 1601 cost no more than the budget, and say so once.
    @Test func manyRRULEsShareTheBudget() throws {
        var limits = ICalendarLimits()
        limits.maxPeriodsPerRule = 50_000
        limits.maxPeriodsPerFile = 300_000
        let rules = Array(repeating: "RRULE:FREQ=DAILY;COUNT=900000000", count: 1000).joined(separator: "\n")
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:ancient
            DTSTART:16010101T090000Z
            \(rules)
            SUMMARY:Ancient
            END:VEVENT
            """)
        let clock = ContinuousClock()
        var r: EventExpander.Result?
        let took = try clock.measure {
            r = try expand(data, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z", limits: limits)
        }
        // 50,000 days from 1601 end in 1737; six rules spend the budget, the rest stop at once.
        #expect(r?.occurrences.isEmpty == true)
        #expect(
            r?.warnings.map(\.message) == [
                "the file's recurrence budget (300000 steps) ran out; later events may be missing"
            ])
        #expect(took < .seconds(10))
    }

    /// Many versions of one UID and many THISANDFUTURE overrides stay linear.
    @Test func manyVersionsAndOverridesStayCheap() throws {
        var body: [String] = []
        for v in 0..<2000 {
            body.append(
                """
                BEGIN:VEVENT\nUID:same\nSEQUENCE:\(v)\nDTSTART:20260101T090000Z\nDURATION:PT1H\nRRULE:FREQ=DAILY\n\
                SUMMARY:v\(v)\nEND:VEVENT
                """
            )
        }
        for d in 0..<2000 {
            let day = CivilTime.fromLocalSeconds(
                CivilTime(year: 2026, month: 1, day: 2).localSeconds + d * 86_400)
            let stamp = String(format: "%04d%02d%02d", day.year, day.month, day.day)
            body.append(
                """
                BEGIN:VEVENT\nUID:same\nRECURRENCE-ID;RANGE=THISANDFUTURE:\(stamp)T090000Z\nDTSTART:\(stamp)T100000Z\n\
                DURATION:PT1H\nSUMMARY:moved \
                \(d)\nEND:VEVENT
                """
            )
        }
        let clock = ContinuousClock()
        var r: EventExpander.Result?
        let took = try clock.measure {
            r = try expand(
                calendar(body.joined(separator: "\n")), from: "2026-03-01T00:00:00Z", to: "2026-03-03T00:00:00Z")
        }
        // 1 and 2 March are overrides 58 and 59 (from 2 January); the series itself is replaced there.
        #expect(
            r?.occurrences.map { "\(iso($0.start)) \($0.title)" } == [
                "2026-03-01T10:00:00Z moved 58", "2026-03-02T10:00:00Z moved 59",
            ])
        #expect(took < .seconds(10))
    }

    @Test func deepNestingIsRefusedWithItsLine() throws {
        let nested = Array(repeating: "BEGIN:VEVENT", count: 10_000).joined(separator: "\r\n")
        let data = Data(("BEGIN:VCALENDAR\r\n" + nested).utf8)
        #expect(throws: ICalendarError(line: 9, message: "components are nested deeper than 8 levels")) {
            try ICalendarDocument.parse(data)
        }
    }

    @Test func tenMegabyteLineIsSkipped() throws {
        var text =
            """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:big\r\nDTSTART:20260124T090000Z\r\nSUMMARY:Still \
            here\r\nDESCRIPTION:
            """
        text += String(repeating: "x", count: 10 << 20)
        text += "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let doc = try ICalendarDocument.parse(Data(text.utf8))
        #expect(
            doc.warnings.map(\.description) == ["line 7: property DESCRIPTION is longer than 262144 bytes; skipped"])
        let r = EventExpander(localZone: TimeZone(identifier: "UTC")!)
            .occurrences(in: doc, from: utc("2026-01-24T00:00:00Z"), to: utc("2026-01-25T00:00:00Z"))
        #expect(r.occurrences.map(\.title) == ["Still here"])
    }

    @Test func oversizedFileIsRefused() throws {
        var limits = ICalendarLimits()
        limits.maxFileBytes = 1000
        #expect(throws: ICalendarError(line: nil, message: "the file is 2.0 KiB; the limit is 1000 bytes")) {
            try ICalendarDocument.parse(Data(repeating: 0x41, count: 2000), limits: limits)
        }
    }

    @Test func notACalendarAndUnbalancedEnds() throws {
        #expect(throws: ICalendarError(line: 1, message: "not an iCalendar file (expected BEGIN:VCALENDAR)")) {
            try ICalendarDocument.parse(Data("<html><body>Sign in</body></html>".utf8))
        }
        #expect(throws: ICalendarError(line: 1, message: "END:VEVENT without a matching BEGIN")) {
            try ICalendarDocument.parse(Data("END:VEVENT\nBEGIN:VCALENDAR\nEND:VCALENDAR\n".utf8))
        }
        let after = try ICalendarDocument.parse(Data("BEGIN:VCALENDAR\nEND:VCALENDAR\nEND:VEVENT\n".utf8))
        #expect(after.warnings.map(\.description) == ["line 3: END:VEVENT after the calendar ended; ignored"])
        // A mismatched END is worked around (ExporterShapesTests has the whole story).
        let doc = try ICalendarDocument.parse(Data("BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VTODO\nEND:VCALENDAR\n".utf8))
        #expect(
            doc.warnings.map(\.description) == [
                "line 3: END:VTODO does not close BEGIN:VEVENT from line 2; read on from the next BEGIN or matching END"
            ])
        #expect(doc.all("VEVENT").count == 1)
    }

    @Test func badRulesFallBackToTheFirstOccurrence() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:hourly
            DTSTART:20260124T090000Z
            RRULE:FREQ=SECONDLY;COUNT=1000000000
            SUMMARY:Spam
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-24T00:00:00Z", to: "2026-01-25T00:00:00Z")
        #expect(r.occurrences.count == 1)
        #expect(r.warnings.first?.message.contains("FREQ=SECONDLY is not supported") == true)
    }
}
