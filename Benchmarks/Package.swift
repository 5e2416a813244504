import Foundation
// swift-tools-version: 6.1
// The benchmarks are their own package so the product never carries the benchmark dependency.
import PackageDescription

// SwiftPM names a path dependency after its folder, so the root package's identity is whatever the
// clone is called ("main", "widgetweaver", ...): derive it instead of hard-coding it.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

func suite(_ name: String, path: String, products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: products.map { .product(name: $0, package: rootFolder) } + [
            .product(name: "Benchmark", package: "benchmark")
        ],
        path: path,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

let package = Package(
    name: "WidgetWeaverBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        suite("NoiseBenchmarks", path: "Noise", products: ["NoiseDSP", "NoiseEngine", "AudioOutput"]),
        suite("VariablesBenchmarks", path: "Variables", products: ["TemplateLanguage", "WidgetDataKeys"]),
        suite("DesignBenchmarks", path: "Designs", products: ["WidgetDesign", "SharedStore", "NoiseDSP"]),
        // Parsing and expanding a busy .ics file (what `weaver calendar refresh` does per calendar).
        suite("ICalendarBenchmarks", path: "ICalendar", products: ["ICalendar"]),
        // Widget renderer: small PNG at 2× (target ≤ 5 ms p50), layout alone, memory over 10,000 renders.
        suite(
            "RenderBenchmarks", path: "Render",
            products: ["WidgetRender", "WidgetInputs", "CairoCanvas", "WidgetDesign", "WidgetDataKeys", "SharedStore"]),
        // The Editor's draft render route over HTTP to an in-process `weaver serve` (target ≤ 10 ms p50).
        suite(
            "EditorBenchmarks", path: "Editor",
            products: ["HomeScreen", "NetworkAddress", "WidgetDesign", "SharedStore"]),
        // `noise analyze` (60 s of a 44.1 kHz recording) and `noise match` (a 60 s recording; target ≤ 60 s).
        suite("TextureBenchmarks", path: "Texture", products: ["TextureStatistics", "TextureMatch", "NoiseEngine"]),
    ]
)
