import Foundation
import TestSupport
import Testing

@testable import WidgetDataKeys

/// `__calendar_*` keys: the seed's Next Up countdown wording (notes §5) at the render clock.
@Suite("Calendar keys")
struct CalendarKeysTests {
    func event(_ title: String, _ start: String, minutes: Double = 30, allDay: Bool = false)
        -> CalendarSnapshotProvider.Event
    {
        let s = TemplateFixture.date(start)
        return .init(
            title: title, start: s, end: s.addingTimeInterval(minutes * 60), isAllDay: allDay, location: nil,
            calendar: "Work", startDay: nil)
    }

    func render(
        _ template: String, _ events: [CalendarSnapshotProvider.Event], now: String = "2026-01-24T09:30:00Z",
        locale: String = "en_US"
    ) -> String {
        let provider = CalendarSnapshotProvider(
            generatedAt: TemplateFixture.date("2026-01-24T09:00:00Z"), upcoming: events)
        return TemplateFixture.render(
            template, now: TemplateFixture.date(now), locale: locale,
            builtIns: BuiltInKeys(sources: [TimeProvider(), provider]))
    }

    @Test(arguments: [
        ("2026-01-24T09:30:00Z", "Now|Now|Next Up"),
        ("2026-01-24T09:30:50Z", "0m|Soon|Next Up"),
        ("2026-01-24T09:55:00Z", "25m|In 25 min|Next Up"),
        ("2026-01-24T13:10:00Z", "3h|In 3 hr|Next Up"),
        ("2026-01-25T08:00:00Z", "22h|In 22 hr|Next Up"),
        ("2026-01-25T11:00:00Z", "1d|Tomorrow|Next"),
        ("2026-01-27T11:00:00Z", "3d|In 3 days|Next"),
        ("2026-02-02T11:00:00Z", "9d|On Mon, Feb 2|Next"),
        ("2026-02-20T11:00:00Z", "Feb 20|On Fri, Feb 20|Next"),
    ])
    func countdownWording(start: String, expected: String) {
        #expect(
            render(
                "{{__calendar_next_countdown}}|{{__calendar_next_label}}|{{__calendar_next_header}}",
                [event("A", start)]) == expected)
    }

    @Test func endedEventsAreSkippedAndTimedEventsComeFirst() {
        let events = [
            event("Birthday", "2026-01-24T00:00:00Z", minutes: 1440, allDay: true),
            event("Breakfast", "2026-01-24T08:00:00Z", minutes: 60),
            event("Stand-up", "2026-01-24T10:00:00Z", minutes: 15),
            event("Lunch", "2026-01-24T12:30:00Z", minutes: 60),
        ]
        #expect(
            render(
                """
                {{__calendar_next_title}} {{__calendar_next_in_min}} / {{__calendar_second_title}} / \
                {{__calendar_all_day_today}} / {{__calendar_today_count}}
                """,
                events)
                == "Stand-up 30 / Lunch / Birthday / 2")
        #expect(
            render(
                """
                {{__calendar_next_title}} {{__calendar_next_ongoing}} {{__calendar_next_ends_in_min}} \
                {{__calendar_next_range}}
                """,
                events,
                now: "2026-01-24T12:40:00Z", locale: "en_GB") == "Lunch true 50 12:30–13:30")
        // No timed event left: the all-day one is next.
        #expect(
            render(
                """
                {{__calendar_next_title}} {{__calendar_next_all_day}} {{__calendar_next_range}} \
                {{__calendar_second_title|none}}
                """,
                events,
                now: "2026-01-24T14:00:00Z") == "Birthday true All day none")
        #expect(
            render(
                "{{__calendar_has_next}} {{__calendar_next_title|No upcoming events.}}", events,
                now: "2026-01-25T01:00:00Z")
                == "false No upcoming events.")
    }
}
