import AudioSinkBase

/// Which backend `noise play` uses.
public enum OutputBackend: String, Sendable, CaseIterable {
    case auto, pulse, alsa
    /// Raw s16le frames to a FIFO in real time (`--output pipe:PATH`, the device is the path): a
    /// Snapcast server's pipe source.
    case pipe
}

/// Opens the output a user asked for; `auto` tries PulseAudio (which PipeWire also serves), then
/// ALSA's `default`.
public struct OutputSelector: Sendable {
    public var backend: OutputBackend
    public var device: String?
    public var latencySeconds: Double
    public var format: AudioFormat

    public init(backend: OutputBackend, device: String?, latencySeconds: Double, format: AudioFormat) {
        self.backend = backend
        self.device = device
        self.latencySeconds = latencySeconds
        self.format = format
    }

    /// Every output that was tried and why it failed, for a message that says what to do next.
    public struct NoOutput: Error, CustomStringConvertible {
        public var attempts: [AudioOutputError]
        public var description: String {
            "no audio output could be opened; tried:\n" + attempts.map { "  - \($0)" }.joined(separator: "\n")
                + "\nIs a sound server running (pactl info) or a sound card present (aplay -l)? "
                + "To make audio without a device, use 'noise render ... -o FILE.wav'."
        }
    }

    /// Opens the first backend that works. With `auto`, a named device is tried on both.
    public func open() throws(NoOutput) -> any AudioSink {
        var attempts: [AudioOutputError] = []
        let order: [OutputBackend] = backend == .auto ? [.pulse, .alsa] : [backend]
        for b in order {
            do {
                switch b {
                case .pulse: return try PulseAudioSink(format: format, device: device, latencySeconds: latencySeconds)
                case .alsa:
                    return try ALSASink(format: format, device: device ?? "default", latencySeconds: latencySeconds)
                case .pipe: return try PipeSink(path: device ?? "", format: format, latencySeconds: latencySeconds)
                case .auto: continue
                }
            } catch {
                attempts.append(error)
            }
        }
        throw NoOutput(attempts: attempts)
    }
}
