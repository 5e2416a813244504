#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A look-ahead peak limiter that guarantees no output sample exceeds `ceiling`, with a smooth
/// gain curve (no clicks, no distortion from hard clipping).
///
/// For every input frame the gain that would just keep it under the ceiling is g[n]. The limiter
/// takes the minimum of g over a window of L+1 frames (L = look-ahead), lets that minimum recover
/// with a release time constant, and averages it over L+1 frames with a box filter. Every term of
/// the average for the frame now leaving the delay line covers that frame's own g, so the applied
/// gain is never above it: the ceiling holds exactly, and the gain moves in straight ramps that
/// start L frames before a peak. When nothing needs limiting the gain is exactly 1 (bit-exact).
///
/// Real-time safety: all buffers are allocated in `init`; `process` is O(1) amortised per frame.
public struct PeakLimiter: ~Copyable {
    public let ceiling: Float
    public let lookaheadFrames: Int
    let channelCount: Int
    let releaseCoefficient: Double

    // Delay line, interleaved, L frames.
    let delay: UnsafeMutablePointer<Float>
    /// L frames of scratch for the idle path's block shift.
    let spare: UnsafeMutablePointer<Float>
    var delayIndex = 0
    // Monotonic deque of (frame, gain) for the sliding minimum.
    let dequeFrames: UnsafeMutablePointer<Int>
    let dequeGains: UnsafeMutablePointer<Float>
    var dequeHead = 0
    var dequeCount = 0
    let dequeCapacity: Int
    // Box filter over the released minimum.
    let box: UnsafeMutablePointer<Float>
    var boxIndex = 0
    var boxSum: Double
    /// In Double: in Float the recovery step rounds away and stalls 0.0025 dB below unity.
    var released: Double = 1
    var frame = 0
    /// The lowest gain applied since the last `takeMinimumGain()`, for metering.
    public private(set) var minimumGain: Float = 1

    /// - Parameters:
    ///   - ceilingDb: highest output peak, dBFS.
    ///   - lookaheadSeconds: how early the gain starts to move before a peak (adds this latency).
    ///   - releaseSeconds: time constant of the recovery after a peak.
    public init(
        sampleRate: Double, channelCount: Int, ceilingDb: Double = -0.5,
        lookaheadSeconds: Double = 0.005, releaseSeconds: Double = 0.2
    ) {
        ceiling = Float(pow(10, ceilingDb / 20))
        lookaheadFrames = max(1, Int((lookaheadSeconds * sampleRate).rounded()))
        self.channelCount = channelCount
        releaseCoefficient = 1 - exp(-1 / (releaseSeconds * sampleRate))
        delay = .allocate(capacity: lookaheadFrames * channelCount)
        delay.initialize(repeating: 0, count: lookaheadFrames * channelCount)
        spare = .allocate(capacity: lookaheadFrames * channelCount)
        spare.initialize(repeating: 0, count: lookaheadFrames * channelCount)
        // A power of two, so ring indices wrap with a mask instead of a division.
        var capacity = 1
        while capacity < lookaheadFrames + 2 { capacity <<= 1 }
        dequeCapacity = capacity
        dequeFrames = .allocate(capacity: dequeCapacity)
        dequeFrames.initialize(repeating: 0, count: dequeCapacity)
        dequeGains = .allocate(capacity: dequeCapacity)
        dequeGains.initialize(repeating: 1, count: dequeCapacity)
        box = .allocate(capacity: lookaheadFrames + 1)
        box.initialize(repeating: 1, count: lookaheadFrames + 1)
        boxSum = Double(lookaheadFrames + 1)
    }

    deinit {
        delay.deallocate()
        spare.deallocate()
        dequeFrames.deallocate()
        dequeGains.deallocate()
        box.deallocate()
    }

    /// True when the gain is exactly 1 and nothing in the window needs less: a block whose peaks
    /// stay under the ceiling then only passes through the delay line (the common case).
    var isIdle: Bool {
        released == 1 && boxSum == Double(lookaheadFrames + 1) && dequeCount <= 1
            && (dequeCount == 0 || dequeGains[dequeHead] == 1)
    }

    func blockPeak(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) -> Float {
        var peak: Float = 0
        for i in 0..<(frameCount * channelCount) { peak = max(peak, abs(samples[i])) }
        return peak
    }

    /// The idle path: delay by the look-ahead, gain 1; the window then holds one entry of gain 1.
    mutating func delayOnly(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) {
        let channels = channelCount
        let l = lookaheadFrames
        if frameCount >= l {
            // Whole-block shift with three copies instead of a swap per sample: keep the block's
            // last L frames, move the rest L frames later, and put the delay line in front.
            let floats = MemoryLayout<Float>.stride
            memcpy(spare, samples + (frameCount - l) * channels, l * channels * floats)
            memmove(samples + l * channels, samples, (frameCount - l) * channels * floats)
            let tail = l - delayIndex
            memcpy(samples, delay + delayIndex * channels, tail * channels * floats)
            memcpy(samples + tail * channels, delay, delayIndex * channels * floats)
            memcpy(delay, spare, l * channels * floats)
            delayIndex = 0
        } else {
            delaySwap(samples, frameCount: frameCount)
        }
        frame &+= frameCount
        // The box holds only ones here; its index still moves as the full path would move it, so
        // when the box's running sum is next rebuilt does not depend on how the stream was cut into blocks.
        boxIndex = (boxIndex + frameCount) % (l + 1)
        if frameCount > 0 {
            dequeHead = 0
            dequeCount = 1
            dequeFrames[0] = frame - 1
            dequeGains[0] = 1
        }
    }

    private mutating func delaySwap(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) {
        let channels = channelCount
        for i in 0..<frameCount {
            let p = samples + i * channels
            let d = delay + delayIndex * channels
            for c in 0..<channels {
                let x = p[c]
                p[c] = d[c]
                d[c] = x
            }
            delayIndex += 1
            if delayIndex == lookaheadFrames { delayIndex = 0 }
        }
    }

    public mutating func reset() {
        delay.update(repeating: 0, count: lookaheadFrames * channelCount)
        box.update(repeating: 1, count: lookaheadFrames + 1)
        boxSum = Double(lookaheadFrames + 1)
        dequeHead = 0
        dequeCount = 0
        released = 1
        minimumGain = 1
    }

    public mutating func takeMinimumGain() -> Float {
        let g = minimumGain
        minimumGain = 1
        return g
    }

    /// Limits `frameCount` interleaved frames in place (they come out `lookaheadFrames` later).
    public mutating func process(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) {
        if isIdle && blockPeak(samples, frameCount: frameCount) <= ceiling {
            delayOnly(samples, frameCount: frameCount)
            return
        }
        let channels = channelCount
        let window = lookaheadFrames + 1
        let mask = dequeCapacity - 1
        for i in 0..<frameCount {
            let p = samples + i * channels
            var peak: Float = 0
            for c in 0..<channels { peak = max(peak, abs(p[c])) }
            // NaN never reaches here in practice; treat it as needing full attenuation anyway.
            let g: Float = peak > ceiling ? ceiling / peak : (peak.isNaN ? 0 : 1)

            // Sliding minimum over the last L+1 frames.
            while dequeCount > 0 {
                let back = (dequeHead + dequeCount - 1) & mask
                if dequeGains[back] >= g { dequeCount -= 1 } else { break }
            }
            let tail = (dequeHead + dequeCount) & mask
            dequeFrames[tail] = frame
            dequeGains[tail] = g
            dequeCount += 1
            if dequeFrames[dequeHead] <= frame - window {
                dequeHead = (dequeHead + 1) & mask
                dequeCount -= 1
            }
            let windowMin = dequeGains[dequeHead]

            released = min(Double(windowMin), released + (1 - released) * releaseCoefficient)
            // Snap the last 1e-6 (−0.00001 dB) so the limiter becomes exactly transparent (and
            // idle) again instead of approaching unity forever.
            if windowMin == 1 && released > 1 - 1e-6 { released = 1 }
            let boxed = Float(released)
            boxSum += Double(boxed) - Double(box[boxIndex])
            box[boxIndex] = boxed
            boxIndex += 1
            if boxIndex == window {
                boxIndex = 0
                // Re-add from scratch once per window so the running sum never drifts.
                var s = 0.0
                for j in 0..<window { s += Double(box[j]) }
                boxSum = s
            }
            let gain = min(Float(boxSum / Double(window)), 1)
            minimumGain = min(minimumGain, gain)

            let d = delay + delayIndex * channels
            for c in 0..<channels {
                let x = p[c]
                p[c] = d[c] * gain
                d[c] = x
            }
            delayIndex += 1
            if delayIndex == lookaheadFrames { delayIndex = 0 }
            frame &+= 1
        }
    }
}
