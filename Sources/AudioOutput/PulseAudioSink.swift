#if canImport(Glibc)
import Glibc
#endif
import CPulse

/// Plays through a PulseAudio server (and PipeWire's PulseAudio service) with the simple API.
///
/// The stream asks for `latencySeconds` of buffering (`tlength`), 150 ms by default: a noise
/// machine gains nothing from low latency, and a tiny `tlength` would force the server (and every
/// other program on it) into low-latency mode. Samples go out as 32-bit float; the server converts.
public final class PulseAudioSink: AudioSink {
    public let format: AudioFormat
    public let name: String
    public var underrunCount: Int { 0 }
    let device: String?
    let latencySeconds: Double
    /// The buffer actually asked for: two player blocks (a little under `latencySeconds`).
    let bufferSeconds: Double
    var handle: OpaquePointer?

    /// - Parameters:
    ///   - device: a sink name (`noise devices`), nil for the server's default.
    public init(format: AudioFormat, device: String? = nil, latencySeconds: Double = 0.15,
                applicationName: String = "noise", streamName: String = "Noise machine") throws(AudioOutputError) {
        self.format = format
        self.device = device
        self.latencySeconds = latencySeconds
        name = "pulse (\(device ?? "default sink"))"
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        // minreq: the server asks for more when half the buffer has played (the default is a
        // quarter or less): half as many wake-ups, and still half the buffer in hand. The buffer is
        // exactly two of the player's blocks (`PlaybackBlock`), so each request is one block; with a
        // buffer a few frames longer the render thread woke early and then waited on the server
        // (2.03x pacat's system calls, 1.81x with two blocks: docs/quiet-player.md).
        let frameBytes = format.channelCount * 4
        let blockFrames = PlaybackBlock.frames(latencySeconds: latencySeconds, sampleRate: format.sampleRate)
        let bufferFrames = blockFrames * 2
        bufferSeconds = Double(bufferFrames) / Double(format.sampleRate)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32(bufferFrames * frameBytes),
                                  prebuf: UInt32.max, minreq: UInt32(blockFrames * frameBytes), fragsize: UInt32.max)
        var error: Int32 = 0
        handle = pa_simple_new(nil, applicationName, PA_STREAM_PLAYBACK, device, streamName, &spec, nil, &attr, &error)
        guard handle != nil else {
            if let device, error == Int32(PA_ERR_NOENTITY.rawValue) {
                throw AudioOutputError(.invalid, backend: "pulse", call: "open sink '\(device)'",
                                       reason: "the server has no sink of that name (see 'noise devices')")
            }
            throw AudioOutputError(device == nil ? .unavailable : .invalid, backend: "pulse", call: "connect",
                                   reason: Self.describe(error))
        }
    }

    deinit { try? close(drain: false) }

    /// What the stream tells the server about itself: `media.role` lets role-based policies work
    /// (ducking or corking music during a call, per-role volumes), the icon names it in mixers.
    public static let streamProperties = ["media.role": "music", "application.icon_name": "audio-x-generic",
                                          "media.icon_name": "audio-x-generic"]

    /// `pa_simple_new` takes no property list, but libpulse reads `PULSE_PROP` ("key=value ...")
    /// from the environment into the context it creates, and the server gives a stream the
    /// properties of its client. So: put ours in front of whatever `PULSE_PROP` the user already
    /// has (the later value of a key wins, so theirs still override ours). Call it once, early,
    /// before other threads run (`setenv` is not thread-safe).
    public static func exportStreamProperties() {
        let ours = streamProperties.keys.sorted().map { "\($0)=\"\(streamProperties[$0]!)\"" }.joined(separator: " ")
        if let existing = getenv("PULSE_PROP").map({ String(cString: $0) }) {
            guard !existing.contains(ours) else { return }
            setenv("PULSE_PROP", ours + " " + existing, 1)
        } else {
            setenv("PULSE_PROP", ours, 1)
        }
    }

    static func describe(_ error: Int32) -> String {
        let text = pa_strerror(error).map { String(cString: $0) } ?? "error \(error)"
        return "\(text) (PulseAudio error \(error))"
    }

    public var latencyFrames: Int {
        guard let handle else { return 0 }
        var error: Int32 = 0
        let usec = pa_simple_get_latency(handle, &error)
        return usec == UInt64.max ? 0 : Int(usec * UInt64(format.sampleRate) / 1_000_000)
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        guard let handle else { throw AudioOutputError(.disconnected, backend: "pulse", call: "write", reason: "stream is closed") }
        var error: Int32 = 0
        // Pacing: sleep until the server has room for the whole block, then write it at once.
        // Otherwise pa_simple_write parks this thread on its main loop's condition variable and
        // every server request becomes a wake-up, a priority-inheriting mutex hand-over and more
        // system calls (measured in docs/quiet-player.md). The interpolated latency is computed
        // locally (no round trip); the sleep never exceeds the block, so the buffer keeps at
        // least `latency − block` in hand.
        let usec = pa_simple_get_latency(handle, &error)
        if usec != UInt64.max {
            let blockSeconds = Double(frameCount) / Double(format.sampleRate)
            let excess = Double(usec) / 1e6 + blockSeconds - bufferSeconds
            if excess > 0.001 { sleepNanoseconds(.nanoseconds(Int64(min(excess, blockSeconds) * 1e9))) }
        }
        if pa_simple_write(handle, samples, frameCount * format.channelCount * 4, &error) < 0 {
            throw AudioOutputError(.disconnected, backend: "pulse", call: "write", reason: Self.describe(error))
        }
    }

    public func close(drain: Bool) throws(AudioOutputError) {
        guard let handle else { return }
        self.handle = nil
        var error: Int32 = 0
        let drained = !drain || pa_simple_drain(handle, &error) >= 0
        pa_simple_free(handle)
        if !drained { throw AudioOutputError(.disconnected, backend: "pulse", call: "drain", reason: Self.describe(error)) }
    }
}
