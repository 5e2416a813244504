import NoiseEngine
import TextureStatistics

/// What `noise match` found: the mix, and how far its statistics are from the recording's
/// before the search, after fitting the spectrum only, and at the end, beside noise with the
/// recording's exact spectrum (the baseline a texture has to beat).
public struct MatchReport: Sendable {
    public var mix: Mix
    /// The starting mix (one pink noise layer) against the recording.
    public var before: TextureDistance
    /// After the spectrum stage: one noise layer with fitted colour, cuts and EQ.
    public var spectrumOnly: TextureDistance
    /// The final mix, rendered as long as the recording's excerpt with another seed than the search's.
    public var after: TextureDistance
    /// Gaussian noise with the recording's spectrum against the recording.
    public var matchedNoise: TextureDistance
    /// Renders the search made and the seconds it took.
    public var evaluationCount: Int
    public var searchSeconds: Double
    /// The CPU time it took (the search is single-threaded: on an idle machine about `searchSeconds`).
    public var cpuSeconds: Double
    /// One line per accepted step, for `--verbose`.
    public var steps: [String]

    /// texstat's `ratioTex`: below 1, the mix has texture beyond the spectrum.
    public var textureRatio: Double { after.texture / max(matchedNoise.texture, 1e-12) }
    /// texstat's `ratioAll`.
    public var totalRatio: Double { after.total / max(matchedNoise.total, 1e-12) }
}
