import AudioSinkBase

/// Keeps a mono render in memory, preallocated for its whole length (the search renders short
/// excerpts, many times).
final class MemorySink: DevicelessSink {
    let name = "memory"
    let format: AudioFormat
    private(set) var samples: [Float]

    init(sampleRate: Int, capacityFrames: Int) {
        format = AudioFormat(sampleRate: sampleRate, channelCount: 1)
        samples = []
        samples.reserveCapacity(capacityFrames)
    }

    func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        self.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: frameCount))
    }

    func close(drain: Bool) throws(AudioOutputError) {}
}
