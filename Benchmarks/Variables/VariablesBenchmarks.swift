import Benchmark
import Foundation
import TemplateLanguage
import WidgetDataKeys

/// A typical widget line: five tokens (two time keys, two custom variables, one maths
/// expression) and two filters, rendered against a pinned clock.
let typicalTemplate =
    "{{__time}} · {{__weekday}} · {{steps|0|number:0}} steps · {{=done/total*100|0|round}}% · {{city|--}}"

func typicalContext() -> RenderContext {
    var context = RenderContext(
        now: Date(timeIntervalSince1970: 1_769_247_000),
        timeZone: TimeZone(identifier: "Europe/London")!,
        locale: Locale(identifier: "en_US"), isPro: true)
    context.addCustomVariables([("steps", "8421"), ("done", "3"), ("total", "4"), ("city", "London")])
    return context
}

let benchmarks: @Sendable () -> Void = {
    // Passed to each benchmark rather than set globally: a mutable static is awkward in Swift 6 mode.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        maxDuration: .seconds(5))

    // Target: under 20 µs per render (p50), parse included.
    Benchmark("render typical template", configuration: configuration) { benchmark in
        let renderer = TemplateRenderer()
        let context = typicalContext()
        _ = renderer.render(typicalTemplate, in: context)  // warm the formatter cache
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(renderer.render(typicalTemplate, in: context))
        }
    }

    Benchmark("render pre-parsed typical template", configuration: configuration) { benchmark in
        let renderer = TemplateRenderer()
        let context = typicalContext()
        let template = Template(typicalTemplate)
        _ = renderer.render(template, in: context)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(renderer.render(template, in: context))
        }
    }

    Benchmark("parse typical template", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Template(typicalTemplate))
        }
    }

    Benchmark("evaluate maths expression", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try? MathExpression.evaluate(
                    "min(done, total) / max(total, 1) * 100 + 2^3", now: Date(timeIntervalSince1970: 0)
                ) { _ in "3" })
        }
    }
}
