import Benchmark
import NoiseEngine
import TextureMatch
import TextureStatistics

/// 60 s of a 44.1 kHz "recording": noise swelling at irregular 0.3–0.9 Hz with sparse clicks,
/// deterministic, so both benchmarks measure the same work every run.
func syntheticRecording(seconds: Double, rate: Int) -> [Double] {
    let n = Int(seconds * Double(rate))
    let g = GaussianSamples.make(count: n, seed: 11), slow = GaussianSamples.make(count: n / 4410 + 2, seed: 12)
    var out = [Double](repeating: 0, count: n)
    for i in 0..<n {
        let j = i / 4410, f = Double(i % 4410) / 4410
        let swell = 1 + 0.5 * (slow[j] * (1 - f) + slow[j + 1] * f)
        out[i] = 0.1 * g[i] * max(swell, 0.1) + (i % 7919 == 0 ? 0.8 : 0)
    }
    return out
}

let benchmarks: @Sendable () -> Void = {
    let slow = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 0, maxDuration: .seconds(120),
        maxIterations: 3)

    // What `noise analyze FILE` computes after decoding: 44.1 → 20 kHz, the 60 s excerpt's statistics
    // (exact resolution, as texstat), profile and swell regularity.
    Benchmark("Analyze 60 s of a 44.1 kHz recording", configuration: slow) { benchmark in
        let recording = syntheticRecording(seconds: 62, rate: 44100)
        benchmark.startMeasurement()
        let resampled = PolyphaseResampler(inputRate: 44100, outputRate: CochlearFilterbank.sampleRate)
            .process(recording)
        let excerpt = AnalysisExcerpt(totalSeconds: 62).samples(of: resampled)
        let analysis = TextureAnalysis(signal: excerpt)
        benchmark.stopMeasurement()
        blackHole(analysis.stats[.m4])
    }

    // What `noise match RECORDING` does after decoding, on a 60 s recording with the default budget
    // (240 renders of 8 s; thunder, tried as a second and a third layer, on 30 s renders that count
    // their length): the target is ≤ 60 s on this machine.
    Benchmark(
        "Match a 60 s recording",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal], warmupIterations: 0, maxDuration: .seconds(300), maxIterations: 1)
    ) { benchmark in
        let recording = syntheticRecording(seconds: 62, rate: 44100)
        let resampled = PolyphaseResampler(inputRate: 44100, outputRate: CochlearFilterbank.sampleRate)
            .process(recording)
        let excerpt = AnalysisExcerpt(totalSeconds: 62).samples(of: resampled)
        benchmark.startMeasurement()
        let report = MixSearch().match(target: excerpt, name: "benchmark")
        benchmark.stopMeasurement()
        blackHole(report.after.total)
    }
}
