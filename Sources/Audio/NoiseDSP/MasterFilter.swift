import CNoiseKernels

/// The master's hearing correction and notch: one cascade of biquads on the mixed stereo signal,
/// before the limiter.
///
/// Lifecycle: `init` allocates every buffer (off the render thread). `setTarget` copies a new
/// design into preallocated storage and starts a ramp; `process` runs the cascade. A design's
/// sections need not resemble the last one's (an adaptive correction has as many sections, of
/// whichever kinds, as its profile needs), so a switch cross-fades: while a ramp runs, the cascade
/// playing and the new one both filter the signal and the output moves from the first to the
/// second on a straight line, sample by sample (resetting or stepping a filter clicks). A target
/// set while a ramp runs waits for it to end (the latest one wins), so no fade is cut short. When
/// no section filters and nothing ramps, `process` returns at once, so a mix without correction or
/// notch costs nothing and sounds as it always did.
public final class MasterFilter {
    /// Sections `setTarget` takes (sections that only scale, such as the identity, fold into one
    /// gain); at most 20 filter: the kernel's five groups of four.
    public static let capacity = 20
    /// How long a switch takes: well past the 5–10 ms where a change is heard as a click.
    public static let defaultRampSeconds = 0.05

    /// One cascade as `cnk_cascade_df1` runs it: rows of (b1/b0, b2/b0, a1, a2), the product of the
    /// b0s as one gain on the input, and its history ((count + 1) × 4 floats).
    struct Cascade {
        let rows: UnsafeMutablePointer<Float>
        let history: UnsafeMutablePointer<Float>
        var count = 0
        var gain: Float = 1

        init() {
            rows = .allocate(capacity: 4 * MasterFilter.capacity)
            rows.initialize(repeating: 0, count: 4 * MasterFilter.capacity)
            history = .allocate(capacity: 4 * (MasterFilter.capacity + 1))
            history.initialize(repeating: 0, count: 4 * (MasterFilter.capacity + 1))
        }

        func deallocate() {
            rows.deallocate()
            history.deallocate()
        }

        /// True when it changes the signal.
        var filters: Bool { count > 0 || gain != 1 }

        func clearHistory() { history.update(repeating: 0, count: 4 * (MasterFilter.capacity + 1)) }

        /// Takes `other`'s sections (not its history).
        mutating func take(_ other: Cascade) {
            rows.update(from: other.rows, count: 4 * other.count)
            count = other.count
            gain = other.gain
        }

        func sameSections(as other: Cascade) -> Bool {
            guard count == other.count && gain == other.gain else { return false }
            for i in 0..<(4 * count) where rows[i] != other.rows[i] { return false }
            return true
        }
    }

    /// Which build of the kernel runs: the same C code compiled for three targets, with the same
    /// arithmetic in the same order, so the same bits. Tests switch it to compare them.
    enum Kernel { case baseline, avx2, avx512vl }
    @exclusivity(unchecked) var kernel: Kernel = MasterFilter.bestKernel
    static let cpuHasAVX2 = cnk_has_avx2() != 0
    static let cpuHasAVX512VL = cnk_has_avx512vl() != 0
    /// AVX-512VL's 32 vector registers hold three groups of sections and more without spilling.
    static let bestKernel: Kernel = cpuHasAVX512VL ? .avx512vl : cpuHasAVX2 ? .avx2 : .baseline

    /// The cascade playing, the one fading in while a ramp runs, and a target waiting for the ramp.
    @exclusivity(unchecked) var playing = Cascade()
    @exclusivity(unchecked) var incoming = Cascade()
    @exclusivity(unchecked) var waiting = Cascade()
    @exclusivity(unchecked) var hasWaiting = false
    @exclusivity(unchecked) var waitingRampFrames = 0
    @exclusivity(unchecked) var rampFrames = 0
    @exclusivity(unchecked) var rampDone = 0

    /// The incoming cascade's copy of the signal while a ramp runs, and mono's stereo-shaped
    /// scratch: `maximumFrameCount` frames each.
    let scratchIncoming: UnsafeMutablePointer<Float>
    let scratchMono: UnsafeMutablePointer<Float>
    public let maximumFrameCount: Int

    /// - Parameter maximumFrameCount: the size of the scratch buffers: a longer mono call, or a
    ///   longer stereo call while a ramp runs, is filtered in pieces of this many frames.
    public init(maximumFrameCount: Int = 32) {
        self.maximumFrameCount = maximumFrameCount
        scratchMono = .allocate(capacity: 2 * maximumFrameCount)
        scratchMono.initialize(repeating: 0, count: 2 * maximumFrameCount)
        scratchIncoming = .allocate(capacity: 2 * maximumFrameCount)
        scratchIncoming.initialize(repeating: 0, count: 2 * maximumFrameCount)
    }

    deinit {
        playing.deallocate()
        incoming.deallocate()
        waiting.deallocate()
        scratchMono.deallocate()
        scratchIncoming.deallocate()
    }

    /// True while any section filters or a ramp runs.
    public var isActive: Bool { playing.filters || rampFrames > 0 }

    /// True while a ramp runs.
    var isRamping: Bool { rampFrames > 0 }

    /// Sections of the cascade playing that filter (for tests and the benchmark's note).
    public var sectionsPlaying: Int { playing.count }

    /// Heads for `sections` (at most `capacity`) over `rampFrames`; at once when `rampFrames` is 0.
    ///
    /// Real-time safety: copies into preallocated storage; no allocation when `sections` is read
    /// through a pointer (`setTarget(_:count:rampFrames:)`).
    public func setTarget(_ sections: UnsafePointer<BiquadCoefficientsF>, count: Int, rampFrames frames: Int) {
        Self.load(&waiting, sections, count: min(count, Self.capacity))
        if frames <= 0 {
            playing.take(waiting)
            playing.clearHistory()
            rampFrames = 0
            rampDone = 0
            hasWaiting = false
        } else if rampFrames > 0 {
            hasWaiting = true
            waitingRampFrames = frames
        } else if !playing.sameSections(as: waiting) {
            startRamp(frames)
        }
    }

    /// The waiting target becomes the incoming cascade, from rest.
    private func startRamp(_ frames: Int) {
        incoming.take(waiting)
        incoming.clearHistory()
        rampFrames = frames
        rampDone = 0
        hasWaiting = false
    }

    /// Folds sections that only scale into the gain; each other section's b0 is divided out. (A
    /// design normalises in double precision, so its sections arrive with b0 = 1 and one scaling
    /// section: the division is then exact.)
    private static func load(_ c: inout Cascade, _ sections: UnsafePointer<BiquadCoefficientsF>, count: Int) {
        var gain: Float = 1
        var used = 0
        for i in 0..<count {
            let s = sections[i]
            gain *= s.b0
            if s.b1 == 0 && s.b2 == 0 && s.a1 == 0 && s.a2 == 0 { continue }
            let b0: Float = s.b0 != 0 ? s.b0 : 1
            c.rows[4 * used] = s.b1 / b0
            c.rows[4 * used + 1] = s.b2 / b0
            c.rows[4 * used + 2] = s.a1
            c.rows[4 * used + 3] = s.a2
            used += 1
        }
        c.count = used
        c.gain = gain
    }

    /// Clears the filters' history.
    public func reset() {
        playing.clearHistory()
        incoming.clearHistory()
    }

    /// Filters `frameCount` interleaved frames in place; a call may cover any number of frames, and
    /// longer calls are a little cheaper per frame (the pipeline fills and drains once per call).
    ///
    /// Real-time safety: no allocation, lock, I/O or logging.
    public func process(_ buffer: UnsafeMutablePointer<Float>, frameCount n: Int, channelCount: Int) {
        guard isActive else { return }
        if channelCount == 2 {
            processStereo(buffer, frameCount: n)
            return
        }
        // Mono: the left lane carries the signal, the right lane idles at zero.
        var done = 0
        while done < n {
            let m = min(n - done, maximumFrameCount)
            let x = buffer + done
            for i in 0..<m {
                scratchMono[2 * i] = x[i]
                scratchMono[2 * i + 1] = 0
            }
            processStereo(scratchMono, frameCount: m)
            for i in 0..<m { x[i] = scratchMono[2 * i] }
            done += m
        }
    }

    private func processStereo(_ x: UnsafeMutablePointer<Float>, frameCount n: Int) {
        var done = 0
        while done < n {
            if rampFrames == 0 {
                run(playing, x + 2 * done, frameCount: n - done)
                return
            }
            let m = min(n - done, maximumFrameCount, rampFrames - rampDone)
            let p = x + 2 * done
            scratchIncoming.update(from: p, count: 2 * m)
            run(playing, p, frameCount: m)
            run(incoming, scratchIncoming, frameCount: m)
            let step = 1 / Float(rampFrames)
            for i in 0..<m {
                let w = Float(rampDone + i + 1) * step
                p[2 * i] += (scratchIncoming[2 * i] - p[2 * i]) * w
                p[2 * i + 1] += (scratchIncoming[2 * i + 1] - p[2 * i + 1]) * w
            }
            rampDone += m
            done += m
            if rampDone >= rampFrames { finishRamp() }
        }
    }

    /// The incoming cascade (its history too) plays from now on; a waiting target starts its ramp.
    private func finishRamp() {
        swap(&playing, &incoming)
        rampFrames = 0
        rampDone = 0
        if hasWaiting { startRamp(waitingRampFrames) }
    }

    @inline(__always)
    private func run(_ c: Cascade, _ x: UnsafeMutablePointer<Float>, frameCount n: Int) {
        if c.count == 0 {
            if c.gain != 1 { for i in 0..<(2 * n) { x[i] *= c.gain } }
            return
        }
        let count = Int32(c.count)
        switch kernel {
        case .avx512vl: cnk_cascade_df1_avx512vl(count, c.rows, c.gain, c.history, x, n)
        case .avx2: cnk_cascade_df1_avx2(count, c.rows, c.gain, c.history, x, n)
        case .baseline: cnk_cascade_df1(count, c.rows, c.gain, c.history, x, n)
        }
        // Flush what decays below hearing to zero, so silence stays cheap (no subnormals).
        let h = c.history
        for i in 0..<(4 * (c.count + 1)) where h[i] < 1e-20 && h[i] > -1e-20 { h[i] = 0 }
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
