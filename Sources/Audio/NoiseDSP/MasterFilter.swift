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
    /// Each section's last output while a call runs, in the state's lane order (one vector per group).
    let pipe: UnsafeMutablePointer<SIMD8<Float>>
    @exclusivity(unchecked) var rampFrames = 0
    @exclusivity(unchecked) var rampDone = 0
    /// Sections in use (from the front); the rest are identity. Slots keep their roles (notch first,
    /// then the correction's bands), so a ramp moves each section towards its own next design.
    @exclusivity(unchecked) var activeCount = 0
    @exclusivity(unchecked) var targetActiveCount = 0

    /// The steady pipeline runs in `cnk_cascade_steady_avx2` (a group per 256-bit register, the
    /// same arithmetic in the same order, so the same bits as `runSteady`) when the CPU has AVX2.
    /// Tests turn it off to compare the two.
    @exclusivity(unchecked) var usesAVX2 = MasterFilter.cpuHasAVX2
    static let cpuHasAVX2 = cnk_has_avx2() != 0

    /// Mono's stereo-shaped scratch, `maximumFrameCount` frames.
    let scratchMono: UnsafeMutablePointer<Float>
    public let maximumFrameCount: Int

    /// - Parameter maximumFrameCount: the size of mono's scratch: a longer mono call runs in pieces
    ///   of this many frames (stereo calls may be any length).
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
        pipe = .allocate(capacity: Self.groupCount)
        pipe.initialize(repeating: .zero, count: Self.groupCount)
    }

    deinit {
        current.deallocate()
        start.deallocate()
        target.deallocate()
        state.deallocate()
        pipe.deallocate()
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

    /// Filters `frameCount` interleaved frames in place. While `isRamping`, one call is one control
    /// interval (coefficients move once per call); otherwise a call may cover any number of frames,
    /// and longer calls are cheaper per frame (the pipeline fills and drains once per call).
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

    /// Runs the sections in use. Leading groups not in use (the notch's slots when only a
    /// correction plays) are left out: an identity section at rest passes its input through exactly.
    @inline(__always)
    private func runCascade(_ x: UnsafeMutablePointer<Float>, frameCount n: Int) {
        let end = (activeCount + 3) / 4
        var first = 0
        while first < end && isIdle(first) { first += 1 }
        let c = current + 20 * first
        let s = UnsafeMutableRawPointer(state + 2 * first).assumingMemoryBound(to: Float.self)
        let stereo = UnsafeMutableRawPointer(x)
        let groups = end - first
        let lag = 4 * groups - 1
        if groups == 0 { return }
        if n < lag {
            // Too short to fill the pipeline: the plain cascade, section after section.
            for k in 0...lag { runSection(k, c, s, stereo, from: 0, to: n, firstInput: nil) }
            return
        }
        // Filling: section k takes samples 0..<(lag − k), in place, so that afterwards sample t
        // holds the output of section lag − 1 − t, the input the steady steps need next.
        for k in 0..<lag { runSection(k, c, s, stereo, from: 0, to: lag - k, firstInput: nil) }
        let y = UnsafeMutableRawPointer(pipe)
        for k in 0..<lag {
            y.storeBytes(
                of: stereo.loadUnaligned(fromByteOffset: 8 * (lag - 1 - k), as: SIMD2<Float>.self),
                toByteOffset: 8 * k, as: SIMD2<Float>.self)
        }
        if usesAVX2 {
            cnk_cascade_steady_avx2(
                Int32(groups), c, s, UnsafeMutableRawPointer(pipe).assumingMemoryBound(to: Float.self), x, n)
        } else {
            switch groups {
            case 1: runSteady(One.self, c, x, frameCount: n)
            case 2: runSteady(Two.self, c, x, frameCount: n)
            case 3: runSteady(Three.self, c, x, frameCount: n)
            case 4: runSteady(Four.self, c, x, frameCount: n)
            default: runSteady(Five.self, c, x, frameCount: n)
            }
        }
        // Draining: section k takes samples n − k..<n; its first input is section k − 1's last
        // steady output, the rest section k − 1's draining outputs, in place.
        for k in 1...lag {
            let first = y.load(fromByteOffset: 8 * (k - 1), as: SIMD2<Float>.self)
            runSection(k, c, s, stereo, from: n - k, to: n, firstInput: first)
        }
        // Flush what decays below hearing to zero, so idle groups and silence stay cheap.
        for i in 0..<(16 * groups) where s[i] < 1e-20 && s[i] > -1e-20 { s[i] = 0 }
    }

    /// Group `g`'s four sections are the identity and at rest.
    private func isIdle(_ g: Int) -> Bool {
        guard state[2 * g] == .zero && state[2 * g + 1] == .zero else { return false }
        let c = current + g * 20
        for k in 0..<4 {
            let p = c + k * 5
            if !(p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == 0 && p[4] == 0) { return false }
        }
        return true
    }

    /// Section `k` alone over frames `from..<to` of `x`, in place (the pipeline's filling and
    /// draining, and calls too short for it): the same arithmetic as a pipeline step, one section.
    /// `firstInput`, when given, replaces frame `from`'s input.
    @inline(__always)
    private func runSection(
        _ k: Int, _ c: UnsafeMutablePointer<Float>, _ state: UnsafeMutablePointer<Float>,
        _ x: UnsafeMutableRawPointer, from: Int, to: Int, firstInput: SIMD2<Float>?
    ) {
        guard from < to else { return }
        let p = c + 5 * k
        let b0 = SIMD2(repeating: p[0]), b1 = SIMD2(repeating: p[1]), b2 = SIMD2(repeating: p[2])
        let a1 = SIMD2(repeating: p[3]), a2 = SIMD2(repeating: p[4])
        // Section k's lanes: 2(k mod 4) in its group's first state vector, and 8 floats on.
        let lane = 16 * (k / 4) + 2 * (k % 4)
        let s = UnsafeMutableRawPointer(state + lane)
        var s1 = s.load(as: SIMD2<Float>.self), s2 = s.load(fromByteOffset: 32, as: SIMD2<Float>.self)
        for t in from..<to {
            let v =
                t == from && firstInput != nil
                ? firstInput! : x.loadUnaligned(fromByteOffset: 8 * t, as: SIMD2<Float>.self)
            let out = b0 * v + s1
            s1 = b1 * v - a1 * out + s2
            s2 = b2 * v - a2 * out
            x.storeBytes(of: out, toByteOffset: 8 * t, as: SIMD2<Float>.self)
        }
        s.storeBytes(of: s1, as: SIMD2<Float>.self)
        s.storeBytes(of: s2, toByteOffset: 32, as: SIMD2<Float>.self)
    }

    /// The steady part of one skewed pipeline across the whole cascade.
    ///
    /// Why: a biquad's recursion waits on its previous output, so one section at a time runs at
    /// the latency of a multiply and two adds per sample, whatever the vector width. Here section
    /// k works on sample t − k while section 0 takes sample t, so at each step every section's
    /// arithmetic is independent of the others' (each reads what the section before it produced
    /// one step earlier): the groups' vectors of four sections × two channels are computed side by
    /// side and the CPU overlaps their chains; a step is bound by arithmetic throughput, not by
    /// latency. Section k's input is section k − 1's output of the step before: every vector
    /// shifted up by two lanes, the previous vector's top two lanes entering at the bottom.
    ///
    /// The pipeline fills and drains section by section (`runSection`), so the steps here carry no
    /// mask or branch. Each section sees exactly the samples, in the order and with the arithmetic,
    /// of the plain cascade, so the output does not depend on how a signal is split into calls.
    ///
    /// `c`: the first group's coefficients; `pipe` holds each section's last output on entry and exit.
    @inline(__always)
    private func runSteady<G: GroupCount>(
        _: G.Type, _ c: UnsafeMutablePointer<Float>, _ x: UnsafeMutablePointer<Float>, frameCount n: Int
    ) {
        let first = (c - current) / 20
        let state = self.state + 2 * first
        let groups = G.value
        var g0 = Group(c, state, pipe)
        var g1 = groups > 1 ? Group(c + 20, state + 2, pipe + 1) : Group()
        var g2 = groups > 2 ? Group(c + 40, state + 4, pipe + 2) : Group()
        var g3 = groups > 3 ? Group(c + 60, state + 6, pipe + 3) : Group()
        var g4 = groups > 4 ? Group(c + 80, state + 8, pipe + 4) : Group()
        let raw = UnsafeMutableRawPointer(x)
        let lag = 4 * groups - 1
        var t = lag
        while t < n {
            let input = raw.loadUnaligned(fromByteOffset: 8 * t, as: SIMD2<Float>.self)
            // Every input is read before any group moves.
            let v0 = g0.input(below: input)
            let v1 = g1.input(below: g0.top)
            let v2 = g2.input(below: g1.top)
            let v3 = g3.input(below: g2.top)
            let v4 = g4.input(below: g3.top)
            g0.step(v0)
            if groups > 1 { g1.step(v1) }
            if groups > 2 { g2.step(v2) }
            if groups > 3 { g3.step(v3) }
            if groups > 4 { g4.step(v4) }
            let out: SIMD2<Float>
            switch groups {
            case 1: out = g0.top
            case 2: out = g1.top
            case 3: out = g2.top
            case 4: out = g3.top
            default: out = g4.top
            }
            raw.storeBytes(of: out, toByteOffset: 8 * (t - lag), as: SIMD2<Float>.self)
            t += 1
        }
        g0.save(state, pipe)
        if groups > 1 { g1.save(state + 2, pipe + 1) }
        if groups > 2 { g2.save(state + 4, pipe + 2) }
        if groups > 3 { g3.save(state + 6, pipe + 3) }
        if groups > 4 { g4.save(state + 8, pipe + 4) }
    }
}

/// How many groups a pipeline runs, as a type, so each count gets its own code.
private protocol GroupCount { static var value: Int { get } }
private enum One: GroupCount { static var value: Int { 1 } }
private enum Two: GroupCount { static var value: Int { 2 } }
private enum Three: GroupCount { static var value: Int { 3 } }
private enum Four: GroupCount { static var value: Int { 4 } }
private enum Five: GroupCount { static var value: Int { 5 } }

/// Four sections × two channels: coefficients, state and the last step's output.
/// Lanes are [s0 L, s0 R, s1 L, s1 R, s2 L, s2 R, s3 L, s3 R].
private struct Group {
    let b0: SIMD8<Float>, b1: SIMD8<Float>, b2: SIMD8<Float>, a1: SIMD8<Float>, a2: SIMD8<Float>
    var s1: SIMD8<Float>, s2: SIMD8<Float>, y: SIMD8<Float>

    /// A group not in use: never stepped.
    @inline(__always)
    init() { (b0, b1, b2, a1, a2, s1, s2, y) = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero) }

    /// `c`: 4 × 5 coefficients (b0, b1, b2, a1, a2 per section); `state`: two vectors; `y`: one.
    @inline(__always)
    init(
        _ c: UnsafeMutablePointer<Float>, _ state: UnsafeMutablePointer<SIMD8<Float>>,
        _ y: UnsafeMutablePointer<SIMD8<Float>>
    ) {
        func lanes(_ k: Int) -> SIMD8<Float> {
            SIMD8(c[k], c[k], c[5 + k], c[5 + k], c[10 + k], c[10 + k], c[15 + k], c[15 + k])
        }
        (b0, b1, b2, a1, a2) = (lanes(0), lanes(1), lanes(2), lanes(3), lanes(4))
        (s1, s2, self.y) = (state[0], state[1], y[0])
    }

    /// Section k − 1's previous output as section k's input: `y` shifted up two lanes, `below`
    /// (the output of the section before this group) entering at the bottom.
    @inline(__always)
    func input(below: SIMD2<Float>) -> SIMD8<Float> {
        SIMD8(
            lowHalf: SIMD4(lowHalf: below, highHalf: y.lowHalf.lowHalf),
            highHalf: SIMD4(lowHalf: y.lowHalf.highHalf, highHalf: y.highHalf.lowHalf))
    }

    /// The top two lanes: the last section's output.
    @inline(__always)
    var top: SIMD2<Float> { y.highHalf.highHalf }

    /// One step of transposed direct form II.
    @inline(__always)
    mutating func step(_ v: SIMD8<Float>) {
        let out = b0 * v + s1
        s1 = b1 * v - a1 * out + s2
        s2 = b2 * v - a2 * out
        y = out
    }

    @inline(__always)
    func save(_ state: UnsafeMutablePointer<SIMD8<Float>>, _ y: UnsafeMutablePointer<SIMD8<Float>>) {
        state[0] = s1
        state[1] = s2
        y[0] = self.y
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
