/// Discards audio, optionally pacing writes to real time (for tests and `--output null`).
public final class NullSink: DevicelessSink {
    public let format: AudioFormat
    public let name = "null"
    public private(set) var framesWritten: Int64 = 0
    let paced: Bool
    let clock = ContinuousClock()
    var start: ContinuousClock.Instant?

    public init(format: AudioFormat, pacedToRealTime: Bool = false) {
        self.format = format
        self.paced = pacedToRealTime
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        framesWritten += Int64(frameCount)
        guard paced else { return }
        let begin = start ?? clock.now
        start = begin
        let due = begin + .nanoseconds(framesWritten * 1_000_000_000 / Int64(format.sampleRate))
        let wait = clock.now.duration(to: due)
        if wait > .zero { sleepNanoseconds(wait) }
    }

    public func close(drain: Bool) throws(AudioOutputError) {}
}
