import Benchmark
import Foundation
import NoiseDSP
import SharedStore
import WidgetDesign

// Targets (issue 6): a 10,000-design library lists and searches in under 100 ms; a 1,000-design
// package with 100 embedded images imports in under 3 s with peak memory under 200 MB; a remix
// of 12 variants takes under 5 ms. Setup (building the store or package) stays outside the
// measured part.

private func temporaryStore(_ label: String) -> StoreRoot {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "ww-bench-\(label)-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return StoreRoot(url: url)
}

private func sampleSpec(_ i: Int, image: String? = nil) -> WidgetSpec {
    var s = WidgetSpec(
        name: i % 7 == 0 ? "Météo \(i)" : "Design \(i)", primaryText: "Hello \(i)", secondaryText: "Line two",
        updatedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(i)), symbol: SymbolSpec(name: "sparkles"))
    s.style.accent = AccentToken.allCases[i % AccentToken.allCases.count]
    if let image { s.image = ImageSpec(fileName: image) }
    return s
}

/// Writes design files directly (no fsync per file) and lets the library build its index once.
private func libraryOf(_ count: Int) throws -> DesignLibrary {
    let root = temporaryStore("lib")
    try FileManager.default.createDirectory(at: root.designs, withIntermediateDirectories: true)
    for i in 0..<count {
        let s = sampleSpec(i)
        try s.encoded().write(to: root.designs.appendingPathComponent("\(s.id.uuidString).json"))
    }
    let lib = DesignLibrary(root: root)
    _ = try lib.summaries()
    return lib
}

private func packageData(designs: Int, images: Int, imageBytes: Int) throws -> Data {
    let root = temporaryStore("pkg")
    var rng = SplitMix64(seed: 1)
    var specs: [WidgetSpec] = []
    for i in 0..<designs {
        let name: String? = i < images ? "photo-\(i).png" : nil
        if let name {
            var bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            bytes.append(contentsOf: (0..<imageBytes).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            try FileSystem.atomicWrite(bytes, to: root.images.appendingPathComponent(name))
        }
        specs.append(sampleSpec(i, image: name))
    }
    return try DesignExchange.exportData(specs, embedImages: true, imagesFolder: root.images, now: Date())
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        maxDuration: .seconds(10), maxIterations: 50)

    Benchmark("Designs: list 10,000") { benchmark in
        let lib = try libraryOf(10_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try lib.summaries()) }
    }

    Benchmark("Designs: search 10,000 (accent-insensitive)") { benchmark in
        let lib = try libraryOf(10_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try lib.search("METEO 1")) }
    }

    Benchmark(
        "Designs: import 1,000 designs + 100 images",
        configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 5)
    ) { benchmark in
        let data = try packageData(designs: 1_000, images: 100, imageBytes: 100_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let store = temporaryStore("import")
            try ProEntitlement.set(true, root: store)
            let package = try DesignExchange.parse(data, fileName: "bench.wwdesign", now: Date())
            let review = ImportReview(package: package, isPro: true, existingCount: 0)
            blackHole(
                try DesignImporter(library: DesignLibrary(root: store)).importDesigns(
                    package, selection: review.defaultSelection))
        }
    }

    Benchmark("Designs: remix 12 variants") { benchmark in
        let spec = sampleSpec(1, image: "a.png")
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(Remixer.variants(of: spec, seed: UInt64(i), count: 12)) }
    }
}
