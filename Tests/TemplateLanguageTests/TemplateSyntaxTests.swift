import TestSupport
import Testing

@testable import TemplateLanguage

@Suite("Template syntax, fallback and the || delimiter")
struct TemplateSyntaxTests {
    static let vars = [
        "name": "Ada", "empty": "", "pipe": "a|b", "amount": "1234.5", "progress": "0.5",
        "nested": "{{name}}",
    ]

    @Test(arguments: [
        Case("Hello {{name}}!", "Hello Ada!"),
        Case("{{missing|fallback}}", "fallback"),
        Case("{{empty|fb}}", "fb"),
        Case("[{{missing}}]", "[]"),
        // A missing key without fallback renders nothing and its filters do not run.
        Case("[{{missing||prefix:x}}]", "[]"),
        Case("{{name|fallback||upper}}", "ADA"),
        // With ||, the fallback may contain |.
        Case("{{missing|a|b||upper}}", "A|B"),
        // Without ||, the second segment is the fallback and the rest are filters.
        Case("{{missing|a|upper}}", "A"),
        Case("{{name|a|b}}", "Ada"),
        Case("{{amount|0|number:0}}", "1,235"),
        Case("{{progress|0|bar:10}}", "█████░░░░░"),
        Case("{{missing|0|bar:4}}", "░░░░"),
        Case("{{__now||date:HH:mm}}", "09:30"),
        Case("{{ name }}", "Ada"),
        Case("{{NAME}}", "Ada"),
        Case("{{}}", ""),
        Case("{{|fb}}", "fb"),
        Case("{{name|}}", "Ada"),
        // Fallbacks are verbatim, spaces included.
        Case("[{{missing| spaced }}]", "[ spaced ]"),
        // Unterminated tokens are literal text.
        Case("{{name", "{{name"),
        Case("a {{name}} {{", "a Ada {{"),
        Case("}}{{name}}{", "}}Ada{"),
        Case("{{a{{name}}", ""),
        // Values are never re-parsed as templates.
        Case("{{pipe}}", "a|b"),
        Case("{{nested}}", "{{name}}"),
        Case("{{name||frobnicate|upper}}", "ADA"),
        Case("{{=1+1||prefix:=}}", "=2"),
        Case("{{missing|=1+1}}", "=1+1"),
        Case("no tokens at all", "no tokens at all"),
        Case("", ""),
        Case("{{name}}{{name}}", "AdaAda"),
        Case("ünï {{name}} ✓", "ünï Ada ✓"),
    ])
    func renders(_ row: Case) {
        #expect(TemplateFixture.render(row.template, vars: Self.vars) == row.expected)
    }

    @Test func parsesIntoPartsOnce() {
        let template = Template("a{{x|f||upper|pad:3}}b")
        #expect(
            template.parts == [
                .literal("a"),
                .token(.init(base: .key("x"), fallback: "f", filters: [.upper, .pad(width: 3)])),
                .literal("b"),
            ])
    }

    @Test func expressionEndsAtFirstPipeOutsideQuotes() {
        let token = Template.Token(parsing: #"=var("a|b")+1|0||round"#)
        #expect(token.base == .maths(#"var("a|b")+1"#))
        #expect(token.fallback == "0")
        #expect(token.filters == [.round(decimals: 0)])
        #expect(TemplateFixture.render(#"{{=var("a|b")+1|0}}"#, vars: ["a|b": "2"]) == "3")
    }

    @Test func rendererIsReusableAcrossContexts() {
        let renderer = TemplateRenderer()
        let template = Template("{{__now||date:EEE HH:mm}}")
        #expect(renderer.render(template, in: TemplateFixture.context(tz: "UTC")) == "Sat 09:30")
        #expect(renderer.render(template, in: TemplateFixture.context(tz: "Pacific/Kiritimati")) == "Sat 23:30")
        #expect(renderer.render(template, in: TemplateFixture.context(tz: "UTC", locale: "fr_FR")) == "sam. 09:30")
    }
}
