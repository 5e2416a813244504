import NoiseDSP

/// A control change on its way to the render thread (plain values only: it travels through an
/// `SPSCQueue` and must not allocate).
public enum EngineCommand: Sendable, BitwiseCopyable {
    case setLayer(index: Int, settings: LayerSettings, rampSeconds: Double)
    case setMaster(volume: Float, rampSeconds: Double)
    /// Fader (fade-in, pause, resume, stop): position 0…1 over `seconds`.
    case fade(position: Float, seconds: Double)
    /// Sleep timer from now on the audio clock.
    case setTimer(seconds: Double, fadeSeconds: Double)
    case cancelTimer
    /// Finish once the fader has reached silence (sent after a `fade` to 0 to stop cleanly).
    case finishWhenSilent
}
