import CNoiseKernels

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
    /// Correction bands plus notch sections (at most 20: the kernel's five groups of four).
    public static let capacity = CorrectionDesign.bandCentresHz.count + NotchDesign.sectionCount
    /// How long a switch takes: well past the 5–10 ms where a change is heard as a click.
    public static let defaultRampSeconds = 0.05

    /// Coefficients, five floats per section (b0, b1, b2, a1, a2): current, ramp start and target.
    let current: UnsafeMutablePointer<Float>
    let start: UnsafeMutablePointer<Float>
    let target: UnsafeMutablePointer<Float>
    /// Four floats per section (transposed direct form II): s1 left, s1 right, s2 left, s2 right.
    let state: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) var rampFrames = 0
    @exclusivity(unchecked) var rampDone = 0
    /// Sections in use (from the front); the rest are identity. Slots keep their roles (notch first,
    /// then the correction's bands), so a ramp moves each section towards its own next design.
    @exclusivity(unchecked) var activeCount = 0
    @exclusivity(unchecked) var targetActiveCount = 0

    /// The cascade runs in `cnk_cascade_avx2` when the CPU has AVX2, else in `cnk_cascade` (the
    /// same C code for the baseline target: the same arithmetic in the same order, so the same
    /// bits). Tests switch it to compare the two.
    @exclusivity(unchecked) var usesAVX2 = MasterFilter.cpuHasAVX2
    static let cpuHasAVX2 = cnk_has_avx2() != 0

    /// Mono's stereo-shaped scratch, `maximumFrameCount` frames.
    let scratchMono: UnsafeMutablePointer<Float>
    public let maximumFrameCount: Int

    /// - Parameter maximumFrameCount: the size of mono's scratch: a longer mono call runs in pieces
    ///   of this many frames (stereo calls may be any length).
    public init(maximumFrameCount: Int = 32) {
        precondition(Self.capacity <= 20, "cnk_cascade runs at most 20 sections")
        self.maximumFrameCount = maximumFrameCount
        scratchMono = .allocate(capacity: 2 * maximumFrameCount)
        scratchMono.initialize(repeating: 0, count: 2 * maximumFrameCount)
        let n = Self.capacity * 5
        current = .allocate(capacity: n)
        start = .allocate(capacity: n)
        target = .allocate(capacity: n)
        for p in [current, start, target] {
            p.initialize(repeating: 0, count: n)
            for s in 0..<Self.capacity { p[s * 5] = 1 }
        }
        state = .allocate(capacity: Self.capacity * 4)
        state.initialize(repeating: 0, count: Self.capacity * 4)
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

    /// True while coefficients still move: each `process` call is then one control interval.
    var isRamping: Bool { rampDone < rampFrames }

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
        // Trailing identity slots are left out (a notch alone is 5 sections, not 19); a section
        // ramping to the identity still runs until the ramp ends (`activeCount` covers it).
        var used = count
        while used > 0 && isIdentity(target + 5 * (used - 1)) { used -= 1 }
        targetActiveCount = used
        activeCount = max(activeCount, used)
        rampFrames = max(frames, 0)
        rampDone = 0
        if rampFrames == 0 { finishRamp() }
    }

    private func finishRamp() {
        current.update(from: target, count: Self.capacity * 5)
        rampFrames = 0
        rampDone = 0
        // Trailing identity sections are skipped from now on; their state is cleared so a later
        // design starts clean.
        if targetActiveCount < activeCount {
            (state + 4 * targetActiveCount).update(repeating: 0, count: 4 * (activeCount - targetActiveCount))
        }
        activeCount = targetActiveCount
    }

    /// Clears the filter state.
    public func reset() { state.update(repeating: 0, count: Self.capacity * 4) }

    /// Filters `frameCount` interleaved frames in place. While `isRamping`, one call is one control
    /// interval (coefficients move once per call); otherwise a call may cover any number of frames,
    /// and longer calls are a little cheaper per frame (the pipeline fills and drains once per call).
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
            var done = 0
            while done < n {
                let m = min(n - done, maximumFrameCount)
                let x = buffer + done
                for i in 0..<m {
                    scratchMono[2 * i] = x[i]
                    scratchMono[2 * i + 1] = 0
                }
                runCascade(scratchMono, frameCount: m)
                for i in 0..<m { x[i] = scratchMono[2 * i] }
                done += m
            }
        }
        if rampFrames > 0 && rampDone >= rampFrames { finishRamp() }
    }

    /// Runs the sections in use. Leading sections not in use (the notch's slots when only a
    /// correction plays) are left out: an identity section at rest passes its input through exactly.
    @inline(__always)
    private func runCascade(_ x: UnsafeMutablePointer<Float>, frameCount n: Int) {
        var first = 0
        while first < activeCount && isIdle(first) { first += 1 }
        let count = activeCount - first
        if count == 0 { return }
        let c = current + 5 * first
        let s = state + 4 * first
        if usesAVX2 {
            cnk_cascade_avx2(Int32(count), c, s, x, n)
        } else {
            cnk_cascade(Int32(count), c, s, x, n)
        }
        // Flush what decays below hearing to zero, so idle sections and silence stay cheap.
        for i in 0..<(4 * count) where s[i] < 1e-20 && s[i] > -1e-20 { s[i] = 0 }
    }

    /// Section `k` is the identity and at rest.
    private func isIdle(_ k: Int) -> Bool {
        let s = state + 4 * k
        return isIdentity(current + 5 * k) && s[0] == 0 && s[1] == 0 && s[2] == 0 && s[3] == 0
    }

    /// The five coefficients at `p` are (1, 0, 0, 0, 0).
    private func isIdentity(_ p: UnsafeMutablePointer<Float>) -> Bool {
        p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == 0 && p[4] == 0
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
