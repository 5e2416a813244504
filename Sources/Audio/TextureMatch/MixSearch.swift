import AudioSinkBase
import FieldTable
import Foundation
import NoiseEngine
import TextureStatistics

/// Fits a procedural mix to a recording's texture statistics.
///
/// 1. Spectrum: one noise layer; colour first on a coarse grid, then every spectral field (colour,
///    cuts, EQ: the table's Layer and EQ groups) by coordinate descent against M1 alone, on
///    short renders.
/// 2. Texture: for each texture the table offers, a second layer with the bed's cuts and EQ, its
///    texture fields and every layer's volume searched against all eight classes; the best (or
///    none) kept.
/// 3. A third layer the same way on top of that (a storm is rain and thunder both).
/// 4. Refinement: every searched field of every layer (movement included), smaller steps, while
///    the budget lasts.
/// Statistics are measured at `CochlearFilterbank.Resolution.reduced` (within 0.003 of the exact
/// figures per class on the development recordings, 3× faster). Renders use one seed throughout
/// (common random numbers: a step is judged by the parameters, not by the luck of the noise); the
/// final distance is measured on a full-length render with another seed.
///
/// A mix with a burst layer (thunder: a flash every 15 s on average, nearly all of its power in
/// them) renders `burstIntervals` of its mean burst interval at least: an 8 s render holds no flash
/// or one, and a search that cannot hear the flashes never keeps the layer. Such a render costs its
/// length in standard renders, so the budget bounds the work whatever the search tries.
public struct MixSearch: Sendable {
    /// What the search renders at (the player's rate), before the 20 kHz analysis.
    public static let renderRate = 48000
    public var seed: UInt64
    /// Length of each search render.
    public var renderSeconds: Double
    /// Search renders in all, in renders of `renderSeconds` (a longer render counts its length):
    /// the result depends only on the recording, the seed and this, never on how busy the machine
    /// is (byte-identical mixes per seed).
    public var renderBudget: Int
    /// A safety stop in seconds of this process's CPU time (not wall time, so a busy machine
    /// does not cut the search short and change its result): no new render starts after it.
    public var timeBudgetSeconds: Double

    public static let defaultRenderSeconds = 8.0
    public static let defaultRenderBudget = 240
    public static let defaultTimeBudgetSeconds = 300.0
    public static let renderSecondsRange = 2.0...60.0
    /// A burst layer's search renders hold at least this many of its mean burst intervals.
    public static let burstIntervals = 2.0

    public init(
        seed: UInt64 = 1, renderSeconds: Double = defaultRenderSeconds, renderBudget: Int = defaultRenderBudget,
        timeBudgetSeconds: Double = defaultTimeBudgetSeconds
    ) {
        self.seed = seed
        self.renderSeconds = renderSeconds
        self.renderBudget = renderBudget
        self.timeBudgetSeconds = timeBudgetSeconds
    }

    /// Renders `mix` mono for `seconds` and returns it at 20 kHz.
    public static func render(_ mix: Mix, seconds: Double, seed: UInt64) -> [Double] {
        let plan = RenderPlan(mix: mix, seed: seed, sampleRate: renderRate, channelCount: 1, durationSeconds: seconds)
        let sink = MemorySink(sampleRate: renderRate, capacityFrames: Int(plan.totalFrames))
        _ = try? OfflineRenderer.render(plan, to: sink)
        let resampler = PolyphaseResampler(inputRate: renderRate, outputRate: CochlearFilterbank.sampleRate)
        return resampler.process(sink.samples.map(Double.init))
    }

    /// The starting point: one pink noise layer at the reference master.
    public static var startingMix: Mix {
        Mix(
            name: "Matched", description: "", masterVolume: Mix.referenceMasterVolume,
            layers: [Mix.Layer()])
    }

    /// Searches a mix for `target` (a mono 20 kHz excerpt of the recording, ≥ 10 s).
    /// `progress` hears one line per stage.
    public func match(target: [Double], name: String, progress: (String) -> Void = { _ in }) -> MatchReport {
        let clock = ContinuousClock(), started = clock.now, cpuStarted = Self.cpuSeconds()
        let targetStats = Self.measure(target)
        let seconds = Double(target.count) / Double(CochlearFilterbank.sampleRate)
        let noise = SpectrumMatchedNoise.make(like: target, seed: seed &+ 1000)
        let matchedNoise = TextureDistance(Self.measure(noise), targetStats)
        progress(String(format: "measured the recording (%.0f s) and noise with its spectrum", seconds))
        // Each stage gets its share of the renders, so every stage is tried.
        func share(_ fraction: Double) -> Int { Int((Double(renderBudget) * fraction).rounded()) }
        var state = SearchState(
            target: targetStats, seed: seed, renderSeconds: min(renderSeconds, seconds),
            renderLimit: Double(share(0.2)), cpuDeadline: Self.cpuSeconds() + timeBudgetSeconds)

        let start = Self.startingMix
        let before = Self.distance(start, seconds, seed &+ 1, targetStats)

        // 1. Spectrum.
        var mix = start
        var score = state.score(mix, spectrumOnly: true)
        let colour = MixParameterSpace.spectral(layer: 0).first { $0.field.key == MixFields.colour.key }
        if let colour {
            for u in stride(from: 0.0, through: 1.0, by: 0.25) {
                let v = MixParameterSpace.number(atUnit: u, colour.field)
                if let m = MixParameterSpace.setting(mix, colour, to: v) {
                    let s = state.score(m, spectrumOnly: true)
                    if s < score { (mix, score) = (m, s) }
                }
            }
        }
        state.descend(&mix, &score, MixParameterSpace.spectral(layer: 0), spectrumOnly: true, passes: 5, step: 0.2)
        let spectrumMix = mix
        let spectrumOnly = Self.distance(spectrumMix, seconds, seed &+ 1, targetStats)
        progress(String(format: "spectrum fitted: M1 %.2f (start %.2f)", spectrumOnly[.m1], before[.m1]))

        // 2. and 3. A texture layer, then another on top of the best. The second layer's share gives
        // each of the eight 8 s textures as many renders as the whole budget of 160 did before the
        // third layer and thunder's 30 s renders (3.75 each, and 7.5 to compare) came in.
        score = state.score(mix, spectrumOnly: false)
        for (layerNumber, end) in [(2, 0.67), (3, 0.85)] {
            let (kind, added, addedScore) = state.addLayer(to: mix, score: score, until: Double(share(end)))
            (mix, score) = (added, addedScore)
            progress("layer \(layerNumber): \(kind)" + String(format: " (search distance %.2f)", score))
        }

        // 4. Refinement of everything, while the budget lasts.
        state.renderLimit = Double(renderBudget)
        var all: [MixParameterSpace.Dimension] = []
        for layer in mix.layers.indices {
            all +=
                MixParameterSpace.spectral(layer: layer) + MixParameterSpace.texture(layer: layer)
                + [MixParameterSpace.volume(layer: layer)]
        }
        state.descend(&mix, &score, all, spectrumOnly: false, passes: 3, step: 0.1)
        progress(String(format: "refined (search distance %.2f, %d renders)", score, state.evaluations))

        mix.name = name
        mix.description = "Matched to \(name) by noise match"
        if let master = try? mix.masterVolume(forLoudness: Mix.referenceLoudnessLufs) { mix.masterVolume = master }
        let after = Self.distance(mix, seconds, seed &+ 1, targetStats)
        return MatchReport(
            mix: mix, before: before, spectrumOnly: spectrumOnly, after: after, matchedNoise: matchedNoise,
            evaluationCount: state.evaluations, searchSeconds: Self.seconds(clock.now - started),
            cpuSeconds: Self.cpuSeconds() - cpuStarted, steps: state.steps)
    }

    static func measure(_ signal: [Double]) -> TextureStats { TextureStats(signal: signal, resolution: .reduced) }

    static func distance(_ mix: Mix, _ seconds: Double, _ seed: UInt64, _ target: TextureStats) -> TextureDistance {
        TextureDistance(measure(render(mix, seconds: seconds, seed: seed)), target)
    }

    /// CPU time this process has used so far.
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// The search's running state: the target, the clock and what was tried.
struct SearchState {
    let target: TextureStats
    let seed: UInt64
    let renderSeconds: Double
    /// The stage ends when `cost` reaches this.
    var renderLimit: Double
    let cpuDeadline: Double
    /// Renders made, and what they cost in renders of `renderSeconds` (a longer one its length).
    var evaluations = 0
    var cost = 0.0
    var steps: [String] = []

    /// The spectrum stage renders a third as long: M1 settles fast. `atLeastSeconds` lengthens a
    /// render to compare it with a longer one (a longer render measures closer by its lower noise
    /// alone); `seed` renders other noise than the search's.
    mutating func score(_ mix: Mix, spectrumOnly: Bool, atLeastSeconds: Double = 0, seed: UInt64? = nil) -> Double {
        let seconds = spectrumOnly ? max(2, renderSeconds / 3) : max(renderSeconds(mix), atLeastSeconds)
        evaluations += 1
        cost += spectrumOnly ? 1 : seconds / renderSeconds
        let d = MixSearch.distance(mix, seconds, seed ?? self.seed, target)
        return spectrumOnly ? d[.m1] : d.total
    }

    /// How long a render of `mix` lasts: a burst layer's `MixSearch.burstIntervals` intervals at least.
    func renderSeconds(_ mix: Mix) -> Double {
        max(renderSeconds, (mix.burstIntervalSeconds ?? 0) * MixSearch.burstIntervals)
    }

    /// What a render of `mix` costs in standard renders (a shorter spectrum render counts as one).
    func cost(_ mix: Mix, spectrumOnly: Bool) -> Double {
        spectrumOnly ? 1 : renderSeconds(mix) / renderSeconds
    }

    var isOutOfTime: Bool { cost >= renderLimit - 1e-9 || MixSearch.cpuSeconds() >= cpuDeadline }

    /// Adds a layer with the bed's (layer 0's) colour, cuts and EQ to `mix`, trying each texture the
    /// table offers in turn: its texture fields and every layer's volume are searched against all
    /// eight classes, each texture with as many renders as the others (a burst texture's longer
    /// renders get their share of the budget by their cost), until `cost` reaches `limit`. Returns
    /// the best, or `mix` unchanged (kind "none") when no texture brought it closer.
    mutating func addLayer(to mix: Mix, score: Double, until limit: Double) -> (kind: String, mix: Mix, score: Double) {
        guard let choice = MixParameterSpace.textureChoiceField else { return ("none", mix, score) }
        let layer = mix.layers.count
        var layered = mix
        layered.layers.append(mix.layers[0])
        let candidates: [(kind: String, mix: Mix)] = choice.allowed.filter { $0 != choice.defaultText }.compactMap {
            kind in
            MixParameterSpace.setting(layered, MixParameterSpace.Dimension(layer: layer, field: choice), to: kind)
                .map { (kind, $0) }
        }
        let costs = candidates.map { cost($0.mix, spectrumOnly: false) }
        // Kept back for comparing the winners of shorter renders on the longest at the end.
        let lengths = Set(candidates.map { renderSeconds($0.mix) } + [renderSeconds(mix)])
        let reserve = lengths.count > 1 ? Double(lengths.count) * (lengths.max() ?? renderSeconds) / renderSeconds : 0
        let total = costs.reduce(0, +), start = cost, end = max(start, limit - reserve)
        // The best of each render length (the mix as it was among them): a burst texture renders
        // longer, and a longer render's statistics are less noisy, so it would win on that alone.
        var best: [Double: (kind: String, mix: Mix, score: Double)] = [renderSeconds(mix): ("none", mix, score)]
        var spent = 0.0
        for (i, candidate) in candidates.enumerated() {
            spent += costs[i]
            renderLimit = start + (end - start) * spent / total
            var m = candidate.mix
            var s = self.score(m, spectrumOnly: false)
            let dims =
                MixParameterSpace.texture(layer: layer).filter { $0.field.key != choice.key }
                + (0...layer).reversed().map { MixParameterSpace.volume(layer: $0) }
            descend(&m, &s, dims, spectrumOnly: false, passes: 2, step: 0.25)
            note(String(format: "layer %d %@: %.3f", layer + 1, candidate.kind, s))
            let seconds = renderSeconds(m)
            if s < best[seconds]?.score ?? .infinity { best[seconds] = (candidate.kind, m, s) }
        }
        renderLimit = limit
        // The lengths' winners compared on renders of the longest, of other noise than the one their
        // parameters were fitted to (a burst layer's few flashes sit where the search's seed put them,
        // and a search fits them). The winner keeps its score on the search's own renders.
        guard best.count > 1, let longest = best.keys.max() else { return best.first?.value ?? ("none", mix, score) }
        var winner = (entry: best[longest]!, fresh: Double.infinity)
        for (_, b) in best.sorted(by: { $0.key < $1.key }) {
            let s = self.score(b.mix, spectrumOnly: false, atLeastSeconds: longest, seed: seed &+ 2)
            note(String(format: "layer %d %@ on %.0f s renders of another seed: %.3f", layer + 1, b.kind, longest, s))
            if s < winner.fresh { winner = (b, s) }
        }
        return winner.entry
    }

    mutating func note(_ line: String) { steps.append(line) }

    /// Coordinate descent: each dimension in turn tries a step either way (a coarse grid when the
    /// field is absent, the other choices for a choice field); the step halves every pass.
    mutating func descend(
        _ mix: inout Mix, _ score: inout Double, _ dims: [MixParameterSpace.Dimension], spectrumOnly: Bool,
        passes: Int, step: Double
    ) {
        var step = step
        for _ in 0..<passes {
            for d in dims {
                guard !isOutOfTime else { return }
                var candidates: [Any?] = []
                let current = MixParameterSpace.value(mix, d)
                switch d.field.kind {
                case .choice:
                    candidates = d.field.allowed.filter { ($0 as String?) != (current as? String) }
                case .number, .integer:
                    if let v = (current as? NSNumber)?.doubleValue {
                        let u = MixParameterSpace.unit(of: v, d.field)
                        candidates = [u + step, u - step].filter { $0 >= -1e-9 && $0 <= 1 + 1e-9 }.map {
                            MixParameterSpace.number(atUnit: $0, d.field)
                        }
                        if d.field.isOptional { candidates.append(nil) }
                    } else {
                        candidates = [0.2, 0.5, 0.8].map { MixParameterSpace.number(atUnit: $0, d.field) }
                    }
                default:
                    continue
                }
                for c in candidates {
                    guard !isOutOfTime else { return }
                    guard let m = MixParameterSpace.setting(mix, d, to: c), m != mix else { continue }
                    let s = self.score(m, spectrumOnly: spectrumOnly)
                    if s < score {
                        note(String(format: "%@ = %@: %.3f", d.description, "\(c ?? "off")", s))
                        (mix, score) = (m, s)
                    }
                }
            }
            step /= 2
        }
    }
}
