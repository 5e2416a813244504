import Foundation
import Testing

@testable import ICalendar

/// Shapes real exporters write (Google, Outlook, Exchange, Thunderbird) that the calendar code
/// read differently from a widely used iCalendar library (issue 28, items 12 and 14–22). Each
/// test is a hand-made file with one such shape.
@Suite("iCalendar: shapes real exporters write")
struct ExporterShapesTests {
    func lines(_ r: EventExpander.Result) -> [String] {
        r.occurrences.map { "\(iso($0.start)) \(Int($0.end.timeIntervalSince($0.start))) \($0.title)" }
    }

    /// RFC 5545 §3.8.5.2: a period gives the instance its own length, by its end or its duration.
    @Test func rdatePeriodsGiveTheInstanceItsLength() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:talks
            DTSTART:20260105T090000Z
            DURATION:PT30M
            RDATE;VALUE=PERIOD:20260110T090000Z/20260110T120000Z,20260112T090000Z/PT2H
            RDATE;VALUE=PERIOD;TZID=Europe/Berlin:20260114T090000/20260114T094500
            SUMMARY:Talk
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            lines(r) == [
                "2026-01-05T09:00:00Z 1800 Talk",
                "2026-01-10T09:00:00Z 10800 Talk",
                "2026-01-12T09:00:00Z 7200 Talk",
                "2026-01-14T08:00:00Z 2700 Talk",
            ])
        #expect(r.warnings.isEmpty)
    }

    /// Google and Outlook exports can hold several versions of one event: the newest one (highest
    /// SEQUENCE, then DTSTAMP, then LAST-MODIFIED) is the event, per UID and RECURRENCE-ID.
    @Test func theNewestVersionOfAUIDWins() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:planning
            SEQUENCE:0
            DTSTAMP:20260101T000000Z
            DTSTART:20260105T090000Z
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:Planning
            END:VEVENT
            BEGIN:VEVENT
            UID:planning
            SEQUENCE:0
            DTSTAMP:20260101T000000Z
            RECURRENCE-ID:20260112T090000Z
            DTSTART:20260112T130000Z
            DURATION:PT1H
            SUMMARY:Planning (old move)
            END:VEVENT
            BEGIN:VEVENT
            UID:planning
            SEQUENCE:2
            DTSTAMP:20260103T000000Z
            DTSTART:20260105T090000Z
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=4
            EXDATE:20260119T090000Z
            SUMMARY:Planning
            END:VEVENT
            BEGIN:VEVENT
            UID:planning
            SEQUENCE:2
            DTSTAMP:20260103T000000Z
            RECURRENCE-ID:20260112T090000Z
            DTSTART:20260112T150000Z
            DURATION:PT1H
            SUMMARY:Planning (new move)
            END:VEVENT
            BEGIN:VEVENT
            UID:lunch
            DTSTAMP:20260110T000000Z
            DTSTART:20260107T120000Z
            DURATION:PT1H
            SUMMARY:Lunch (new)
            END:VEVENT
            BEGIN:VEVENT
            UID:lunch
            DTSTAMP:20260102T000000Z
            DTSTART:20260107T123000Z
            DURATION:PT1H
            SUMMARY:Lunch (old)
            END:VEVENT
            BEGIN:VEVENT
            UID:dinner
            DTSTAMP:20260102T000000Z
            LAST-MODIFIED:20260109T000000Z
            DTSTART:20260108T190000Z
            DURATION:PT1H
            SUMMARY:Dinner (new)
            END:VEVENT
            BEGIN:VEVENT
            UID:dinner
            DTSTAMP:20260102T000000Z
            LAST-MODIFIED:20260105T000000Z
            DTSTART:20260108T180000Z
            DURATION:PT1H
            SUMMARY:Dinner (old)
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            lines(r) == [
                "2026-01-05T09:00:00Z 3600 Planning",
                "2026-01-07T12:00:00Z 3600 Lunch (new)",
                "2026-01-08T19:00:00Z 3600 Dinner (new)",
                "2026-01-12T15:00:00Z 3600 Planning (new move)",
                "2026-01-26T09:00:00Z 3600 Planning",
            ])
    }

    /// Outlook writes a date-time RECURRENCE-ID (midnight in its zone, or UTC) for an instance of
    /// an all-day series: it names the instance on that date.
    @Test func dateTimeRecurrenceIdOnAnAllDaySeries() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:offsite
            DTSTART;VALUE=DATE:20260105
            DTEND;VALUE=DATE:20260106
            RRULE:FREQ=WEEKLY;COUNT=4
            SUMMARY:Offsite
            END:VEVENT
            BEGIN:VEVENT
            UID:offsite
            RECURRENCE-ID;TZID="W. Europe Standard Time":20260112T000000
            DTSTART;VALUE=DATE:20260113
            DTEND;VALUE=DATE:20260114
            SUMMARY:Offsite (moved)
            END:VEVENT
            BEGIN:VEVENT
            UID:offsite
            RECURRENCE-ID:20260126T000000Z
            DTSTART;VALUE=DATE:20260126
            DTEND;VALUE=DATE:20260126
            STATUS:CANCELLED
            SUMMARY:Offsite
            END:VEVENT
            """)
        let r = try expand(data, zone: "America/New_York", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            r.occurrences.map { "\($0.startDay ?? "?") \($0.title)" } == [
                "2026-01-05 Offsite", "2026-01-13 Offsite (moved)", "2026-01-19 Offsite",
            ])
    }

    /// Some exporters write globally unique TZIDs as a path: `/Europe/Stockholm`.
    @Test func tzidWithALeadingSlash() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:fika
            DTSTART;TZID=/Europe/Stockholm:20260710T150000
            DTEND;TZID=/Europe/Stockholm:20260710T153000
            SUMMARY:Fika
            END:VEVENT
            BEGIN:VEVENT
            UID:winter
            DTSTART;TZID=/Europe/Stockholm:20260110T150000
            DURATION:PT30M
            SUMMARY:Winter fika
            END:VEVENT
            """)
        let r = try expand(data, zone: "Asia/Tokyo", from: "2026-01-01T00:00:00Z", to: "2026-08-01T00:00:00Z")
        #expect(lines(r) == ["2026-01-10T14:00:00Z 1800 Winter fika", "2026-07-10T13:00:00Z 1800 Fika"])
        #expect(r.warnings.isEmpty)
        #expect(ZoneResolver.systemZone("/Europe/Stockholm")?.identifier == "Europe/Stockholm")
        #expect(ZoneResolver.systemZone("/Not/A_Zone") == nil)
    }

    /// RFC 2445 allowed several RRULEs; readers take the union of their occurrences.
    @Test func twoRRULEsAreUnited() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:gym
            DTSTART:20260105T180000Z
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3
            RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20260116T000000Z
            SUMMARY:Gym
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            r.occurrences.map { String(iso($0.start).prefix(10)) } == [
                "2026-01-05", "2026-01-08", "2026-01-12", "2026-01-15", "2026-01-19",
            ])
        #expect(r.warnings.isEmpty)
    }

    /// RANGE=THISANDFUTURE: the override's changes (time shift, length, title, place) apply to
    /// its instance and every later one; a later single override still wins for its instance.
    /// The shift stays on the wall clock across the change to summer time on 29 March.
    @Test func thisAndFutureAppliesToEveryLaterInstance() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:standup
            DTSTART;TZID=Europe/London:20260323T100000
            DURATION:PT15M
            RRULE:FREQ=DAILY;COUNT=10
            SUMMARY:Stand-up
            LOCATION:Room 2
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/London:20260326T100000
            DTSTART;TZID=Europe/London:20260326T113000
            DURATION:PT30M
            SUMMARY:Stand-up (later)
            LOCATION:Room 5
            END:VEVENT
            BEGIN:VEVENT
            UID:standup
            RECURRENCE-ID;TZID=Europe/London:20260330T100000
            DTSTART;TZID=Europe/London:20260330T160000
            DURATION:PT30M
            SUMMARY:Stand-up (one-off)
            END:VEVENT
            BEGIN:VEVENT
            UID:course
            DTSTART:20260105T170000Z
            DURATION:PT1H
            RRULE:FREQ=WEEKLY;COUNT=6
            SUMMARY:Course
            END:VEVENT
            BEGIN:VEVENT
            UID:course
            RECURRENCE-ID;RANGE=THISANDFUTURE:20260126T170000Z
            DTSTART:20260126T170000Z
            DURATION:PT1H
            STATUS:CANCELLED
            SUMMARY:Course
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-05-01T00:00:00Z")
        #expect(
            lines(r) == [
                "2026-01-05T17:00:00Z 3600 Course",
                "2026-01-12T17:00:00Z 3600 Course",
                "2026-01-19T17:00:00Z 3600 Course",
                "2026-03-23T10:00:00Z 900 Stand-up",
                "2026-03-24T10:00:00Z 900 Stand-up",
                "2026-03-25T10:00:00Z 900 Stand-up",
                "2026-03-26T11:30:00Z 1800 Stand-up (later)",
                "2026-03-27T11:30:00Z 1800 Stand-up (later)",
                "2026-03-28T11:30:00Z 1800 Stand-up (later)",
                "2026-03-29T10:30:00Z 1800 Stand-up (later)",
                "2026-03-30T15:00:00Z 1800 Stand-up (one-off)",
                "2026-03-31T10:30:00Z 1800 Stand-up (later)",
                "2026-04-01T10:30:00Z 1800 Stand-up (later)",
            ])
        #expect(r.occurrences.filter { $0.title == "Stand-up (later)" }.allSatisfy { $0.location == "Room 5" })
        #expect(r.occurrences.filter { $0.title == "Stand-up" }.allSatisfy { $0.location == "Room 2" })
    }

    /// THISANDFUTURE on an all-day series moves later instances by whole days; a later
    /// THISANDFUTURE override takes over from its own instance on.
    @Test func thisAndFutureOnAnAllDaySeries() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:bins
            DTSTART;VALUE=DATE:20260105
            RRULE:FREQ=WEEKLY;COUNT=6
            SUMMARY:Bins
            END:VEVENT
            BEGIN:VEVENT
            UID:bins
            RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20260119
            DTSTART;VALUE=DATE:20260120
            DTEND;VALUE=DATE:20260122
            SUMMARY:Bins (Tuesday)
            END:VEVENT
            BEGIN:VEVENT
            UID:bins
            RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20260202
            DTSTART;VALUE=DATE:20260204
            SUMMARY:Bins (Wednesday)
            END:VEVENT
            """)
        let r = try expand(data, zone: "Europe/Dublin", from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z")
        #expect(
            r.occurrences.map { "\($0.startDay ?? "?")…\($0.endDay ?? "?") \($0.title)" } == [
                "2026-01-05…2026-01-05 Bins", "2026-01-12…2026-01-12 Bins",
                "2026-01-20…2026-01-21 Bins (Tuesday)", "2026-01-27…2026-01-28 Bins (Tuesday)",
                "2026-02-04…2026-02-04 Bins (Wednesday)", "2026-02-11…2026-02-11 Bins (Wednesday)",
            ])
    }

    /// A DATE RECURRENCE-ID with THISANDFUTURE on a timed series names that day's instance: the
    /// shift is from the instance's time (09:00 → 11:00), not from midnight. An override that
    /// turns the series all-day changes its own instance only.
    @Test func thisAndFutureWithADateOnATimedSeries() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:run
            DTSTART:20260105T090000Z
            DURATION:PT1H
            RRULE:FREQ=DAILY;COUNT=5
            SUMMARY:Run
            END:VEVENT
            BEGIN:VEVENT
            UID:run
            RECURRENCE-ID;VALUE=DATE;RANGE=THISANDFUTURE:20260106
            DTSTART:20260106T110000Z
            DURATION:PT1H
            SUMMARY:Run (later)
            END:VEVENT
            BEGIN:VEVENT
            UID:run
            RECURRENCE-ID;RANGE=THISANDFUTURE:20260108T090000Z
            DTSTART;VALUE=DATE:20260108
            SUMMARY:Rest day
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            lines(r) == [
                "2026-01-05T09:00:00Z 3600 Run",
                "2026-01-06T11:00:00Z 3600 Run (later)",
                "2026-01-07T11:00:00Z 3600 Run (later)",
                "2026-01-08T00:00:00Z 86400 Rest day",
                "2026-01-09T11:00:00Z 3600 Run (later)",
            ])
    }

    /// A period whose end comes before its start: the event's own length, with a warning.
    @Test func aBackwardPeriodIsWarned() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:talk
            DTSTART:20260105T090000Z
            DURATION:PT30M
            RDATE;VALUE=PERIOD:20260110T090000Z/20260110T080000Z
            SUMMARY:Talk
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(lines(r) == ["2026-01-05T09:00:00Z 1800 Talk", "2026-01-10T09:00:00Z 1800 Talk"])
        #expect(
            r.warnings.map(\.description) == [
                "line 8: an RDATE period ends before it starts; the event's own length is used"
            ])
    }

    /// One mistyped END line used to refuse the whole file. Now reading resumes at the next BEGIN
    /// of a known component (or the END that closes an open one), with a warning naming the line.
    @Test func aTypoInAnEndLineLosesNothingElse() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:a
            DTSTART:20260110T090000Z
            SUMMARY:A
            END:VEVENT
            BEGIN:VTODO
            UID:t
            SUMMARY:Todo
            END:VTOOD
            BEGIN:VEVENT
            UID:b
            DTSTART:20260111T090000Z
            SUMMARY:B
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            DTSTART:20260112T090000Z
            SUMMARY:C
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT5M
            END:VALRAM
            END:VEVENT
            BEGIN:VEVENT
            UID:d
            DTSTART:20260113T090000Z
            SUMMARY:D
            END:VEVNT
            """)
        let doc = try ICalendarDocument.parse(data)
        #expect(
            doc.warnings.map(\.description) == [
                """
                line 12: END:VTOOD does not close BEGIN:VTODO from line 9; read on from the next BEGIN or matching \
                END
                """,
                """
                line 25: END:VALRAM does not close BEGIN:VALARM from line 22; read on from the next BEGIN or \
                matching END
                """,
                """
                line 31: END:VEVNT does not close BEGIN:VEVENT from line 27; read on from the next BEGIN or \
                matching END
                """,
            ])
        #expect(doc.all("VTODO").count == 1 && doc.all("VALARM").count == 1)
        let r = EventExpander(localZone: TimeZone(identifier: "UTC")!)
            .occurrences(in: doc, from: utc("2026-01-01T00:00:00Z"), to: utc("2026-02-01T00:00:00Z"))
        #expect(r.occurrences.map(\.title) == ["A", "B", "C", "D"])
        // The VCALENDAR was closed: no "never closed" warning.
        #expect(!doc.warnings.contains { $0.message.contains("never closed") })
    }

    /// An END that closes an outer component closes the inner ones (their END lines are
    /// missing) and keeps what they hold, with a warning.
    @Test func aMissingEndLineIsClosedByTheOuterEnd() throws {
        let doc = try ICalendarDocument.parse(
            calendar(
                """
                BEGIN:VEVENT
                UID:a
                DTSTART:20260110T090000Z
                SUMMARY:A
                BEGIN:VALARM
                TRIGGER:-PT5M
                END:VEVENT
                BEGIN:VEVENT
                UID:b
                DTSTART:20260111T090000Z
                SUMMARY:B
                """))
        #expect(
            doc.warnings.map(\.description) == [
                "line 10: END:VEVENT closes BEGIN:VALARM from line 8, which has no END line",
                "line 15: END:VCALENDAR closes BEGIN:VEVENT from line 11, which has no END line",
            ])
        #expect(doc.all("VEVENT").count == 2 && doc.all("VALARM").count == 1)
        let r = EventExpander(localZone: TimeZone(identifier: "UTC")!)
            .occurrences(in: doc, from: utc("2026-01-01T00:00:00Z"), to: utc("2026-02-01T00:00:00Z"))
        #expect(r.occurrences.map(\.title) == ["A", "B"])
    }

    /// Recovery is bounded like the rest: a file of nothing but unmatched ENDs and BEGINs still
    /// stops at the component and nesting limits.
    @Test func recoveryKeepsTheLimits() throws {
        let junk = Array(repeating: "BEGIN:VEVENT\r\nEND:VEVNT", count: 20).joined(separator: "\r\n")
        let doc = try ICalendarDocument.parse(Data(("BEGIN:VCALENDAR\r\n" + junk + "\r\nEND:VCALENDAR\r\n").utf8))
        #expect(doc.all("VEVENT").count == 20)
        #expect(doc.warnings.count == 20)
        var limits = ICalendarLimits()
        limits.maxComponents = 10
        #expect(throws: ICalendarError(line: 20, message: "more than 10 components")) {
            try ICalendarDocument.parse(Data(("BEGIN:VCALENDAR\r\n" + junk).utf8), limits: limits)
        }
    }

    /// An all-day event whose DTEND equals DTSTART is a day (warned); one whose DTEND is before
    /// DTSTART has the two swapped (warned), as the peer library does.
    @Test func invalidAllDayEndsAreRepairedWithAWarning() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:zero
            DTSTART;VALUE=DATE:20260110
            DTEND;VALUE=DATE:20260110
            SUMMARY:Zero
            END:VEVENT
            BEGIN:VEVENT
            UID:backwards
            DTSTART;VALUE=DATE:20260120
            DTEND;VALUE=DATE:20260117
            SUMMARY:Backwards
            END:VEVENT
            """)
        let r = try expand(data, zone: "Europe/Dublin", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            r.occurrences.map { "\($0.startDay ?? "?")…\($0.endDay ?? "?") \($0.title)" } == [
                "2026-01-10…2026-01-10 Zero", "2026-01-17…2026-01-19 Backwards",
            ])
        #expect(
            r.warnings.map(\.description) == [
                "line 7: DTEND 20260110 equals DTSTART on an all-day event; read as one day",
                "line 13: DTEND 20260117 is before DTSTART 20260120; the two are swapped",
            ])
    }

    /// Issue 28 item 12: a DTEND that cannot be read, or one before DTSTART, is said, not
    /// silently turned into a zero-length event.
    @Test func badTimedEndsAreWarned() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:bad-end
            DTSTART:20260110T090000Z
            DTEND:2026-01-10T10:00
            SUMMARY:Bad end
            END:VEVENT
            BEGIN:VEVENT
            UID:early-end
            DTSTART:20260110T110000Z
            DTEND:20260110T100000Z
            SUMMARY:Early end
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-duration
            DTSTART:20260110T120000Z
            DTEND:nonsense
            DURATION:PT1H
            SUMMARY:Bad end, good duration
            END:VEVENT
            BEGIN:VEVENT
            UID:bad-duration-2
            DTSTART:20260110T130000Z
            DURATION:1 hour
            SUMMARY:Bad duration
            END:VEVENT
            """)
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            lines(r) == [
                "2026-01-10T09:00:00Z 0 Bad end",
                "2026-01-10T11:00:00Z 0 Early end",
                "2026-01-10T12:00:00Z 3600 Bad end, good duration",
                "2026-01-10T13:00:00Z 0 Bad duration",
            ])
        #expect(
            r.warnings.map(\.description) == [
                "line 7: DTEND '2026-01-10T10:00' is not a date or date-time; the event is read as zero-length",
                "line 13: DTEND 20260110T100000Z is before DTSTART 20260110T110000Z; the event is read as zero-length",
                "line 19: DTEND 'nonsense' is not a date or date-time; DURATION is used",
                "line 26: DURATION '1 hour' is not a duration such as PT1H; the event is read as zero-length",
            ])
    }

    /// Google Calendar exports name the calendar's zone only in X-WR-TIMEZONE and write floating
    /// times: they are read in that zone (all-day dates stay in the user's zone).
    @Test func floatingTimesAreReadInXWRTimezone() throws {
        let data = calendar(
            """
            BEGIN:VEVENT
            UID:breakfast
            DTSTART:20260124T090000
            DTEND:20260124T100000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20260125T090000
            SUMMARY:Breakfast
            END:VEVENT
            BEGIN:VEVENT
            UID:holiday
            DTSTART;VALUE=DATE:20260127
            SUMMARY:Holiday
            END:VEVENT
            BEGIN:VEVENT
            UID:utc
            DTSTART:20260124T120000Z
            SUMMARY:Call
            END:VEVENT
            """, extra: "X-WR-TIMEZONE:America/New_York")
        let r = try expand(data, zone: "Europe/Dublin", from: "2026-01-20T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(
            lines(r) == [
                "2026-01-24T12:00:00Z 0 Call",
                "2026-01-24T14:00:00Z 3600 Breakfast",
                "2026-01-26T14:00:00Z 3600 Breakfast",
                "2026-01-27T00:00:00Z 86400 Holiday",
            ])
        #expect(r.occurrences.allSatisfy { !$0.isFloating })
        #expect(r.warnings.isEmpty)

        // A zone nobody knows: the user's zone, with a warning.
        let unknown = calendar(
            """
            BEGIN:VEVENT
            UID:breakfast
            DTSTART:20260124T090000
            SUMMARY:Breakfast
            END:VEVENT
            """, extra: "X-WR-TIMEZONE:Mars/Olympus_Mons")
        let u = try expand(unknown, zone: "Europe/Dublin", from: "2026-01-20T00:00:00Z", to: "2026-02-01T00:00:00Z")
        #expect(lines(u) == ["2026-01-24T09:00:00Z 0 Breakfast"])
        #expect(u.occurrences.first?.isFloating == true)
        #expect(
            u.warnings.map(\.description) == [
                """
                line 4: X-WR-TIMEZONE 'Mars/Olympus_Mons' is not a known time zone; floating times are read in the \
                user's zone
                """
            ])
    }
}
