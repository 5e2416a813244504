import TestSupport
import Testing

@testable import TemplateLanguage
@testable import WidgetDataKeys

@Suite("Built-in time keys")
struct TimeKeysTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var now: String, tz: String, locale: String
        var nowISO: String, unix: String, today: String, time: String, weekday: String
        var testDescription: String { "\(now) in \(tz) (\(locale))" }
    }

    @Test(arguments: [
        Row(
            now: "2026-01-24T09:30:00Z", tz: "UTC", locale: "en_US", nowISO: "2026-01-24T09:30:00.000Z",
            unix: "1769247000", today: "2026-01-24", time: "09:30", weekday: "Sat"),
        // Local date before the UTC date.
        Row(
            now: "2026-01-24T03:00:00.250Z", tz: "America/Los_Angeles", locale: "en_US",
            nowISO: "2026-01-24T03:00:00.250Z", unix: "1769223600", today: "2026-01-23", time: "19:00", weekday: "Fri"),
        // Local date after the UTC date (UTC+14).
        Row(
            now: "2026-01-24T12:00:00Z", tz: "Pacific/Kiritimati", locale: "en_US", nowISO: "2026-01-24T12:00:00.000Z",
            unix: "1769256000", today: "2026-01-25", time: "02:00", weekday: "Sun"),
        // Half-hour offset, and a localised weekday.
        Row(
            now: "2026-01-24T09:30:00Z", tz: "Asia/Kolkata", locale: "de_DE", nowISO: "2026-01-24T09:30:00.000Z",
            unix: "1769247000", today: "2026-01-24", time: "15:00", weekday: "Sa."),
        // Summer time in London; milliseconds are truncated, never rounded into the next second.
        Row(
            now: "2026-07-01T23:59:59.9999Z", tz: "Europe/London", locale: "en_GB", nowISO: "2026-07-01T23:59:59.999Z",
            unix: "1782950399", today: "2026-07-02", time: "00:59", weekday: "Thu"),
        // A Buddhist-calendar locale still gets Gregorian __today.
        Row(
            now: "2026-01-24T09:30:00Z", tz: "Asia/Bangkok", locale: "th_TH", nowISO: "2026-01-24T09:30:00.000Z",
            unix: "1769247000", today: "2026-01-24", time: "16:30", weekday: "ส."),
    ])
    func timeKeys(_ row: Row) {
        let now = TemplateFixture.date(row.now)
        func r(_ key: String) -> String {
            TemplateFixture.render("{{\(key)}}", now: now, tz: row.tz, locale: row.locale)
        }
        #expect(r("__now") == row.nowISO)
        #expect(r("__now_unix") == row.unix)
        #expect(r("__today") == row.today)
        #expect(r("__time") == row.time)
        #expect(r("__weekday") == row.weekday)
    }

    @Test func keysBrowserListsAllTimeKeys() {
        let entries = TemplateRenderer().builtInEntries(in: TemplateFixture.context())
        #expect(
            entries.map(\.key) == [
                "__now", "__now_unix", "__second", "__time", "__time_12h", "__time_24h", "__time_seconds", "__today",
                "__weekday",
            ])
    }

    @Test func timeFormatChoosesWhatTimeSays() {
        var context = TemplateFixture.context()
        let r = TemplateRenderer()
        let plain = r.render("{{__time}}|{{__time_24h}}|{{__time_seconds}}|{{__second}}", in: context)
        context.timeFormat = TimeTextFormat(twelveHour: true, seconds: true)
        let twelve = r.render("{{__time}}|{{__time_seconds}}", in: context)
        context.timeFormat = TimeTextFormat(twelveHour: true, seconds: false)
        let twelveShort = r.render("{{__time}}", in: context)
        #expect(plain.split(separator: "|").count == 4)
        #expect(plain.hasPrefix(plain.split(separator: "|")[1] + "|"))
        #expect(twelve.split(separator: "|")[0] == twelve.split(separator: "|")[1])
        #expect(twelveShort == r.render("{{__time_12h}}", in: context))
    }
}
