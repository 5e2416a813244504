import NoiseDSP
import Testing

/// The machine's output does not depend on how the stream is cut into blocks: a live stream's
/// blocks are sized by latency (any size), an offline render's are 4096 frames cut where the timer
/// fades, and both must give the same samples.
@Suite struct BlockSizeExactnessTests {
    static let layers = [
        LayerSettings(
            volume: 0.9, colour: 1, lowCutHz: 60, highCutHz: 9000, eqMidDb: -3,
            movement: MovementSettings(periodSeconds: 2, levelDb: 3, highCutOctaves: 0.5)),
        LayerSettings(volume: 0.6, colour: 2),
        LayerSettings(volume: 0.8, colour: 0.3, highCutHz: 4000),
    ]

    /// Renders 2 s, cutting blocks by `sizes` (cycled); at the same frames as every other call it
    /// moves a layer, the master and both faders, so ramps start mid-block for some cuttings.
    static func render(blockSizes sizes: [Int]) -> [Float] {
        let total = 96_000
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 8192, channelCount: 2),
            seed: 77, layers: layers, faderPosition: 0)
        // Frames where a control changes; a block is cut there, as PlaybackTimeline cuts at the timer's fade.
        let events: [Int: (NoiseMachine) -> Void] = [
            0: { $0.fade(to: 1, seconds: 0.3) },
            20_011: { $0.setLayer(1, LayerSettings(volume: 0.3, colour: 1.5, lowCutHz: 200), rampSeconds: 0.4) },
            33_333: { $0.setMasterVolume(0.5, rampSeconds: 0.25) },
            50_007: { $0.fadeTimer(to: 0, seconds: 0.5) },
            81_001: { $0.fadeTimer(to: 1, seconds: 0.1) },
        ]
        let cuts = events.keys.sorted()
        var out = [Float](repeating: 0, count: total * 2)
        var done = 0, k = 0
        while done < total {
            events[done]?(machine)
            var n = min(sizes[k % sizes.count], total - done)
            if let next = cuts.first(where: { $0 > done }) { n = min(n, next - done) }
            out.withUnsafeMutableBufferPointer { machine.render(into: $0.baseAddress! + done * 2, frameCount: n) }
            done += n
            k += 1
        }
        return out
    }

    @Test func anyBlockSizesGiveTheSameSamples() {
        let reference = Self.render(blockSizes: [4096])
        // Loud enough that the limiter works at times, and not silent: the comparison means something.
        #expect(reference.contains { abs($0) > 0.1 })
        for sizes in [[1024], [441], [37], [1], [1000, 17, 4097, 32, 5], [31, 33]] {
            let other = Self.render(blockSizes: sizes)
            let first = zip(reference, other).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
            #expect(first == nil, "blocks \(sizes): first difference at sample \(first?.offset ?? -1)")
        }
    }
}
