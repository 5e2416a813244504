import Foundation
import TestSupport
import Testing

@testable import TemplateLanguage
@testable import WidgetDataKeys

/// One renderer reused across contexts must give what a fresh renderer gives: it caches
/// formatters, time-key values per render clock, and formatted numbers.
@Suite("Renderer caches")
struct RendererCacheTests {
    static let template =
        "{{__now}} {{__now_unix}} {{__today}} {{__time}} {{__weekday}} {{n|0|number:1}} {{n||percent}} {{n||currency}}"

    /// Contexts that differ from the previous one in exactly one input the caches depend on, and
    /// then return to an earlier one, so a stale entry from any of them would show.
    static let contexts: [RenderContext] = [
        TemplateFixture.context(vars: ["n": "0.5"]),
        TemplateFixture.context(now: TemplateFixture.date("2026-01-25T23:59:59.500Z"), vars: ["n": "0.5"]),
        TemplateFixture.context(
            now: TemplateFixture.date("2026-01-25T23:59:59.500Z"), tz: "Asia/Tokyo", vars: ["n": "0.5"]),
        TemplateFixture.context(
            now: TemplateFixture.date("2026-01-25T23:59:59.500Z"), tz: "Asia/Tokyo", locale: "de_DE", vars: ["n": "0.5"]
        ),
        TemplateFixture.context(
            now: TemplateFixture.date("2026-01-25T23:59:59.500Z"), tz: "Asia/Tokyo", locale: "de_DE",
            vars: ["n": "-0"]),
        TemplateFixture.context(
            now: TemplateFixture.date("2026-01-25T23:59:59.500Z"), tz: "Asia/Tokyo", locale: "de_DE", vars: ["n": "0"]),
        TemplateFixture.context(vars: ["n": "0.5"]),
        TemplateFixture.context(
            now: TemplateFixture.date("2026-01-25T23:59:59.500Z"), locale: "fr_FR", vars: ["n": "1234.56"]),
        TemplateFixture.context(
            now: TemplateFixture.date("2026-01-26T00:00:00Z"), locale: "fr_FR", vars: ["n": "1234.56"]),
    ]

    @Test func reusedRendererMatchesFreshRenderer() {
        let shared = TemplateRenderer()
        for round in 0..<2 {
            for (index, context) in Self.contexts.enumerated() {
                let fresh = TemplateRenderer().render(Self.template, in: context)
                #expect(shared.render(Self.template, in: context) == fresh, "context \(index), round \(round)")
            }
        }
    }

    @Test func timeKeysFollowTheClockOnOneRenderer() {
        let renderer = TemplateRenderer()
        let saturday = TemplateFixture.context()
        let sunday = TemplateFixture.context(now: TemplateFixture.date("2026-01-25T18:45:00Z"))
        #expect(renderer.render("{{__weekday}} {{__time}} {{__today}}", in: saturday) == "Sat 09:30 2026-01-24")
        #expect(renderer.render("{{__weekday}} {{__time}} {{__today}}", in: sunday) == "Sun 18:45 2026-01-25")
        #expect(renderer.render("{{__weekday}} {{__time}} {{__today}}", in: saturday) == "Sat 09:30 2026-01-24")
    }

    /// `BuiltInKeySource` is public, so a caller can pair a context with a cache made for another
    /// zone; a value cached for the cache's own zone must not leak into that context.
    @Test func timeKeysIgnoreACacheForAnotherZone() {
        let cache = FormatterCache(locale: Locale(identifier: "en_US"), timeZone: TemplateFixture.utc)
        let provider = TimeProvider()
        #expect(provider.value(forKey: "__time", in: TemplateFixture.context(), formatters: cache) == "09:30")
        #expect(provider.value(forKey: "__today", in: TemplateFixture.context(), formatters: cache) == "2026-01-24")
        let kiritimati = TemplateFixture.context(tz: "Pacific/Kiritimati")
        #expect(provider.value(forKey: "__time", in: kiritimati, formatters: cache) == "23:30")
        #expect(provider.value(forKey: "__today", in: kiritimati, formatters: cache) == "2026-01-24")
        #expect(provider.value(forKey: "__time", in: TemplateFixture.context(), formatters: cache) == "09:30")
    }

    @Test func formattedNumbersFollowTheValueOnOneRenderer() {
        let renderer = TemplateRenderer()
        for n in ["8421", "8422", "8421", "0.125", "-0.125"] {
            let context = TemplateFixture.context(vars: ["n": n])
            #expect(
                renderer.render("{{n||number:2}}", in: context)
                    == TemplateRenderer().render("{{n||number:2}}", in: context), "n = \(n)")
        }
    }
}

/// Plain integers skip `strtod`; they must read exactly as `Double(text)` reads them.
@Suite("Number text fast path")
struct NumberTextFastPathTests {
    @Test(arguments: [
        "0", "-0", "+0", "7", "+7", "-7", "007", " 42 ", "8421", "-123456789012345",
        "999999999999999", "9999999999999999", "12345678901234567890", "9007199254740993",
    ])
    func integersReadLikeDouble(_ text: String) throws {
        let parsed = try #require(NumberText.parse(text))
        let expected = try #require(Double(text.trimmingCharacters(in: .whitespaces)))
        #expect(parsed.bitPattern == expected.bitPattern)
    }
}
