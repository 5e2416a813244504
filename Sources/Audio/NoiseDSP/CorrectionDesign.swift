import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a hearing profile (gains at centre frequencies) into the master's smooth correction: as
/// few RBJ sections (low shelves, high shelves, peaking; each with its own frequency, Q and gain)
/// as reproduce the profile, plus one overall gain.
///
/// Why this design: every section costs the render thread time (issue 38's budget is 10 % of the
/// four-layer chain), and smooth profiles need few: an ISO 226 40-phon compensation takes 4, 60
/// phon 2. The fit is greedy: each round adds the candidate from a third-octave grid (kinds × a
/// few Qs) that best explains what is left (its gain by least squares on the section's shape at
/// 6 dB), then Levenberg–Marquardt refines every section's frequency, Q and gain and the overall
/// gain (the best of four candidates is kept), until every profile point is within
/// `toleranceDb` and guard points beyond the profile's ends (the end gains held flat) within
/// `guardToleranceDb`, or `mostSections` are used. The guards keep a shelf from running away
/// where the profile says nothing. RBJ peaking and shelving sections are minimum-phase for boost
/// and cut alike (zeros, like poles, inside the unit circle), so the cascade is minimum-phase;
/// Q at most 2.5 keeps the correction smooth, so a calibration's band-to-band scatter is smoothed
/// rather than followed. Deterministic: no randomness, the same profile gives the same sections.
public enum CorrectionDesign {
    /// Gains a profile may ask for, dB (larger ones are limited to this).
    public static let limitDb = 12.0
    public static let toleranceDb = 0.3
    public static let guardToleranceDb = 1.0
    public static let mostSections = 14

    public enum Kind: Sendable { case lowShelf, highShelf, peaking }

    /// One section: its kind, frequency (centre or corner), Q and gain.
    public struct Section: Sendable, Equatable {
        public var kind: Kind
        public var hz: Double, q: Double, gainDb: Double
    }

    /// A fitted correction: its sections and an overall gain.
    public struct Fit: Sendable, Equatable {
        public var sections: [Section]
        public var offsetDb: Double
        /// The largest miss at the profile's points and at the guard points, dB.
        public var errorDb: Double, guardErrorDb: Double
    }

    static let qRange = 0.35...2.5
    static let lowestHz = 15.0
    static let gainLimitDb = 24.0

    /// The RBJ cookbook biquad; shelves take a Q like the peaking section's.
    public static func biquad(_ s: Section, sampleRate: Double) -> BiquadCoefficients {
        let a = pow(10, s.gainDb / 40)
        let w = 2 * Double.pi * s.hz / sampleRate
        let c = cos(w), alpha = sin(w) / (2 * s.q)
        switch s.kind {
        case .peaking:
            return BiquadCoefficients(
                b0: 1 + alpha * a, b1: -2 * c, b2: 1 - alpha * a, a0: 1 + alpha / a, a1: -2 * c, a2: 1 - alpha / a)
        case .lowShelf, .highShelf:
            let k = 2 * a.squareRoot() * alpha
            let sg: Double = s.kind == .lowShelf ? 1 : -1
            return BiquadCoefficients(
                b0: a * ((a + 1) - sg * (a - 1) * c + k), b1: sg * 2 * a * ((a - 1) - sg * (a + 1) * c),
                b2: a * ((a + 1) - sg * (a - 1) * c - k), a0: (a + 1) + sg * (a - 1) * c + k,
                a1: -sg * 2 * ((a - 1) + sg * (a + 1) * c), a2: (a + 1) + sg * (a - 1) * c - k)
        }
    }

    /// The cascade's response (dB) at each of `frequenciesHz`.
    public static func responseDb(_ sections: [BiquadCoefficients], atHz frequenciesHz: [Double], sampleRate: Double)
        -> [Double]
    {
        frequenciesHz.map { f in
            let c = cos(2 * .pi * min(f, sampleRate * 0.49) / sampleRate)
            return sections.reduce(0) { $0 + 10 * log10($1.powerResponse(cosOmega: c)) }
        }
    }

    /// The last few fits and what they were asked. A fit is deterministic and can take most of a
    /// second for a rough 24-band profile (0.75 s CPU measured), and a player refits its correction
    /// whenever the notch changes; so a repeated question is answered from here.
    struct FitQuestion: Hashable {
        var centresHz: [Double], gainsDb: [Double], sampleRate: Double
    }
    static let recentFits = Mutex<[(question: FitQuestion, fit: Fit)]>([])
    static let recentFitsKept = 4

    /// The fewest sections that match `gainsDb` at `centresHz` (each limited to ±`limitDb` first).
    public static func fit(centresHz: [Double], gainsDb: [Double], sampleRate: Double) -> Fit {
        let question = FitQuestion(centresHz: centresHz, gainsDb: gainsDb, sampleRate: sampleRate)
        if let known = recentFits.withLock({ $0.first { $0.question == question }?.fit }) { return known }
        let fit = freshFit(centresHz: centresHz, gainsDb: gainsDb, sampleRate: sampleRate)
        recentFits.withLock {
            $0.insert((question, fit), at: 0)
            if $0.count > recentFitsKept { $0.removeLast() }
        }
        return fit
    }

    static func freshFit(centresHz: [Double], gainsDb: [Double], sampleRate: Double) -> Fit {
        precondition(centresHz.count == gainsDb.count && !centresHz.isEmpty)
        let top = sampleRate * 0.45
        let order = centresHz.indices.filter { centresHz[$0] > 0 && centresHz[$0] < top }
            .sorted { centresHz[$0] < centresHz[$1] }
        if order.isEmpty { return Fit(sections: [], offsetDb: 0, errorDb: 0, guardErrorDb: 0) }
        let fs = order.map { centresHz[$0] }
        let target = order.map { min(max(gainsDb[$0], -limitDb), limitDb) }
        let below = [10.0, 12.5, 16.0].filter { $0 < fs[0] / 1.2 }
        let above = [14000.0, 16000.0, 18000.0, 20000.0].filter { $0 > fs[fs.count - 1] * 1.1 && $0 < top }
        let problem = Problem(
            hz: below + fs + above,
            target: below.map { _ in target[0] } + target + above.map { _ in target[target.count - 1] },
            isReal: below.map { _ in false } + fs.map { _ in true } + above.map { _ in false },
            sampleRate: sampleRate)
        let grid = (0..<31).map { 20 * pow(2, Double($0) / 3) }.filter { $0 < top }
        var kinds: [Kind] = []
        var p = [0.0]
        while true {
            let (e, eg) = problem.errors(kinds, p)
            if (e <= toleranceDb && eg <= guardToleranceDb) || kinds.count == mostSections {
                let (sections, offset) = problem.unpack(kinds, p)
                return Fit(sections: sections, offsetDb: offset, errorDb: e, guardErrorDb: eg)
            }
            let (sections, offset) = problem.unpack(kinds, p)
            let model = problem.model(sections, offset)
            let r = zip(problem.target, model).map { $0 - $1 }
            var candidates: [(cost: Double, section: Section)] = []
            for kind in [Kind.lowShelf, .highShelf, .peaking] {
                for hz in grid {
                    for q in kind == .peaking ? [0.5, 0.8, 1.4] : [0.5, 0.71, 1.0] {
                        let s = Section(kind: kind, hz: hz, q: q, gainDb: 6)
                        let shape = problem.model([s], 0).map { $0 / 6 }
                        let dot = zip(shape, r).reduce(0) { $0 + $1.0 * $1.1 }
                        let norm = shape.reduce(0) { $0 + $1 * $1 }
                        let g = min(max(dot / (norm + 1e-12), -gainLimitDb), gainLimitDb)
                        let cost = zip(r, shape).reduce(0) { $0 + ($1.0 - g * $1.1) * ($1.0 - g * $1.1) }
                        candidates.append((cost, Section(kind: kind, hz: hz, q: q, gainDb: g)))
                    }
                }
            }
            // A stable sort, so ties keep the grid's order: the fit is deterministic.
            let best = candidates.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }
                .prefix(4).map(\.element.section)
            var trials: [(score: Double, kinds: [Kind], p: [Double])] = []
            for s in best {
                let k2 = kinds + [s.kind]
                let p2 = problem.refine(k2, p + [log2(s.hz), log2(s.q), s.gainDb])
                let (e2, eg2) = problem.errors(k2, p2)
                trials.append((max(e2 / toleranceDb, eg2 / guardToleranceDb), k2, p2))
            }
            let chosen = trials.enumerated().min { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }!
            kinds = chosen.element.kinds
            p = chosen.element.p
        }
    }

    /// The points a fit must meet and how the parameters map to sections: p[0] the overall gain,
    /// then per section log2(frequency), log2(Q) and gain, clamped to their ranges.
    struct Problem {
        let hz: [Double], target: [Double], isReal: [Bool]
        let sampleRate: Double

        func unpack(_ kinds: [Kind], _ p: [Double]) -> ([Section], Double) {
            let sections = kinds.enumerated().map { i, kind in
                Section(
                    kind: kind, hz: min(max(pow(2, p[1 + 3 * i]), CorrectionDesign.lowestHz), sampleRate * 0.45),
                    q: min(max(pow(2, p[2 + 3 * i]), qRange.lowerBound), qRange.upperBound),
                    gainDb: min(max(p[3 + 3 * i], -gainLimitDb), gainLimitDb))
            }
            return (sections, p[0])
        }

        func pack(_ sections: [Section], _ offset: Double) -> [Double] {
            [offset] + sections.flatMap { [log2($0.hz), log2($0.q), $0.gainDb] }
        }

        func model(_ sections: [Section], _ offset: Double) -> [Double] {
            let biquads = sections.map { CorrectionDesign.biquad($0, sampleRate: sampleRate) }
            return hz.map { f in
                let c = cos(2 * .pi * f / sampleRate)
                return biquads.reduce(offset) { $0 + 10 * log10($1.powerResponse(cosOmega: c)) }
            }
        }

        func residual(_ kinds: [Kind], _ p: [Double]) -> [Double] {
            let (s, o) = unpack(kinds, p)
            return zip(model(s, o), target).map { $0 - $1 }
        }

        func errors(_ kinds: [Kind], _ p: [Double]) -> (real: Double, guards: Double) {
            let r = residual(kinds, p)
            var real = 0.0, guards = 0.0
            for (i, v) in r.enumerated() {
                if isReal[i] { real = max(real, abs(v)) } else { guards = max(guards, abs(v)) }
            }
            return (real, guards)
        }

        /// Levenberg–Marquardt on the dB residual (forward-difference Jacobian).
        func refine(_ kinds: [Kind], _ start: [Double], iterations: Int = 40) -> [Double] {
            var p = start
            var lambda = 1e-2
            var r = residual(kinds, p)
            var cost = r.reduce(0) { $0 + $1 * $1 }
            let n = p.count, m = r.count
            for _ in 0..<iterations {
                var jacobian = [[Double]](repeating: [Double](repeating: 0, count: n), count: m)
                for j in 0..<n {
                    var h = p
                    h[j] += 1e-5
                    let rj = residual(kinds, h)
                    for i in 0..<m { jacobian[i][j] = (rj[i] - r[i]) / 1e-5 }
                }
                var a = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
                var g = [Double](repeating: 0, count: n)
                for j in 0..<n {
                    for k in j..<n {
                        var sum = 0.0
                        for i in 0..<m { sum += jacobian[i][j] * jacobian[i][k] }
                        a[j][k] = sum
                        a[k][j] = sum
                    }
                    for i in 0..<m { g[j] -= jacobian[i][j] * r[i] }
                }
                while true {
                    var damped = a
                    for j in 0..<n { damped[j][j] += lambda * (a[j][j] + 1e-9) }
                    let d = CorrectionDesign.solve(damped, g)
                    let (s, o) = unpack(kinds, zip(p, d).map { $0 + $1 })
                    let next = pack(s, o)
                    let rn = residual(kinds, next)
                    let cn = rn.reduce(0) { $0 + $1 * $1 }
                    if cn < cost {
                        (p, r, cost) = (next, rn, cn)
                        lambda = max(lambda / 3, 1e-7)
                        break
                    }
                    lambda *= 4
                    if lambda > 1e8 { return p }
                }
            }
            return p
        }
    }

    /// The fit's sections in double precision, ordered low shelves, peaking, high shelves, each by
    /// frequency, and its overall gain as a linear factor.
    public static func biquads(_ fit: Fit, sampleRate: Double) -> (sections: [BiquadCoefficients], gain: Double) {
        let rank: (Kind) -> Int = { $0 == .lowShelf ? 0 : $0 == .peaking ? 1 : 2 }
        let sorted = fit.sections.sorted { (rank($0.kind), $0.hz) < (rank($1.kind), $1.hz) }
        return (sorted.map { biquad($0, sampleRate: sampleRate) }, pow(10, fit.offsetDb / 20))
    }

    /// Gaussian elimination with partial pivoting (the system is small).
    static func solve(_ matrix: [[Double]], _ rhs: [Double]) -> [Double] {
        var a = matrix, b = rhs
        let n = b.count
        for c in 0..<n {
            let p = (c..<n).max { abs(a[$0][c]) < abs(a[$1][c]) }!
            a.swapAt(c, p)
            b.swapAt(c, p)
            guard a[c][c] != 0 else { continue }
            for r in (c + 1)..<n {
                let f = a[r][c] / a[c][c]
                for k in c..<n { a[r][k] -= f * a[c][k] }
                b[r] -= f * b[c]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            let s = ((r + 1)..<n).reduce(b[r]) { $0 - a[r][$1] * x[$1] }
            x[r] = a[r][r] != 0 ? s / a[r][r] : 0
        }
        return x
    }
}
