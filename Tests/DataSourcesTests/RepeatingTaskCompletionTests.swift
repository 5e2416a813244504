import Foundation
import SharedStore
import TestSupport
import Testing

@testable import DataSources

/// Completing one instance of a repeating task: DTSTART and DUE move together to the next
/// instance (so other clients see every later instance as long as before), a COUNT counts what
/// is left, and every byte outside the changed values stays (CRLF, invalid UTF-8, hand edits).
@Suite("Reminders: completing a repeating task")
struct RepeatingTaskCompletionTests {
    /// Saturday 24 January 2026, 09:30 UTC.
    let now = Fixtures.fetchTime
    let dublin = TimeZone(identifier: "Europe/Dublin")!

    static let chores: [UInt8] =
        Array(
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//hand edited//EN\r
            BEGIN:VTODO\r
            UID:report\r
            SUMMARY:Weekly report\r
            DTSTART;TZID=Europe/Dublin:20260126T090000\r
            DESCRIPTION:notes in Latin-1: caf
            """.utf8) + [0xE9]
        + Array(
            """
            \r
             and a folded line\r
            due;tzid=Europe/Dublin:20260128T170000\r
            RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=5\r
            END:VTODO\r
            BEGIN:VTODO\r
            UID:stretch\r
            SUMMARY:Stretch\r
            DTSTART;VALUE=DATE:20260124\r
            RRULE:FREQ=DAILY\r
            END:VTODO\r
            BEGIN:VTODO\r
            UID:meds\r
            SUMMARY:Medicine\r
            DTSTART:20260124T090000Z\r
            DUE:20260124T091500Z\r
            RRULE:FREQ=HOURLY;INTERVAL=4\r
            END:VTODO\r
            END:VCALENDAR\r

            """.utf8)

    func lines(_ d: Data) -> [String] { String(decoding: d, as: UTF8.self).components(separatedBy: "\r\n") }

    @Test func startAndDueMoveTogetherAndOnlyTheirValuesChange() throws {
        let root = try Fixtures.store()
        let folder = try Products.temporaryDirectory("repeating-tasks")
        let file = folder.appendingPathComponent("chores.ics")
        let original = Data(Self.chores)
        try original.write(to: file)
        let service = RemindersService(root: root)
        _ = try service.add(file.path, name: nil, now: now)
        _ = try service.refresh(now: now, timeZone: dublin)
        let completion = ReminderCompletion(service: service)

        let report = try completion.complete("chores:4", now: now, timeZone: dublin)
        #expect(report.message == "Completed 'Weekly report'; it repeats, next due 20260204T170000.")
        var after = try Data(contentsOf: file)
        var changed = zip(lines(original), lines(after)).filter { $0 != $1 }
        #expect(lines(after).count == lines(original).count)
        #expect(
            changed.map(\.1) == [
                "DTSTART;TZID=Europe/Dublin:20260202T090000", "due;tzid=Europe/Dublin:20260204T170000",
                "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4",
            ])
        // The byte that is not UTF-8 and the folded line are as they were.
        #expect(after.range(of: Data([0x63, 0x61, 0x66, 0xE9, 0x0D, 0x0A, 0x20])) != nil)

        // Without DUE only DTSTART moves, and the series stays open.
        var before = after
        let stretch = try completion.complete("chores:13", now: now, timeZone: dublin)
        #expect(stretch.message == "Completed 'Stretch'; it repeats, next on 20260125.")
        after = try Data(contentsOf: file)
        changed = zip(lines(before), lines(after)).filter { $0 != $1 }
        #expect(changed.map(\.1) == ["DTSTART;VALUE=DATE:20260125"] && lines(after).count == lines(before).count)

        // HOURLY: four hours on, the quarter of an hour kept.
        before = after
        _ = try completion.complete("chores:19", now: now, timeZone: dublin)
        after = try Data(contentsOf: file)
        changed = zip(lines(before), lines(after)).filter { $0 != $1 }
        #expect(changed.map(\.1) == ["DTSTART:20260124T130000Z", "DUE:20260124T131500Z"])
        let items = try completion.loadSnapshot().items
        #expect(items.allSatisfy { !$0.done } && items.count == 3)
    }
}
