/// Which part of a recording is measured: by default 60 s after skipping the first 2 s (fades
/// and edits sit at the ends); a recording too short for that loses 0.5 s at each end instead.
/// The same rule as texstat, so the two measure the same samples.
public struct AnalysisExcerpt: Sendable, Equatable {
    public var startSeconds: Double
    public var durationSeconds: Double

    public static let defaultStartSeconds = 2.0
    public static let defaultDurationSeconds = 60.0

    /// The excerpt of a signal `totalSeconds` long, asked to start at `start` and last `duration`.
    public init(totalSeconds: Double, start: Double = defaultStartSeconds, duration: Double = defaultDurationSeconds) {
        if totalSeconds >= start + duration {
            startSeconds = start
            durationSeconds = duration
        } else {
            startSeconds = min(start, 0.5)
            durationSeconds = max(1, totalSeconds - 2 * startSeconds)
        }
    }

    /// The samples of `signal` (at `CochlearFilterbank.sampleRate`) this excerpt covers.
    public func samples(of signal: [Double]) -> [Double] {
        let rate = Double(CochlearFilterbank.sampleRate)
        let a = min(signal.count, Int(startSeconds * rate))
        let b = min(signal.count, a + Int(durationSeconds * rate))
        return Array(signal[a..<b])
    }
}
