/// What a processor is prepared for (JUCE's `ProcessSpec`): buffers are sized from it in `prepare`,
/// never on the render thread.
public struct ProcessSpec: Sendable, Equatable {
    /// Frames per second: 44 100, 48 000 or 96 000 in the product; any rate from 8 000 works.
    public var sampleRate: Double
    /// The largest block `process` will be asked for.
    public var maximumFrameCount: Int
    /// 1 (mono) or 2 (stereo).
    public var channelCount: Int

    public init(sampleRate: Double, maximumFrameCount: Int = 4096, channelCount: Int = 2) {
        precondition(sampleRate >= 8000, "sampleRate \(sampleRate) Hz is below 8000 Hz")
        precondition((1...2).contains(channelCount), "channelCount \(channelCount) is not 1 or 2")
        precondition(maximumFrameCount > 0)
        self.sampleRate = sampleRate
        self.maximumFrameCount = maximumFrameCount
        self.channelCount = channelCount
    }
}
