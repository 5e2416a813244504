import Foundation
import TemplateLanguage
import WidgetDataKeys

// libFuzzer entry for the template parser, maths evaluator, date parser and key canonicaliser.
//
// Fuzzing build (the Makefile's `fuzz-vars`):
//   swift build -c debug --sanitize=fuzzer -Xswiftc -DFUZZING --product FuzzVariables --scratch-path .build-fuzz
// libFuzzer supplies `main` there. In the ordinary build (no FUZZING) this target gets a small
// `main` that replays input files instead, so `swift build` still links it and a crash file from
// the fuzzer can be re-run under the debugger: `.build/debug/FuzzVariables crash-...`.

/// One renderer for the whole run: formatter caching is part of what is exercised.
nonisolated(unsafe) let renderer = TemplateRenderer()
let context: RenderContext = {
    var c = RenderContext(
        now: Date(timeIntervalSince1970: 1_769_247_000), timeZone: TimeZone(identifier: "America/New_York")!,
        locale: Locale(identifier: "en_US"), isPro: true)
    c.addCustomVariables([
        ("x", "1"), ("name", "Ada"), ("when", "2026-01-24 08:15"), ("big", "9.3e18"),
        ("pipe", "a|b"), ("tmpl", "{{x}}"),
    ])
    return c
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVariables(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let output = renderer.render(text, in: context)
    precondition(output.utf8.count <= TemplateRenderer.maximumOutputBytes, "output exceeds the cap")
    // As a token body and as an expression, so short inputs reach the token and maths grammars.
    _ = renderer.render("{{" + text + "}}", in: context)
    _ = renderer.render("{{=" + text + "|f}}", in: context)
    if let value = try? MathExpression.evaluate(text, now: context.now, resolve: { _ in "2" }) {
        precondition(value.isFinite, "maths returned a non-finite value")
    }
    _ = DateParsing.parse(text, now: context.now, timeZone: context.timeZone)
    let key = KeyCanonicaliser.canonical(text)
    precondition(KeyCanonicaliser.canonical(key) == key, "canonicalisation is not idempotent")
    if let number = NumberText.parse(text) { precondition(number.isFinite) }
    return 0
}

#if !FUZZING
    import FuzzReplay

    @main
    struct ReplayInputs {
        static func main() { FuzzReplay.main("FuzzVariables", fuzzVariables) }
    }
#endif
