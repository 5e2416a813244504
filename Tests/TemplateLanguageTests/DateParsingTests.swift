import Foundation
import TestSupport
import Testing

@testable import TemplateLanguage

@Suite("Date parsing used by date/relative filters")
struct DateParsingTests {
    /// Render clock 2026-01-24T09:30:00Z = 04:30 in New York (UTC-5 in January).
    static let zone = TimeZone(identifier: "America/New_York")!

    static func parse(_ text: String) -> Date? { DateParsing.parse(text, now: TemplateFixture.now, timeZone: zone) }

    @Test(arguments: [
        ("now", "2026-01-24T09:30:00Z"),
        ("today", "2026-01-24T05:00:00Z"),
        (" TODAY ", "2026-01-24T05:00:00Z"),
        ("tomorrow", "2026-01-25T05:00:00Z"),
        ("yesterday", "2026-01-23T05:00:00Z"),
        ("1735689600", "2025-01-01T00:00:00Z"),
        ("1735689600000", "2025-01-01T00:00:00Z"),
        ("-86400", "1969-12-31T00:00:00Z"),
        ("2026-01-24T09:30:00Z", "2026-01-24T09:30:00Z"),
        ("2026-01-24T10:30:00+01:00", "2026-01-24T09:30:00Z"),
        ("2026-01-24T10:30:00+0100", "2026-01-24T09:30:00Z"),
        ("2026-01-24T04:30:00-05", "2026-01-24T09:30:00Z"),
        ("2026-01-24t09:30:00z", "2026-01-24T09:30:00Z"),
        ("2026-01-24", "2026-01-24T05:00:00Z"),
        ("2026-01-24 08:15", "2026-01-24T13:15:00Z"),
        ("2026-01-24 08:15:30", "2026-01-24T13:15:30Z"),
        ("2026/01/24", "2026-01-24T05:00:00Z"),
        ("2026/01/24 08:15", "2026-01-24T13:15:00Z"),
        ("2026/01/24 08:15:30", "2026-01-24T13:15:30Z"),
        ("2026-01-24T08:15:30", "2026-01-24T13:15:30Z"),
        ("08:15", "2026-01-24T13:15:00Z"),
        ("8:15", "2026-01-24T13:15:00Z"),
        // Daylight saving: a skipped time reads with the offset before the gap (02:30 EST = 03:30 EDT),
        // a repeated time takes the earlier instant.
        ("2026-03-08 02:30", "2026-03-08T07:30:00Z"),
        ("2026-11-01 01:30", "2026-11-01T05:30:00Z"),
        ("2024-02-29", "2024-02-29T05:00:00Z"),
    ])
    func parses(_ text: String, _ expected: String) {
        #expect(Self.parse(text) == TemplateFixture.date(expected))
    }

    @Test func fractionalSeconds() throws {
        let withFraction = try #require(Self.parse("2026-01-24T09:30:00.123Z"))
        #expect(abs(withFraction.timeIntervalSince(TemplateFixture.now) - 0.123) < 1e-6)
        let fractionalUnix = try #require(Self.parse("1735689600.5"))
        #expect(fractionalUnix.timeIntervalSince1970 == 1_735_689_600.5)
    }

    @Test(arguments: [
        "", "hello", "2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "24:00", "12:5", "12:60",
        "2026-01-24T09:30:00+25:00", "2026-01-24T25:00", "2026-01-24 09", "2026-01-24Z",
        "2026-01/24", "99999999999999999999", "1e10", "0x10", "nan", "inf", "--1", "2026-01-24T09:30:00ZZ",
        "10000-01-01",
    ])
    func rejects(_ text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func millisecondThresholdIsDocumented() {
        // 99,999,999,999 is read as seconds (year 5138); 100,000,000,000 as milliseconds (1973).
        #expect(Self.parse("99999999999")?.timeIntervalSince1970 == 99_999_999_999)
        #expect(Self.parse("100000000000")?.timeIntervalSince1970 == 100_000_000)
    }
}
