/// The sample layout every sink accepts: interleaved 32-bit float frames in [-1, 1].
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    public var sampleRate: Int
    public var channelCount: Int

    public init(sampleRate: Int, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    public var description: String { "\(sampleRate) Hz, \(channelCount == 1 ? "mono" : "\(channelCount) channels")" }
}

/// Where rendered audio goes: a sound server, a sound card, a file or nowhere.
///
/// Every implementation guarantees (checked per backend: `PulseAudioSinkTests`, `PlaybackTests` for
/// PulseAudio, PipeWire and ALSA through a real server or card, `WAVFileSinkTests`, `RenderOutputTests` for FLAC):
/// - `open` allocates everything the sink needs; `write` does not allocate, lock a mutex shared with
///   other threads, log or print, so a real-time render thread may call it.
/// - `write` takes interleaved float frames in `format` and either accepts all of them (blocking as
///   long as the device needs) or throws an `AudioOutputError`; samples outside [-1, 1] are clipped
///   by the conversion, never wrapped.
/// - `close` flushes what was written (`drain: true` waits until it has been played), is idempotent,
///   and leaves file outputs valid even after an earlier `write` failed.
/// - Sinks are used from one thread at a time.
public protocol AudioSink: AnyObject {
    /// Human name: backend and device, e.g. `pulse (default sink)`, `alsa (default)`, `wav (out.wav)`.
    var name: String { get }
    var format: AudioFormat { get }
    /// Output latency in frames as the device reports it (0 for files). Ask from the thread that
    /// writes, between writes (the PulseAudio sink runs its main loop to ask the server).
    var latencyFrames: Int { get }
    /// Underruns seen and recovered so far.
    var underrunCount: Int { get }

    /// Writes `frameCount` interleaved frames.
    ///
    /// Real-time safety: no allocation; may block on the device.
    func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError)

    /// Flushes and releases the output; `drain: true` first waits until everything was played.
    func close(drain: Bool) throws(AudioOutputError)

    /// True while the sound server holds the output (PulseAudio's cork request: a phone call
    /// corks music), after waiting up to `maximumSeconds` for it to let go. The render loop asks
    /// before each block and renders nothing while held, so the sound resumes where it stopped.
    ///
    /// Real-time safety: as `write`.
    func isHeld(waitingUpTo maximumSeconds: Double) throws(AudioOutputError) -> Bool
}

extension AudioSink {
    /// Files, cards and the null sink are never held.
    public func isHeld(waitingUpTo maximumSeconds: Double) throws(AudioOutputError) -> Bool { false }
}

/// A sink with no device behind it (a file, nowhere): no latency, never an underrun.
public protocol DevicelessSink: AudioSink {}

extension DevicelessSink {
    public var latencyFrames: Int { 0 }
    public var underrunCount: Int { 0 }
}

/// An output failure that names the backend, the call and the reason.
public struct AudioOutputError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No server or device to talk to (refused, missing).
        case unavailable
        /// The connection or device went away while playing.
        case disconnected
        /// Bad request: unsupported format, bad device name, bad file.
        case invalid
        case io
    }

    public var kind: Kind
    public var backend: String
    public var call: String
    public var reason: String

    public init(_ kind: Kind, backend: String, call: String, reason: String) {
        self.kind = kind
        self.backend = backend
        self.call = call
        self.reason = reason
    }

    public var description: String { "\(backend): \(call) failed: \(reason)" }
}

/// The player's render block for a buffer of `latencySeconds`: a third of it, 128…4096 frames, in
/// whole 32-frame control intervals. The PulseAudio sink asks the server for requests of whole
/// blocks (see `PulseAudioSink`). Whole control intervals keep the live chain's parameter updates
/// on the same frames as the offline renderer's 4096-frame blocks (a 3,856-frame block once made
/// live output differ from the render by 3.3e-4).
public enum PlaybackBlock {
    public static func frames(latencySeconds: Double, sampleRate: Int) -> Int {
        min(4096, max(128, Int(latencySeconds * Double(sampleRate) / 3))) / 32 * 32
    }
}
