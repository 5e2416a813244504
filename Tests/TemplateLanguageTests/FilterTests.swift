import TestSupport
import Testing

@testable import TemplateLanguage

@Suite("Filters")
struct FilterTests {
    static let vars = [
        "s": "straße", "mixed": "HeLLo", "words": "hello wORLD", "sp": "  x  ", "n": "7", "neg": "-5",
        "word": "ab", "amount": "1234.5", "frac": "0.42", "pct": "42", "frac4": "0.4256", "one": "1",
        "big": "150", "half": "2.5", "mhalf": "-2.5", "tricky": "2.675", "pi": "3.14159", "tiny": "1.005",
        "huge": "9.3e18", "f": "2.7", "mf": "-2.2", "c": "2.1", "m4": "-4", "fifteen": "15", "m3": "-3",
        "zero": "0", "onef": "1.0", "m1": "-1", "two": "2", "three": "3", "threeq": "75",
        "onehalf": "1.5", "twohundred": "200", "day": "2026-01-24", "unix": "1735689600",
        "twoago": "2026-01-24T07:30:00Z", "in3": "2026-01-27T09:30:00Z", "xmas": "2026-12-25",
        "noon": "2026-01-24 12:00", "ten": "10:00", "jan20": "2026-01-20", "eight": "2026-01-24T08:00:00Z",
        "nine": "09:00", "tomorrow": "tomorrow", "prog": "0.5",
        "plus1d": "2026-01-25T09:30:00Z", "minus1d": "2026-01-23T09:30:00Z", "pi4": "3.14159",
    ]

    @Test(arguments: [
        // Text
        Case("{{s||upper}}", "STRASSE"),
        Case("{{mixed||lower}}", "hello"),
        Case("{{words||title}}", "Hello World"),
        Case("[{{sp||trim}}]", "[x]"),
        Case("{{n||prefix:#}}", "#7"),
        Case("{{n||prefix:a:b}}", "a:b7"),
        Case("{{n||suffix: km}}", "7 km"),
        Case("{{n||pad:3}}", "007"),
        Case("{{neg||pad:4}}", "-005"),
        Case("{{word||pad:5}}", "000ab"),
        Case("{{n||pad:1}}", "7"),
        Case("{{n||pad}}", "7"),
        Case("{{n||pad:x}}", "7"),
        // Numeric formatting (en_US)
        Case("{{amount||number}}", "1,234.5"),
        Case("{{amount||number:2}}", "1,234.50"),
        Case("{{amount||number:0}}", "1,235"),
        Case("{{half||number:0}}", "3"),
        Case("{{tricky||number:2}}", "2.68"),
        Case("{{amount||number:abc}}", "1234.5"),
        Case("{{word||number}}", "ab"),
        Case("{{frac||percent}}", "42%"),
        Case("{{pct||percent}}", "42%"),
        Case("{{frac4||percent:1}}", "42.6%"),
        Case("{{one||percent}}", "100%"),
        Case("{{big||percent}}", "150%"),
        // As specified, values above 1 are already percentages, so 1.5 is 1.5%, not 150%.
        Case("{{onehalf||percent}}", "2%"),
        Case("{{pi4||number:2}}", "3.14"),
        Case("{{amount||currency}}", "$1,234.50"),
        Case("{{amount||currency:EUR}}", "€1,234.50"),
        Case("{{amount||currency:eur}}", "€1,234.50"),
        Case("{{amount||currency:EURO}}", "1234.5"),
        // Numeric transforms; ties round away from zero, on the number as written.
        Case("{{half||round}}", "3"),
        Case("{{mhalf||round}}", "-3"),
        Case("{{tricky||round:2}}", "2.68"),
        Case("{{pi||round:2}}", "3.14"),
        Case("{{tiny||round:2}}", "1.01"),
        Case("{{pi||round:99}}", "3.14159"),
        Case("{{huge||round}}", "9.3e+18"),
        Case("{{f||floor}}", "2"),
        Case("{{mf||floor}}", "-3"),
        Case("{{c||ceil}}", "3"),
        Case("{{m4||abs}}", "4"),
        Case("{{fifteen||clamp:0:10}}", "10"),
        Case("{{m3||clamp:0:10}}", "0"),
        Case("{{fifteen||clamp:10:0}}", "10"),
        Case("{{fifteen||clamp:1}}", "15"),
        Case("{{word||round}}", "ab"),
        // Dates (now = Sat 2026-01-24 09:30 UTC)
        Case("{{day||date}}", "Jan 24, 2026"),
        Case("{{unix||date:yyyy-MM-dd}}", "2025-01-01"),
        Case("{{__now||date:EEE d MMM HH:mm}}", "Sat 24 Jan 09:30"),
        Case("{{word||date}}", "ab"),
        Case("{{twoago||relative}}", "2 hours ago"),
        Case("{{in3||relative}}", "in 3 days"),
        Case("{{tomorrow||relative}}", "in 15 hours"),
        Case("{{plus1d||relative}}", "tomorrow"),
        Case("{{minus1d||relative}}", "yesterday"),
        Case("{{__now||relative}}", "now"),
        Case("{{xmas||daysuntil}}", "335"),
        Case("{{noon||hoursuntil}}", "3"),
        Case("{{ten||minutesuntil}}", "30"),
        Case("{{jan20||daysuntil}}", "-4"),
        Case("{{jan20||sincedays}}", "5"),
        Case("{{eight||sincehours}}", "2"),
        Case("{{nine||sinceminutes}}", "30"),
        // Pluralisation
        Case("{{one||plural:item:items}}", "item"),
        Case("{{two||plural:item:items}}", "items"),
        Case("{{m1||plural:item:items}}", "item"),
        Case("{{zero||plural:item:items}}", "items"),
        Case("{{onef||plural:item:items}}", "item"),
        Case("{{three||plural:child:children}}", "children"),
        Case("{{two||plural:day}}", "days"),
        Case("{{word||plural:a:b}}", "ab"),
        // Progress bar
        Case("{{prog||bar:10}}", "█████░░░░░"),
        Case("{{threeq||bar:4}}", "███░"),
        Case("{{one||bar:4}}", "████"),
        Case("{{onehalf||bar:4}}", "░░░░"),
        Case("{{m1||bar:4}}", "░░░░"),
        Case("{{twohundred||bar:4}}", "████"),
        Case("{{prog||bar}}", "█████░░░░░"),
        Case("{{prog||bar:0}}", ""),
        // Unknown filters pass the value through; filters chain left to right.
        Case("{{n||frobnicate}}", "7"),
        Case("{{amount||round|number:0|prefix:$}}", "$1,235"),
        Case("{{n||suffix:x|upper}}", "7X"),
        Case("{{n||UPPER|Prefix:a}}", "a7"),
    ])
    func filter(_ row: Case) {
        #expect(TemplateFixture.render(row.template, vars: Self.vars) == row.expected)
    }

    @Test func localeAwareNumbers() {
        let vars = ["amount": "1234.5"]
        #expect(TemplateFixture.render("{{amount||number}}", locale: "de_DE", vars: vars) == "1.234,5")
        #expect(TemplateFixture.render("{{amount||currency:EUR}}", locale: "de_DE", vars: vars) == "1.234,50\u{a0}€")
        #expect(TemplateFixture.render("{{amount||currency}}", locale: "en_GB", vars: vars) == "£1,234.50")
    }

    @Test func dateFiltersUseTheRenderTimeZone() {
        let vars = ["t": "2026-01-24T03:00:00Z"]
        #expect(
            TemplateFixture.render("{{t||date:yyyy-MM-dd HH:mm}}", tz: "America/Los_Angeles", vars: vars)
                == "2026-01-23 19:00")
        #expect(TemplateFixture.render("{{t||date}}", tz: "Pacific/Kiritimati", vars: vars) == "Jan 24, 2026")
        #expect(
            TemplateFixture.render("{{t||date:EEEE}}", tz: "America/Los_Angeles", locale: "fr_FR", vars: vars)
                == "vendredi")
    }

    @Test func widthsAreCapped() {
        let padded = TemplateFixture.render("{{n||pad:99999999999999999999999}}", vars: ["n": "7"])
        #expect(padded.count == Filter.maximumPadWidth)
        #expect(padded.hasSuffix("07"))
        let bar = TemplateFixture.render("{{p||bar:1000000}}", vars: ["p": "1"])
        #expect(bar.count == Filter.maximumBarWidth)
    }
}
