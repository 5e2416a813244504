import Benchmark
import NoiseDSP

#if canImport(Glibc)
    import Glibc
#endif

/// The full chain: four layers, each with colour, low cut, high cut and three EQ bands active,
/// stereo at 48 kHz, into the limiter and fader. One iteration renders one second of audio in
/// 1024-frame blocks, so `throughput` (iterations/s) reads directly as "× real time".
/// With `movement`, every layer also swells in level (±6 dB) and high cut (±1 octave) every ~4 s.
func fullChainMachine(movement: Bool = false) -> NoiseMachine {
    let layers = (0..<4).map { i in
        LayerSettings(
            volume: 0.8, colour: [0.3, 1.0, 1.6, 2.0][i], lowCutHz: [40, 80, 120, 200][i],
            highCutHz: [16000, 9000, 6000, 3000][i], eqLowDb: 3, eqMidDb: -2, eqHighDb: -4,
            movement: movement ? MovementSettings(periodSeconds: 4, levelDb: 6, highCutOctaves: 1) : .still)
    }
    let machine = NoiseMachine(
        spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 1024, channelCount: 2),
        seed: 1, layers: layers, masterVolume: 0.8)
    machine.preroll()
    return machine
}

/// The full chain with layer 0 making drops (40/s) instead of noise: the textured rain layer's cost.
func dropsChainMachine() -> NoiseMachine {
    let machine = fullChainMachine()
    var drops = machine.layer(0)
    drops.texture = TextureSettings(kind: .drops, densityPerSecond: 40)
    machine.setLayer(0, drops, rampSeconds: 0)
    machine.preroll()
    return machine
}

/// Four layers of one statistical texture at its densest (the bed's eight subbands per channel, its
/// drivers, taps at 400/s through their low-pass, the kind's share of them ringing), each through
/// the full chain.
func textureChainMachine(_ kind: TextureKind) -> NoiseMachine {
    let machine = fullChainMachine()
    for i in 0..<4 {
        var l = machine.layer(i)
        l.texture = TextureSettings(kind: kind, densityPerSecond: 400, brightness: 0.5)
        machine.setLayer(i, l, rampSeconds: 0)
    }
    machine.preroll()
    return machine
}

/// Four layers of rain at its densest (the allocation benchmark's start).
func rainChainMachine() -> NoiseMachine { textureChainMachine(.rain) }

/// Every statistics-driven kind, for one speed benchmark each.
let statisticalKinds = TextureKind.allCases.filter { TextureSettings(kind: $0).isStatistical }

/// Renders one second (48 000 frames) in 1024-frame blocks, as the live engine does.
@inline(never)
func renderOneSecond(_ machine: NoiseMachine, _ buffer: UnsafeMutablePointer<Float>) {
    for _ in 0..<46 { machine.render(into: buffer, frameCount: 1024) }
    machine.render(into: buffer, frameCount: 48000 - 46 * 1024)
}

/// This thread's CPU time in nanoseconds. Wall clock on this shared 2-core machine reads the
/// other processes' load as well (p50 wall times 2-10x the CPU time at a load of 10), and
/// `cpuTotal` counts whole 10 ms ticks; the thread's own clock counts nanoseconds of our work only.
func threadCPUNanoseconds() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return t.tv_sec * 1_000_000_000 + t.tv_nsec
}

/// The render's own figures, from the thread's CPU clock: microseconds per second of audio, and
/// × real time on one core (1 s of audio over its CPU time).
let cpuPerAudioSecond = BenchmarkMetric.custom("CPU per 1 s of audio (μs)", useScalingFactor: false)
let timesRealTime = BenchmarkMetric.custom(
    "× real time (thread CPU)", polarity: .prefersLarger, useScalingFactor: false)

func measureOneSecondRenders(_ benchmark: Benchmark, _ machine: NoiseMachine) {
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 1024 * 2)
    defer { buffer.deallocate() }
    let cpuBefore = threadCPUNanoseconds()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { renderOneSecond(machine, buffer) }
    benchmark.stopMeasurement()
    let perSecond = (threadCPUNanoseconds() - cpuBefore) / benchmark.scaledIterations.count
    benchmark.measurement(cpuPerAudioSecond, perSecond / 1000)
    benchmark.measurement(timesRealTime, 1_000_000_000 / max(perSecond, 1))
    blackHole(buffer[0])
}

/// Blocks rendered per sample of an allocation benchmark: each sample builds and warms a machine
/// (most of its time), so with one block per sample a run checked only a handful of blocks.
let blocksPerSample = 2000

let benchmarks: @Sendable () -> Void = {
    // No `cpuTotal`: it counts whole 10 ms ticks (a render of 1 s takes 1.3-7 ms), and reading it
    // allocated 16 times per sample, which Malloc (total) then showed for every render here.
    let realTime = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal, cpuPerAudioSecond, timesRealTime],
        warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 2000)

    // What the harness itself costs per iteration with this configuration, to read the others against.
    Benchmark("Baseline: empty iteration", configuration: realTime) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(0) }
        benchmark.stopMeasurement()
    }

    Benchmark("Render 1 s, 4 layers, full chain, stereo 48 kHz", configuration: realTime) { benchmark in
        measureOneSecondRenders(benchmark, fullChainMachine())
    }

    // Movement on every layer: modulators and the moving high cuts' coefficients (every 256 frames).
    Benchmark("Render 1 s, 4 layers, full chain with movement, stereo 48 kHz", configuration: realTime) { benchmark in
        measureOneSecondRenders(benchmark, fullChainMachine(movement: true))
    }

    // Layer 0 plays drops (Poisson onsets at 40/s, each a gliding resonance on a voice).
    Benchmark("Render 1 s, 4 layers, full chain, one of them drops, stereo 48 kHz", configuration: realTime) {
        benchmark in
        measureOneSecondRenders(benchmark, dropsChainMachine())
    }

    // Every layer one statistical kind at 400 events/s, one benchmark per kind (issue 37 asks >= 200x
    // for the heaviest): rain, surf, wind, fire, fan, stream, thunder.
    for kind in statisticalKinds {
        Benchmark(
            "Render 1 s, 4 layers of \(kind.name) (400/s), full chain, stereo 48 kHz", configuration: realTime
        ) { benchmark in
            measureOneSecondRenders(benchmark, textureChainMachine(kind))
        }
    }

    Benchmark("Render 1 s, 1 layer on, 3 at zero volume", configuration: realTime) { benchmark in
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 1024, channelCount: 2), seed: 1,
            layers: [
                LayerSettings(volume: 0.8, colour: 1.8, lowCutHz: 30, highCutHz: 6000),
                LayerSettings(volume: 0), LayerSettings(volume: 0), LayerSettings(volume: 0),
            ])
        machine.preroll()
        measureOneSecondRenders(benchmark, machine)
    }

    // The render thread's contract: after warm-up, a block allocates nothing, even while every
    // parameter of every layer ramps and every layer moves. Threshold: 0 allocations (Benchmarks/Thresholds).
    Benchmark(
        "Render block with live parameter changes (allocations)",
        configuration: .init(metrics: [.mallocCountTotal], maxIterations: 10_000)
    ) { benchmark in
        let machine = fullChainMachine(movement: true)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { buffer.deallocate() }
        var moved = LayerSettings(
            volume: 0.5, colour: 0.7, lowCutHz: 300, highCutHz: 5000, eqLowDb: -6, eqMidDb: 4, eqHighDb: 2,
            movement: MovementSettings(periodSeconds: 3, levelDb: 4, highCutOctaves: 0.5))
        benchmark.startMeasurement()
        for i in 0..<blocksPerSample {
            moved.colour = Float(i % 200) / 100
            moved.movement.levelDb = Float(i % 13)
            moved.movement.periodSeconds = Float(2 + i % 20)
            machine.setLayer(i % 4, moved)
            machine.setMasterVolume(Float(i % 100) / 100)
            machine.render(into: buffer, frameCount: 256)
        }
        benchmark.stopMeasurement()
        blackHole(buffer[0])
    }

    // Textures keep the contract: drops and crackle at their densest (voices stolen when the pool
    // is full), densities and brightness changing, layers switching texture. Threshold: 0.
    Benchmark(
        "Render block with textures (allocations)",
        configuration: .init(metrics: [.mallocCountTotal], maxIterations: 10_000)
    ) { benchmark in
        let machine = fullChainMachine(movement: true)
        for i in 0..<4 {
            var l = machine.layer(i)
            l.texture = TextureSettings(kind: i % 2 == 0 ? .drops : .crackle, densityPerSecond: 400)
            machine.setLayer(i, l, rampSeconds: 0)
        }
        machine.preroll()
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { buffer.deallocate() }
        let kinds: [TextureKind] = [.drops, .crackle, .noise]
        benchmark.startMeasurement()
        for i in 0..<blocksPerSample {
            var l = machine.layer(i % 4)
            l.texture = TextureSettings(
                kind: kinds[(i / 4) % 3], densityPerSecond: Float(1 + i % 400), brightness: Float(i % 11) / 10)
            machine.setLayer(i % 4, l)
            machine.render(into: buffer, frameCount: 256)
        }
        benchmark.stopMeasurement()
        blackHole(buffer[0])
    }

    // The master's hearing correction (an ISO 226 40-phon compensation, fitted in 4 sections) and a
    // one-octave notch at 6 kHz (4 sections) on the full chain: their cost is this against the full
    // chain's.
    Benchmark(
        "Render 1 s, 4 layers, full chain with hearing correction and notch, stereo 48 kHz", configuration: realTime
    ) {
        benchmark in
        let machine = fullChainMachine()
        machine.setMasterFilter(hearingAndNotch.0, rampSeconds: 0)
        machine.preroll()
        measureOneSecondRenders(benchmark, machine)
    }

    // A heavier design: the 20-phon compensation needs 7 sections, so with the notch three groups of
    // four, which spill out of AVX2's 16 vector registers (AVX-512VL's 32 hold them).
    Benchmark(
        "Render 1 s, 4 layers, full chain with a 20-phon correction and notch, stereo 48 kHz",
        configuration: realTime
    ) {
        benchmark in
        let machine = fullChainMachine()
        machine.setMasterFilter(
            MasterFilterDesign(correction: .equalLoudness(phon: 20), notch: NotchSettings(centreHz: 6000))
                .sections(sampleRate: 48000), rampSeconds: 0)
        machine.preroll()
        measureOneSecondRenders(benchmark, machine)
    }

    // Correction and notch on, switched between two designs every eighth block (each switch a 50 ms
    // cross-fade; one asked for during a fade waits for it): still no allocation. Threshold: 0
    // (Benchmarks/Thresholds).
    Benchmark(
        "Render block with hearing correction and notch switching (allocations)",
        configuration: .init(metrics: [.mallocCountTotal], maxIterations: 10_000)
    ) { benchmark in
        let machine = fullChainMachine(movement: true)
        let designs = [hearingAndNotch.0, hearingAndNotch.1]
        machine.setMasterFilter(designs[0], rampSeconds: 0)
        machine.preroll()
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { buffer.deallocate() }
        benchmark.startMeasurement()
        for i in 0..<blocksPerSample {
            if i % 8 == 0 { machine.setMasterFilter(designs[(i / 8) % 2]) }
            machine.render(into: buffer, frameCount: 256)
        }
        benchmark.stopMeasurement()
        blackHole(buffer[0])
    }

    // The statistical textures keep the contract: every kind in turn on every layer, densities and
    // brightness changing, at the densest rain. Threshold: 0.
    Benchmark(
        "Render block with statistical textures (allocations)",
        configuration: .init(metrics: [.mallocCountTotal], maxIterations: 10_000)
    ) { benchmark in
        let machine = rainChainMachine()
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { buffer.deallocate() }
        let kinds: [TextureKind] = [.rain, .surf, .wind, .fire, .fan, .stream, .noise]
        benchmark.startMeasurement()
        for i in 0..<blocksPerSample {
            var l = machine.layer(i % 4)
            l.texture = TextureSettings(
                kind: kinds[(i / 4) % kinds.count], densityPerSecond: Float(1 + i % 400),
                brightness: Float(i % 11) / 10)
            machine.setLayer(i % 4, l)
            machine.render(into: buffer, frameCount: 256)
        }
        benchmark.stopMeasurement()
        blackHole(buffer[0])
    }
}

/// Two master filter designs, computed once (off the measured loop): correction plus notch.
let hearingAndNotch: ([BiquadCoefficientsF], [BiquadCoefficientsF]) = (
    MasterFilterDesign(correction: .equalLoudness(phon: 40), notch: NotchSettings(centreHz: 6000))
        .sections(sampleRate: 48000),
    MasterFilterDesign(correction: .equalLoudness(phon: 60), notch: NotchSettings(centreHz: 4000, widthOctaves: 0.5))
        .sections(sampleRate: 48000)
)
