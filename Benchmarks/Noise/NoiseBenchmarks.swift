import Benchmark
import NoiseDSP

/// The full chain: four layers, each with colour, low cut, high cut and three EQ bands active,
/// stereo at 48 kHz, into the limiter and fader. One iteration renders one second of audio in
/// 1024-frame blocks, so `throughput` (iterations/s) reads directly as "× real time".
func fullChainMachine() -> NoiseMachine {
    let layers = (0..<4).map { i in
        LayerSettings(volume: 0.8, colour: [0.3, 1.0, 1.6, 2.0][i], lowCutHz: [40, 80, 120, 200][i],
                      highCutHz: [16000, 9000, 6000, 3000][i], eqLowDb: 3, eqMidDb: -2, eqHighDb: -4)
    }
    let machine = NoiseMachine(spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 1024, channelCount: 2),
                               seed: 1, layers: layers, masterVolume: 0.8)
    machine.preroll()
    return machine
}

/// Renders one second (48 000 frames) in 1024-frame blocks, as the live engine does.
@inline(never)
func renderOneSecond(_ machine: NoiseMachine, _ buffer: UnsafeMutablePointer<Float>) {
    for _ in 0..<46 { machine.render(into: buffer, frameCount: 1024) }
    machine.render(into: buffer, frameCount: 48000 - 46 * 1024)
}

func measureOneSecondRenders(_ benchmark: Benchmark, _ machine: NoiseMachine) {
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 1024 * 2)
    defer { buffer.deallocate() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { renderOneSecond(machine, buffer) }
    benchmark.stopMeasurement()
    blackHole(buffer[0])
}

let benchmarks: @Sendable () -> Void = {
    let realTime = Benchmark.Configuration(metrics: [.throughput, .cpuTotal, .wallClock, .mallocCountTotal],
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

    Benchmark("Render 1 s, 1 layer on, 3 at zero volume", configuration: realTime) { benchmark in
        let machine = NoiseMachine(spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 1024, channelCount: 2), seed: 1,
                                   layers: [LayerSettings(volume: 0.8, colour: 1.8, lowCutHz: 30, highCutHz: 6000),
                                            LayerSettings(volume: 0), LayerSettings(volume: 0), LayerSettings(volume: 0)])
        machine.preroll()
        measureOneSecondRenders(benchmark, machine)
    }

    // The render thread's contract: after warm-up, a block allocates nothing, even while every
    // parameter of every layer ramps. Threshold: 0 allocations (Benchmarks/Thresholds).
    Benchmark("Render block with live parameter changes (allocations)",
              configuration: .init(metrics: [.mallocCountTotal], maxIterations: 10_000)) { benchmark in
        let machine = fullChainMachine()
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { buffer.deallocate() }
        var moved = LayerSettings(volume: 0.5, colour: 0.7, lowCutHz: 300, highCutHz: 5000, eqLowDb: -6, eqMidDb: 4, eqHighDb: 2)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            moved.colour = Float(i % 200) / 100
            machine.setLayer(i % 4, moved)
            machine.setMasterVolume(Float(i % 100) / 100)
            machine.render(into: buffer, frameCount: 256)
        }
        benchmark.stopMeasurement()
        blackHole(buffer[0])
    }
}
