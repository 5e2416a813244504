import Foundation
import TestSupport
import Testing

@testable import TemplateLanguage

@Suite("Inline maths")
struct MathExpressionTests {
    static let vars = [
        "done": "3", "total": "4", "streak": "5", "text": "abc", "key with spaces": "10",
        "flag": "true", "off": "FALSE", "a|b": "2", "time": "5", "big": "9223372036854775807",
    ]

    @Test(arguments: [
        // Examples from the specification
        Case("{{=streak+1|0}}", "6"),
        Case("{{=done/total*100|0|number:0}}", "75"),
        // Operators and precedence
        Case("{{=1+2*3}}", "7"),
        Case("{{=(1+2)*3}}", "9"),
        Case("{{=7-2-1}}", "4"),
        Case("{{=16/4/2}}", "2"),
        Case("{{=7%3}}", "1"),
        Case("{{=-7%3}}", "-1"),
        Case("{{=7.5%2}}", "1.5"),
        Case("{{=2^3^2}}", "512"),
        Case("{{=-2^2}}", "-4"),
        Case("{{=2^-1}}", "0.5"),
        Case("{{=--3}}", "3"),
        Case("{{=+3}}", "3"),
        Case("{{=10/4}}", "2.5"),
        Case("{{= 1 + 2 }}", "3"),
        Case("{{=((((1))))}}", "1"),
        Case("{{=1e3}}", "1000"),
        Case("{{=.5+.5}}", "1"),
        // Output formatting: integers without a decimal point, others to 10 decimals.
        Case("{{=0.1+0.2}}", "0.3"),
        Case("{{=1/3}}", "0.3333333333"),
        Case("{{=-0}}", "0"),
        Case("{{=1/3-1/3}}", "0"),
        // Constants
        Case("{{=pi}}", "3.1415926536"),
        Case("{{=e}}", "2.7182818285"),
        Case("{{=PI*2}}", "6.2831853072"),
        // Functions
        Case("{{=min(3,1,2)}}", "1"),
        Case("{{=max(3, 1, 2)}}", "3"),
        Case("{{=min(4)}}", "4"),
        Case("{{=min(5, 4, 3, 2, 1)}}", "1"),
        Case("{{=max(1, 2, 3, 4, 5)}}", "5"),
        Case("{{=min(9, 8, 7, -1, 6)}}", "-1"),
        Case("{{=clamp(15,0,10)}}", "10"),
        Case("{{=clamp(-5,0,10)}}", "0"),
        Case("{{=clamp(5,10,0)}}", "5"),
        Case("{{=abs(-2)}}", "2"),
        Case("{{=floor(-1.5)}}", "-2"),
        Case("{{=ceil(1.2)}}", "2"),
        Case("{{=round(2.5)}}", "3"),
        Case("{{=round(-2.5)}}", "-3"),
        Case("{{=pow(2,10)}}", "1024"),
        Case("{{=sqrt(16)}}", "4"),
        Case("{{=log(e)}}", "1"),
        Case("{{=log(0)}}", "0"),
        Case("{{=log(-1)}}", "0"),
        Case("{{=exp(0)}}", "1"),
        Case("{{=now()}}", "1769247000"),
        Case("{{=now()-now()}}", "0"),
        Case("{{=ROUND(2.4)}}", "2"),
        // Function arguments that start with a name (the seed app cannot parse these).
        Case("{{=round(done/total)}}", "1"),
        Case("{{=max(done, total) - min(done, total)}}", "1"),
        // Variables
        Case(#"{{=var("key with spaces")}}"#, "10"),
        Case("{{=var('key with spaces')+1}}", "11"),
        Case("{{=var(key_with_spaces)}}", "10"),
        Case("{{=key_with_spaces*2}}", "20"),
        Case(#"{{=var("a|b")+1}}"#, "3"),
        Case("{{=text+1}}", "1"),
        Case("{{=missing+1}}", "1"),
        Case("{{=flag+off+1}}", "2"),
        Case("{{=Done+TOTAL}}", "7"),
        // A custom variable wins over the built-in of the same bare name.
        Case("{{=time}}", "5"),
        // Bare names fall back to built-ins; __ names read them directly.
        Case("{{=now_unix-now()}}", "0"),
        Case("{{=__now_unix-now()}}", "0"),
        Case(#"{{=var("__now_unix")-now()}}"#, "0"),
        // Failures use the fallback (or render nothing).
        Case("{{=1/0|div0}}", "div0"),
        Case("{{=5%0|mod0}}", "mod0"),
        Case("{{=done/missing|x}}", "x"),
        Case("{{=sqrt(-1)|nan}}", "nan"),
        Case("{{=exp(1000)|big}}", "big"),
        Case("{{=10^400|big}}", "big"),
        Case("{{=1e400|big}}", "big"),
        Case("[{{=1/0}}]", "[]"),
        Case("{{=|empty}}", "empty"),
        Case("{{=1+|bad}}", "bad"),
        Case("{{=(1+2|bad}}", "bad"),
        Case("{{=1 2|bad}}", "bad"),
        Case("{{=foo(1)|unknown}}", "unknown"),
        Case("{{=min()|a}}", "a"),
        Case("{{=pow(1)|a}}", "a"),
        Case("{{=now(1)|a}}", "a"),
        Case("{{=2pi|a}}", "a"),
        Case("{{=2e|a}}", "a"),
        // An unclosed quote runs to the end of the token, so there is no fallback either.
        Case(#"[{{=var("unclosed)|a}}]"#, "[]"),
        Case("{{=var(1)|a}}", "a"),
        Case("{{=\"text\"|a}}", "a"),
        // Huge results never trap: printed in exponent form.
        Case("{{=10^18*9.3}}", "9.3e+18"),
        Case("{{=big*2}}", "1.8446744073709552e+19"),
        Case("{{=round(1e300)}}", "1e+300"),
        Case("{{=floor(-9.3e18)}}", "-9.3e+18"),
        Case("{{=999999999999999}}", "999999999999999"),
        Case("{{=1000000000000000}}", "1000000000000000"),
        Case("{{=9007199254740991}}", "9007199254740991"),
        Case("{{=9007199254740992}}", "9007199254740992"),
        Case("{{=9007199254740992*2}}", "1.8014398509481984e+16"),
    ])
    func evaluates(_ row: Case) {
        #expect(TemplateFixture.render(row.template, vars: Self.vars) == row.expected)
    }

    @Test func depthIsLimited() {
        let ok = String(repeating: "(", count: 60) + "1" + String(repeating: ")", count: 60)
        #expect(TemplateFixture.render("{{=\(ok)}}") == "1")
        let deep = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(throws: MathError.tooDeep) { try MathExpression.evaluate(deep, now: TemplateFixture.now) { _ in nil } }
        #expect(TemplateFixture.render("{{=\(deep)|deep}}") == "deep")
        let signs = String(repeating: "-", count: 10_000) + "1"
        #expect(TemplateFixture.render("{{=\(signs)|deep}}") == "deep")
    }

    @Test func reportsWhyItFailed() {
        func error(_ source: String) -> MathError? {
            do {
                _ = try MathExpression.evaluate(source, now: TemplateFixture.now) { _ in nil }
                return nil
            } catch { return error }
        }
        #expect(error("1/0") == .divisionByZero)
        #expect(error("exp(1000)") == .notFinite)
        #expect(error("foo(1)") == .unknownFunction("foo"))
        #expect(error("pow(1)") == .wrongArgumentCount(function: "pow", expected: "2", got: 1))
        #expect(error("clamp(1, 2, 3, 4)") == .wrongArgumentCount(function: "clamp", expected: "3", got: 4))
        #expect(error("abs(1, 2, 3, 4, 5)") == .wrongArgumentCount(function: "abs", expected: "1", got: 5))
        // Arguments are evaluated before the name is checked, as before.
        #expect(error("foo(1/0)") == .divisionByZero)
        #expect(error("1 +") == .syntax(offset: 3, expected: "a number, name or '('"))
    }

    @Test func longFlatExpressionsDoNotRecurse() {
        let terms = Array(repeating: "1", count: 50_000).joined(separator: "+")
        #expect(TemplateFixture.render("{{=\(terms)}}") == "50000")
    }
}
