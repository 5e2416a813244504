import TestSupport
import Testing

@testable import TemplateLanguage
@testable import WidgetDataKeys

@Suite("Key canonicalisation")
struct KeyCanonicaliserTests {
    @Test(arguments: [
        ("last_done", "last done"),
        ("Last Done", "last done"),
        (" last   done ", "last done"),
        ("LAST__DONE", "last done"),
        ("\tlast \n done", "last done"),
        ("_x_", "x"),
        ("a_b c", "a b c"),
        ("   ", ""),
        ("", ""),
        ("Ünïcode Kéy", "ünïcode kéy"),
        ("__now", "__now"),
        (" __Steps Today ", "__steps_today"),
        ("__WEATHER_TEMP", "__weather_temp"),
        ("__noise  state", "__noise_state"),
    ])
    func canonical(_ raw: String, _ expected: String) {
        #expect(KeyCanonicaliser.canonical(raw) == expected)
    }

    @Test(arguments: ["{{last_done}}", "{{Last Done}}", "{{ last   done }}", "{{LAST_DONE}}"])
    func spellingsResolveToOneKey(_ template: String) {
        #expect(TemplateFixture.render(template, vars: ["last done": "yes"]) == "yes")
        #expect(TemplateFixture.render(template, vars: ["Last_Done": "yes"]) == "yes")
    }

    @Test func builtInKeysKeepTheirUnderscores() {
        #expect(TemplateFixture.render("{{__NOW_UNIX}}") == "1769247000")
        #expect(TemplateFixture.render("{{ __now unix }}") == "1769247000")
        // A single leading underscore is not the built-in prefix.
        #expect(TemplateFixture.render("{{_now_unix|custom}}") == "custom")
    }
}

@Suite("Pro gating")
struct ProGatingTests {
    @Test func customVariablesNeedPro() {
        #expect(TemplateFixture.render("{{name|locked}}", pro: false, vars: ["name": "Ada"]) == "locked")
        #expect(TemplateFixture.render("{{name|locked}}", pro: true, vars: ["name": "Ada"]) == "Ada")
        #expect(TemplateFixture.render("{{=n+1}}", pro: false, vars: ["n": "5"]) == "1")
        #expect(TemplateFixture.render("{{=n+1}}", pro: true, vars: ["n": "5"]) == "6")
    }

    @Test func builtInsResolveWithoutPro() {
        #expect(TemplateFixture.render("{{__time}} {{__today}}", pro: false) == "09:30 2026-01-24")
    }

    @Test func builtInsOverrideCustomVariablesOfTheSameName() {
        // A custom "__time" can never shadow the built-in.
        #expect(TemplateFixture.render("{{__time}}", vars: ["__time": "fake"]) == "09:30")
        var context = TemplateFixture.context()
        context.addCustomVariables([("__weather_temp", "99")])
        #expect(context.customVariables.isEmpty)
    }
}

@Suite("Key canonicalisation is idempotent")
struct KeyCanonicaliserIdempotenceTests {
    // A combining mark after a removed control character once fused with the inserted space.
    @Test(arguments: [
        "a\n\u{30C}b", "x\u{0}\u{308}", "\u{30C}", "_\u{30C}_", "__\n\u{301}x", "A\u{2028}\u{301}", "İstanbul",
    ])
    func canonicalOfCanonicalIsUnchanged(_ raw: String) {
        let once = KeyCanonicaliser.canonical(raw)
        #expect(KeyCanonicaliser.canonical(once) == once)
    }
}
