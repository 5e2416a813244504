import Foundation
// SplitMix64, the project's one seeded generator: the random inputs are the same on every run.
import NoiseDSP
import TestSupport
import Testing

@testable import TemplateLanguage

/// Templates come from imported designs and shared files: any text must render quickly, with
/// bounded output, and never crash.
@Suite("Hostile templates are bounded")
struct HostileInputTests {
    /// Generous for a debug build on a shared machine; release renders these far faster.
    static let budgetSeconds = 2.0

    static func timed(_ template: String, vars: [String: String] = ["x": "1"]) -> (String, Double) {
        let clock = ContinuousClock()
        var output = ""
        let elapsed = clock.measure { output = TemplateFixture.render(template, vars: vars) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (output, seconds)
    }

    @Test func unterminatedTokens() {
        let template = String(repeating: "{{", count: 50_000) + "x"
        let (output, seconds) = Self.timed(template)
        #expect(output == template)
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func manyUnterminatedOpeningsAfterTokens() {
        let template = String(repeating: "{{x}}{{", count: 20_000)
        let (output, seconds) = Self.timed(template)
        #expect(output.hasPrefix("1"))
        #expect(output.utf8.count < template.utf8.count)
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func tenThousandNestedParentheses() {
        let deep = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        let (output, seconds) = Self.timed("{{=\(deep)|too deep}}")
        #expect(output == "too deep")
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func hugeWidths() {
        let (output, seconds) = Self.timed("{{x||pad:999999999999}}{{x||bar:18446744073709551616}}{{x||number:999}}")
        // number:999 is clamped to 10 decimals: "1.0000000000".
        #expect(output.count == Filter.maximumPadWidth + Filter.maximumBarWidth + 12)
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func hundredKilobyteTemplate() {
        var template = ""
        let pieces = [
            "{{x||pad:200}}", "{{=x*2+3|0|number:2}}", "{{__now||date:yyyy-MM-dd}}", "plain text ",
            "{{missing|fallback||upper}}", "{{x||bar:200}}", "{{", "}}", "|", "{{=((1)|",
        ]
        var i = 0
        while template.utf8.count < 100_000 {
            template += pieces[i % pieces.count]
            i += 1
        }
        let (output, seconds) = Self.timed(template)
        #expect(output.utf8.count <= TemplateRenderer.maximumOutputBytes)
        #expect(output.hasPrefix(String(repeating: "0", count: 199) + "1"))
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func outputIsCapped() {
        let template = String(repeating: "{{x||bar:256}}", count: 10_000)
        let (output, seconds) = Self.timed(template)
        #expect(output.utf8.count <= TemplateRenderer.maximumOutputBytes)
        #expect(output.utf8.count > TemplateRenderer.maximumOutputBytes - 1_000)
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func thousandChainedFilters() {
        let filters = Array(repeating: "upper|lower|trim|prefix:a|round|pad:5|number:1", count: 143).joined(
            separator: "|")
        let (output, seconds) = Self.timed("{{x|0||\(filters)}}")
        #expect(!output.isEmpty)
        #expect(output.count < 2_000)
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func thousandDistinctDatePatterns() {
        let template = (0..<1_000).map { "{{__now||date:'\($0)' HH}}" }.joined()
        let (output, seconds) = Self.timed(template)
        #expect(output.hasPrefix("0 091 092 09"))
        #expect(seconds < Self.budgetSeconds * 2)
    }

    @Test func overflowAndNaNMaths() {
        let (output, seconds) = Self.timed(
            """
            {{=9.2e200*9.2e200|o}} {{=0/0|n}} {{=exp(exp(10))|o}} {{=pow(-8, 1/3)|n}} {{=round(9.3e18)}} \
            {{=floor(1e308)}}
            """
        )
        #expect(output == "o n o n 9.3e+18 1e+308")
        #expect(seconds < Self.budgetSeconds)
    }

    @Test func arbitraryBytesNeverCrash() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("{}|:=()+-*/%^,.\"' _aZ09xe\u{0}\u{7F}é😀\n\t".unicodeScalars)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 80) {
                text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
            }
            _ = TemplateFixture.render(text, vars: ["x": "1", "a": "2"])
            _ = TemplateFixture.render("{{" + text + "}}", vars: ["x": "1"])
            _ = TemplateFixture.render("{{=" + text + "}}", vars: ["x": "1"])
        }
    }
}
