import CivilDates
import Foundation
import Testing

@testable import ICalendar

/// Memory follows what is kept, not what a calendar could produce: only the soonest N are held
/// while expanding, and RDATE values count against the same limits as a rule's steps.
@Suite("iCalendar: bounded expansion")
struct BoundedExpansionTests {
    /// `count` daily events starting in 2025, one a minute apart from midnight.
    func dailyEvents(_ count: Int) -> Data {
        calendar(
            (0..<count).map { i in
                """
                BEGIN:VEVENT\nUID:daily-\(i)\nDTSTART:20250101T\(String(format: "%02d%02d", i / 60 % 24, i % 60))00Z
                DURATION:PT30M\nRRULE:FREQ=DAILY\nSUMMARY:Daily \(i)\nEND:VEVENT
                """
            }.joined(separator: "\n"))
    }

    /// The soonest 500 are the first 500 of the whole expansion, and a file whose whole
    /// expansion would spend the recurrence budget (each event steps ~370 days into the window)
    /// stays inside it: each event stops once it is later than the latest kept.
    @Test func keepingTheSoonestGivesTheSameFirstOccurrences() throws {
        let doc = try ICalendarDocument.parse(dailyEvents(400))
        var limits = ICalendarLimits()
        limits.maxPeriodsPerFile = 40_000
        let expander = EventExpander(limits: limits, localZone: TimeZone(identifier: "UTC")!)
        let from = utc("2026-01-24T09:30:00Z"), to = utc("2027-01-25T09:30:00Z")
        let kept = expander.occurrences(in: doc, from: from, to: to, keepingSoonest: 500)
        #expect(kept.occurrences.count == 500)
        #expect(kept.warnings.isEmpty, "\(kept.warnings.prefix(3))")

        var roomy = ICalendarLimits()
        roomy.maxPeriodsPerFile = 10_000_000
        let all = EventExpander(limits: roomy, localZone: TimeZone(identifier: "UTC")!)
            .occurrences(in: doc, from: from, to: to)
        #expect(all.occurrences.count > 140_000)
        #expect(kept.occurrences == Array(all.occurrences.prefix(500)))

        // Without a bound the tight budget runs out, and that is said once, not per event.
        let spent = expander.occurrences(in: doc, from: from, to: to)
        #expect(spent.warnings.map(\.message).filter { $0.contains("recurrence budget") }.count == 1)
    }

    /// RDATE values cost budget steps and count as occurrences: 3,000 hourly RDATEs in the
    /// window are cut at the per-event limit, and a file's worth of them at the budget.
    @Test func rdatesCountAgainstTheLimits() throws {
        let start = CivilTime(year: 2026, month: 1, day: 1).localSeconds
        let values = (0..<3_000).map { h -> String in
            let l = CivilTime.fromLocalSeconds(start + h * 3600)
            return String(format: "%04d%02d%02dT%02d0000Z", l.year, l.month, l.day, l.hour)
        }
        let lines = stride(from: 0, to: values.count, by: 1_000).map {
            "RDATE:" + values[$0..<min($0 + 1_000, values.count)].joined(separator: ",")
        }
        let data = calendar(
            "BEGIN:VEVENT\nUID:many\nDTSTART:20260101T000000Z\n\(lines.joined(separator: "\n"))\nEND:VEVENT")
        var limits = ICalendarLimits()
        limits.maxOccurrencesPerEvent = 1_000
        let r = try expand(data, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", limits: limits)
        #expect(r.occurrences.count == 1_000)
        #expect(r.warnings.map(\.message) == ["more than 1000 occurrences in the window; the rest are left out"])

        var small = ICalendarLimits()
        small.maxPeriodsPerFile = 1_500
        let b = try expand(data, from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", limits: small)
        #expect(b.occurrences.count == 2_000)
        #expect(
            b.warnings.map(\.message) == [
                "the file's recurrence budget (1500 steps) ran out; later RDATE values and events may be missing"
            ])
    }

    /// Read streaming, the file is not held: the outline keeps the calendar's properties and
    /// zones but no event, and the result is the tree reader's also when the file's order is
    /// awkward: an override before its series, an older version after the newer, the calendar's
    /// X-WR-TIMEZONE after its events, a VTIMEZONE after the events that use it, a truncated end.
    @Test func streamingHoldsNoEventsAndMatchesTheTree() throws {
        let data = calendar(
            """
            BEGIN:VEVENT\nUID:s\nRECURRENCE-ID:20260105T090000\nDTSTART:20260105T113000\nDURATION:PT1H
            SUMMARY:Moved\nSEQUENCE:1\nEND:VEVENT
            BEGIN:VEVENT\nUID:s\nDTSTART:20260101T090000\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=10
            SUMMARY:Series v2\nSEQUENCE:2\nEND:VEVENT
            BEGIN:VEVENT\nUID:s\nDTSTART:20260101T080000\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=20
            SUMMARY:Series v1\nSEQUENCE:1\nEND:VEVENT
            BEGIN:VEVENT\nUID:z\nDTSTART;TZID=Custom:20260103T120000\nSUMMARY:Zoned\nEND:VEVENT
            BEGIN:VTIMEZONE\nTZID:Custom\nBEGIN:STANDARD\nTZOFFSETFROM:+0300\nTZOFFSETTO:+0300
            DTSTART:19700101T000000\nEND:STANDARD\nEND:VTIMEZONE
            X-WR-TIMEZONE:Asia/Tokyo
            X-WR-CALNAME:Awkward
            """)
        let truncated = Data(
            String(decoding: data, as: UTF8.self).replacingOccurrences(
                of: "END:VCALENDAR", with: "BEGIN:VEVENT\r\nUID:cut\r\nDTSTART:20260102T000000Z"
            ).utf8)
        for file in [data, truncated] {
            let r = try expand(file, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
            #expect(r.occurrences.contains { $0.title == "Moved" && iso($0.start) == "2026-01-05T02:30:00Z" })
            #expect(r.occurrences.filter { $0.title == "Series v2" }.count == 9)
            #expect(!r.occurrences.contains { $0.title == "Series v1" })
            #expect(r.occurrences.contains { $0.title == "Zoned" && iso($0.start) == "2026-01-03T09:00:00Z" })
        }
        let streamed = try EventExpander(localZone: TimeZone(identifier: "UTC")!)
            .occurrences(inFile: data, from: utc("2026-01-01T00:00:00Z"), to: utc("2026-02-01T00:00:00Z"))
        #expect(streamed.outline.all("VEVENT").isEmpty)
        #expect(streamed.outline.all("VTIMEZONE").count == 1)
        #expect(streamed.outline.components.first?.first("X-WR-CALNAME")?.value == "Awkward")
        #expect(streamed.eventCount == 4)
    }
}
