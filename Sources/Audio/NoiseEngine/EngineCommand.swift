import NoiseDSP

/// A control change on its way to the render thread (plain values only: it travels through an
/// `SPSCQueue` and must not allocate).
public enum EngineCommand: Sendable, BitwiseCopyable {
    case setLayer(index: Int, settings: LayerSettings, rampSeconds: Double)
    case setMaster(volume: Float, rampSeconds: Double)
    /// The user's fader (fade-in, pause, resume): position 0…1 over `seconds`. Ignored once stopping.
    case fade(position: Float, seconds: Double)
    /// Sleep timer from now on the audio clock (its own fader: pausing and the timer never undo
    /// each other).
    case setTimer(seconds: Double, fadeSeconds: Double)
    case cancelTimer
}
