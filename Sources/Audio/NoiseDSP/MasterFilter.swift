/// The master's hearing correction and notch: one cascade of biquads on the mixed stereo signal,
/// before the limiter.
///
/// Lifecycle: `init` allocates every buffer (off the render thread). `setTarget` copies a new
/// design into preallocated storage and starts a ramp; `process` runs the cascade. While it
/// ramps, each control interval's coefficients are a straight line from where the ramp started to
/// the target: the stability triangle of (a1, a2) is convex and contains the identity, so every
/// coefficient set on the way is stable, and the response glides instead of stepping (resetting
/// or stepping filter coefficients clicks). When every section is the identity and nothing ramps,
/// `process` returns at once, so a mix without correction or notch costs nothing and sounds as
/// it always did.
public final class MasterFilter {
    /// Correction bands plus notch sections.
    public static let capacity = CorrectionDesign.bandCentresHz.count + NotchDesign.sectionCount
    /// How long a switch takes: well past the 5–10 ms where a change is heard as a click.
    public static let defaultRampSeconds = 0.05

    /// Coefficients as five planes of `capacity` floats: current, ramp start and target.
    let current: UnsafeMutablePointer<Float>
    let start: UnsafeMutablePointer<Float>
    let target: UnsafeMutablePointer<Float>
    /// Sections run four at a time: a group's lanes are [s0 L, s0 R, s1 L, s1 R, …, s3 R].
    static let groupCount = (capacity + 3) / 4
    /// Two state vectors per group (transposed direct form II).
    let state: UnsafeMutablePointer<SIMD8<Float>>
    @exclusivity(unchecked) var rampFrames = 0
    @exclusivity(unchecked) var rampDone = 0
    /// Sections in use (from the front); the rest are identity. Slots keep their roles (notch first,
    /// then the correction's bands), so a ramp moves each section towards its own next design.
    @exclusivity(unchecked) var activeCount = 0
    @exclusivity(unchecked) var targetActiveCount = 0

    /// Mono's stereo-shaped scratch, `maximumFrameCount` frames.
    let scratchMono: UnsafeMutablePointer<Float>
    public let maximumFrameCount: Int

    /// - Parameter maximumFrameCount: the most frames one `process` call gets (one control interval).
    public init(maximumFrameCount: Int = 32) {
        self.maximumFrameCount = maximumFrameCount
        scratchMono = .allocate(capacity: 2 * maximumFrameCount)
        scratchMono.initialize(repeating: 0, count: 2 * maximumFrameCount)
        let n = Self.groupCount * 4 * 5
        current = .allocate(capacity: n)
        start = .allocate(capacity: n)
        target = .allocate(capacity: n)
        state = .allocate(capacity: Self.groupCount * 2)
        // Every slot starts as the identity, the last group's padding too.
        for p in [current, start, target] {
            p.initialize(repeating: 0, count: n)
            for s in 0..<(Self.groupCount * 4) { p[s * 5] = 1 }
        }
        state.initialize(repeating: .zero, count: Self.groupCount * 2)
    }

    deinit {
        current.deallocate()
        start.deallocate()
        target.deallocate()
        state.deallocate()
        scratchMono.deallocate()
    }

    /// True while any section filters or a ramp runs.
    public var isActive: Bool { activeCount > 0 || rampDone < rampFrames }

    /// Heads for `sections` (at most `capacity`; the rest become the identity) over `rampFrames`.
    ///
    /// Real-time safety: copies into preallocated storage; no allocation when `sections` is read
    /// through a pointer (`setTarget(_:count:rampFrames:)`).
    public func setTarget(_ sections: UnsafePointer<BiquadCoefficientsF>, count: Int, rampFrames frames: Int) {
        let count = min(count, Self.capacity)
        for s in 0..<Self.capacity {
            let c = s < count ? sections[s] : .identity
            target[s * 5] = c.b0
            target[s * 5 + 1] = c.b1
            target[s * 5 + 2] = c.b2
            target[s * 5 + 3] = c.a1
            target[s * 5 + 4] = c.a2
        }
        start.update(from: current, count: Self.capacity * 5)
        targetActiveCount = count
        activeCount = max(activeCount, count)
        rampFrames = max(frames, 0)
        rampDone = 0
        if rampFrames == 0 { finishRamp() }
    }

    private func finishRamp() {
        current.update(from: target, count: Self.capacity * 5)
        rampFrames = 0
        rampDone = 0
        // Trailing identity sections are skipped; their state is cleared so a later design starts clean
        // (an identity section's state is already zero once its input has passed through).
        activeCount = targetActiveCount
    }

    /// Clears the filter state.
    public func reset() { state.update(repeating: .zero, count: Self.groupCount * 2) }

    /// Filters `frameCount` interleaved frames in place (one control interval: coefficients move
    /// once per call while ramping).
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    public func process(_ buffer: UnsafeMutablePointer<Float>, frameCount n: Int, channelCount: Int) {
        guard isActive else { return }
        if rampDone < rampFrames {
            rampDone = min(rampDone + n, rampFrames)
            let t = Float(rampDone) / Float(rampFrames)
            for i in 0..<(activeCount * 5) { current[i] = start[i] + (target[i] - start[i]) * t }
        }
        if channelCount == 2 {
            runCascade(buffer, frameCount: n)
        } else {
            // Mono: the left lane carries the signal, the right lane idles at zero.
            for i in 0..<n {
                scratchMono[2 * i] = buffer[i]
                scratchMono[2 * i + 1] = 0
            }
            runCascade(scratchMono, frameCount: n)
            for i in 0..<n { buffer[i] = scratchMono[2 * i] }
        }
        if rampFrames > 0 && rampDone >= rampFrames { finishRamp() }
    }

    /// Runs the groups in order, each over the whole block.
    ///
    /// Why groups: a biquad's recursion waits on its previous output, so one section at a time runs
    /// at the latency of a multiply and two adds per sample, whatever the vector width. Here a
    /// group's four sections advance together, each one sample behind the one before it (section k
    /// works on sample t − k while section 0 takes sample t), so their arithmetic is independent
    /// and shares vector registers. The first and last three steps of a block mask the lanes whose
    /// sample lies outside it, so the skew adds no latency and the result is exactly the plain
    /// cascade's.
    @inline(__always)
    private func runCascade(_ x: UnsafeMutablePointer<Float>, frameCount n: Int) {
        let groups = (activeCount + 3) / 4
        for g in 0..<groups {
            let c = current + g * 20
            var idle = state[2 * g] == .zero && state[2 * g + 1] == .zero
            for k in 0..<4 where idle {
                let p = c + k * 5
                idle = p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == 0 && p[4] == 0
            }
            // A group not in use (the notch's slots when only a correction plays, and so on).
            if idle { continue }
            runGroup(g, x, frameCount: n)
        }
    }

    @inline(__always)
    /// `x`: interleaved stereo frames, read and written as floats (the buffer is bound to Float).
    private func runGroup(_ g: Int, _ x: UnsafeMutablePointer<Float>, frameCount n: Int) {
        let c = current + g * 20
        func lanes(_ k: Int) -> SIMD8<Float> {
            SIMD8(c[k], c[k], c[5 + k], c[5 + k], c[10 + k], c[10 + k], c[15 + k], c[15 + k])
        }
        let b0 = lanes(0), b1 = lanes(1), b2 = lanes(2), a1 = lanes(3), a2 = lanes(4)
        let section = SIMD8<Int32>(0, 0, 1, 1, 2, 2, 3, 3)
        var s1 = state[2 * g], s2 = state[2 * g + 1]
        var y = SIMD8<Float>.zero
        for t in 0..<(n + 3) {
            let input = t < n ? SIMD2(x[2 * t], x[2 * t + 1]) : .zero
            // Section k's input is section k − 1's output of the step before.
            let v = SIMD8(
                lowHalf: SIMD4(lowHalf: input, highHalf: y.lowHalf.lowHalf),
                highHalf: SIMD4(lowHalf: y.lowHalf.highHalf, highHalf: y.highHalf.lowHalf))
            let out = b0 * v + s1
            let n1 = b1 * v - a1 * out + s2
            let n2 = b2 * v - a2 * out
            if t >= 3 && t < n {
                s1 = n1
                s2 = n2
            } else {
                let sample = SIMD8<Int32>(repeating: Int32(t)) &- section
                let inside = (sample .>= 0) .& (sample .< Int32(n))
                s1.replace(with: n1, where: inside)
                s2.replace(with: n2, where: inside)
            }
            y = out
            if t >= 3 {
                x[2 * t - 6] = out[6]
                x[2 * t - 5] = out[7]
            }
        }
        // Flush what decays below hearing to zero, so idle groups and silence stay cheap.
        s1.replace(with: 0, where: (s1 .< 1e-20) .& (s1 .> -1e-20))
        s2.replace(with: 0, where: (s2 .< 1e-20) .& (s2 .> -1e-20))
        state[2 * g] = s1
        state[2 * g + 1] = s2
    }
}

/// Biquad coefficients as the render thread uses them (single precision, a0 = 1).
public struct BiquadCoefficientsF: Sendable, Equatable, BitwiseCopyable {
    public var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    public static let identity = BiquadCoefficientsF(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    public init(b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    public init(_ c: BiquadCoefficients) {
        self.init(b0: Float(c.b0), b1: Float(c.b1), b2: Float(c.b2), a1: Float(c.a1), a2: Float(c.a2))
    }
}
