import Benchmark
import CairoCanvas
import Foundation
import SharedStore
import WidgetDataKeys
import WidgetDesign
import WidgetInputs
import WidgetRender

/// The catalogue's Noise Machine design and a classic design, laid out and drawn as a small PNG
/// at 2× (340×340 px), in process, against pinned inputs.
func pinnedInputs() -> RenderInputs {
    let now = Date(timeIntervalSince1970: 1_769_247_000)
    var inputs = RenderInputs(
        context: RenderContext(
            now: now, timeZone: TimeZone(identifier: "Europe/London")!,
            locale: Locale(identifier: "en_GB")))
    inputs.noise = NoiseWidgetState(
        playback: .playing, mixName: "Rain on a tent",
        layers: [.init(enabled: true, volume: 0.7, colour: 2), .init(enabled: true, volume: 0.3, colour: 1)],
        masterVolume: 0.7, timerRemainingSeconds: 1380, updatedAt: now)
    return inputs
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput],
        maxDuration: .seconds(5))
    let now = Date(timeIntervalSince1970: 1_769_247_000)

    // Target: layout + draw + PNG encode of a small widget at 2× ≤ 5 ms p50.
    for template in ["noise-machine", "classic"] {
        Benchmark("small PNG at 2x: \(template)", configuration: configuration) { benchmark in
            let renderer = WidgetRenderer()
            let design = try! TemplateCatalogue.find(template)!.design(now: now)
            let inputs = pinnedInputs()
            // warm the font caches
            _ = try! renderer.png(renderer.layout(design: design, family: .small, scale: 2, inputs: inputs))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try! renderer.png(renderer.layout(design: design, family: .small, scale: 2, inputs: inputs)))
            }
        }
    }

    // The Weather template with the seed's rain surface (core, grain, surface band, mist) over a
    // heavy burst with a light tail, at the render's clock. Target (issue 26): ≤ 3 ms p50.
    Benchmark("small PNG at 2x: weather with the rain surface", configuration: configuration) { benchmark in
        let renderer = WidgetRenderer()
        let design = try! TemplateCatalogue.find("weather")!.design(now: now)
        var inputs = pinnedInputs()
        inputs.weather = rainyWeather(fetchedAt: now.addingTimeInterval(-300))
        _ = try! renderer.png(renderer.layout(design: design, family: .small, scale: 2, inputs: inputs))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! renderer.png(renderer.layout(design: design, family: .small, scale: 2, inputs: inputs)))
        }
    }

    // What the Editor's dock asks for on every edit (POST /api/drafts/{id}/render): the inputs
    // read from a store (variables, snapshots, Pro), the layout and a medium PNG at 2×. The route
    // adds only the request's parsing around this. Target (issue 24): ≤ 10 ms p50.
    Benchmark("draft render: medium PNG at 2x from a store", configuration: configuration) { benchmark in
        let renderer = WidgetRenderer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ww-bench-draft-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = StoreRoot(url: folder)
        let design = try! TemplateCatalogue.find("classic")!.design(now: now)
        func draw() -> [UInt8] {
            let inputs = RenderInputs.gather(
                for: design, root: root, now: now, timeZone: TimeZone(identifier: "Europe/London")!,
                locale: Locale(identifier: "en_GB"))
            return try! renderer.png(renderer.layout(design: design, family: .medium, scale: 2, inputs: inputs))
        }
        _ = draw()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(draw()) }
    }

    // The PNG writer alone (CairoCanvas.PNGEncoder, zlib level 1, no filter) on the drawn pixels.
    Benchmark("PNG encode only: noise-machine small at 2x", configuration: configuration) { benchmark in
        let renderer = WidgetRenderer()
        let design = try! TemplateCatalogue.find("noise-machine")!.design(now: now)
        let image = try! renderer.pixels(
            renderer.layout(design: design, family: .small, scale: 2, inputs: pinnedInputs()))
        let encoder = try! PNGEncoder(compression: .fast)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            image.argb.withUnsafeBufferPointer { pixels in
                blackHole(
                    try! encoder.encode(
                        argb: pixels.baseAddress!, width: image.width, height: image.height, rowPixels: image.width))
            }
        }
    }

    Benchmark("layout only: noise-machine large", configuration: configuration) { benchmark in
        let renderer = WidgetRenderer()
        let design = try! TemplateCatalogue.find("noise-machine")!.design(now: now)
        let inputs = pinnedInputs()
        _ = renderer.layout(design: design, family: .large, scale: 2, inputs: inputs)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(renderer.layout(design: design, family: .large, scale: 2, inputs: inputs))
        }
    }

    // 10,000 renders in one process: resident memory after them minus before (kB), and the growth
    // over the last 5,000 alone. A leak of a surface, layout or font per render shows in both as
    // megabytes; the allocator settling its free lists (glibc keeps freed blocks in place) shows
    // only in the first.
    let growth = BenchmarkMetric.custom("residentGrowthKB", polarity: .prefersSmaller, useScalingFactor: false)
    let lateGrowth = BenchmarkMetric.custom(
        "residentGrowthLast5000KB", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "10,000 small PNG renders: resident growth",
        configuration: .init(
            metrics: [.wallClock, .peakMemoryResident, growth, lateGrowth],
            scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 1)
    ) { benchmark in
        let renderer = WidgetRenderer()
        let design = try! TemplateCatalogue.find("noise-machine")!.design(now: now)
        let inputs = pinnedInputs()
        // Warm-up long enough for glibc's free lists to settle (a one-off step of ~0.4–7 MB within the
        // first 2,500 renders, then flat: 30,000 renders measured).
        for _ in 0..<2_500 {
            blackHole(try! renderer.png(renderer.layout(design: design, family: .small, scale: 2, inputs: inputs)))
        }
        let before = residentKB()
        var half = 0
        benchmark.startMeasurement()
        for i in 0..<10_000 {
            if i == 5_000 { half = residentKB() }
            blackHole(try! renderer.png(renderer.layout(design: design, family: .small, scale: 2, inputs: inputs)))
        }
        // Read before stopping: the harness allocates ~0.4 MB for its results when it stops.
        let after = residentKB()
        benchmark.stopMeasurement()
        print("resident before \(before) kB, after 5,000 renders \(half) kB, after 10,000 \(after) kB")
        benchmark.measurement(growth, max(0, after - before))
        benchmark.measurement(lateGrowth, max(0, after - half))
    }
}

/// Four hours of minute bins: a downpour peaking at 9 mm/h 20 minutes after the fetch, a light
/// tail, and uncertain drizzle later (the chart's worst case: several runs, tapers, low chance).
func rainyWeather(fetchedAt: Date) -> WeatherState {
    let bins: [(Double, Double)] = (0..<240).map { i in
        if (25..<41).contains(i) { return (0.8 + 8.2 * pow(sin(.pi * Double(i - 24) / 17), 2), 0.9) }
        if (44..<50).contains(i) { return (0.4, 0.6) }
        if i >= 52 { return (0.35, 0.2) }
        return (0, 0.3)
    }
    return WeatherState(
        location: "London",
        current: .init(
            fetchedAt: fetchedAt, condition: "Rain", symbol: "cloud.rain.fill", temperatureC: 7.4, highC: 9, lowC: 3.2,
            minutes: .init(startsAt: fetchedAt, intensityMMh: bins.map(\.0), chance: bins.map(\.1))))
}

/// VmRSS from /proc/self/status, in kB.
func residentKB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}
