import NoiseDSP
import Testing

@Suite struct PeakLimiterTests {
    static func noise(_ count: Int, level: Float, seed: UInt64) -> [Float] {
        var g = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(Int64(bitPattern: g.next()) % 1000) / 1000 * level }
    }

    @Test func holdsTheCeilingOnHotPeaks() {
        var limiter = PeakLimiter(sampleRate: 48000, channelCount: 1, ceilingDb: -1)
        var x = Self.noise(96000, level: 0.3, seed: 1)
        for i in [1000, 16000, 31000] {
            x[i] = 4
            x[i + 1] = -3
        }  // +12 dB spikes
        x.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frameCount: $0.count) }
        let ceiling: Float = 0.891251  // −1 dBFS
        #expect(x.allSatisfy { abs($0) <= ceiling * 1.00001 })
        #expect(limiter.takeMinimumGain() < 0.25)
    }

    @Test func isBitExactBelowTheCeilingAndOnlyDelays() {
        var limiter = PeakLimiter(sampleRate: 48000, channelCount: 2)
        var x = Self.noise(20000, level: 0.5, seed: 2)
        let input = x
        x.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frameCount: $0.count / 2) }
        let delay = limiter.lookaheadFrames * 2
        #expect(Array(x[delay...]) == Array(input[..<(input.count - delay)]))
    }

    @Test func gainMovesSmoothlyAndRecovers() {
        var limiter = PeakLimiter(sampleRate: 48000, channelCount: 1, ceilingDb: -6)
        var x = [Float](repeating: 0.25, count: 96000)
        x[10000] = 1
        x.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frameCount: $0.count) }
        var gains = x.map { $0 / 0.25 }
        let spike = 10000 + limiter.lookaheadFrames
        gains[spike] = (gains[spike - 1] + gains[spike + 1]) / 2  // the spike's own sample is not gain
        #expect(x[spike] <= 0.501188)  // −6 dBFS held on the spike
        // The gain ramps over the look-ahead (240 frames): no step larger than 1/200 of the dip.
        let steps = zip(gains.dropFirst(), gains).map { abs($0 - $1) }
        #expect(steps[300..<20000].max()! < 0.01)
        #expect(gains[96000 - 1] > 0.99)  // 1.8 s later it has recovered
    }
}

@Suite struct PeakLimiterRecoveryTests {
    /// After limiting, the gain comes back to exactly 1: the limiter is bit-transparent (and on its
    /// idle fast path) again, not stuck a hair below unity for the rest of the night.
    @Test func returnsToExactTransparencyAfterLimiting() {
        var limiter = PeakLimiter(sampleRate: 48000, channelCount: 1, ceilingDb: -1)
        var x = [Float](repeating: 0.1, count: 48000 * 6)
        x[1000] = 3
        let input = x
        x.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress!, frameCount: $0.count) }
        let l = limiter.lookaheadFrames
        let end = x.count - 48000
        let transparent = Array(x[end...]) == Array(input[(end - l)..<(input.count - l)])
        #expect(transparent, "gain at the end: \(x[x.count - 1] / 0.1)")
    }
}

@Suite struct PeakLimiterDelayTests {
    /// Below the ceiling the output is the input delayed by exactly the look-ahead, whatever the
    /// block sizes (the idle path shifts whole blocks when they are longer than the delay line and
    /// swaps sample by sample when they are shorter).
    @Test func anyBlockSizesGiveAnExactDelay() {
        var limiter = PeakLimiter(sampleRate: 48000, channelCount: 2)
        var g = SplitMix64(seed: 5)
        let input = (0..<(2 * 30000)).map { _ in Float(Int64(bitPattern: g.next()) % 1000) / 2000 }
        var output = input
        var done = 0
        while done < 30000 {
            let n = min(Int(g.next() % 700) + 1, 30000 - done)  // 1…700 frames, look-ahead is 240
            output.withUnsafeMutableBufferPointer { limiter.process($0.baseAddress! + 2 * done, frameCount: n) }
            done += n
        }
        let delay = 2 * limiter.lookaheadFrames
        let exact = Array(output[delay...]) == Array(input[..<(input.count - delay)])
        #expect(exact)
        #expect(output[..<delay].allSatisfy { $0 == 0 })
    }
}
