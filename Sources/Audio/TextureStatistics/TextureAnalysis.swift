/// Everything `noise analyze` reports about one sound: its statistics, their readable summary
/// and the regularity of its slow swells, all from one pass of the cochlear model.
public struct TextureAnalysis: Sendable {
    public var stats: TextureStats
    public var profile: TextureSummary
    public var swells: SwellRegularity
    /// Length of the measured signal.
    public var durationSeconds: Double

    /// Measures a mono signal at `CochlearFilterbank.sampleRate` (already cut to its excerpt).
    public init(signal: [Double]) {
        let envelopes = CochlearFilterbank.envelopes(signal)
        stats = TextureStats(envelopes: envelopes)
        profile = TextureSummary(stats)
        swells = SwellRegularity(envelopes: envelopes)
        durationSeconds = Double(signal.count) / Double(CochlearFilterbank.sampleRate)
    }
}
