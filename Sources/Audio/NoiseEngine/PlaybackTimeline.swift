import NoiseDSP

/// Where a stream is on the audio clock (frames rendered), and when the sleep timer fades and ends.
/// Shared by offline rendering and live playback, so a live stream and a render of the same mix,
/// seed and timer produce the same samples.
public struct PlaybackTimeline: Sendable {
    public private(set) var framesRendered: Int64 = 0
    /// First frame of the timer's fade-out, and the frame where output ends.
    public private(set) var fadeStartFrame: Int64?
    public private(set) var endFrame: Int64?
    var fadeFrames: Int64 = 0
    let sampleRate: Double

    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Longest timer the clock accepts (a week); longer requests are clamped, never trapped on.
    public static let maximumTimerSeconds = 7.0 * 24 * 3600

    /// Ends output `seconds` from now, fading over the last `fadeSeconds` (clamped to the timer).
    /// A timer set again during its fade-out brings the sound back up first.
    public mutating func setTimer(seconds: Double, fadeSeconds: Double, machine: NoiseMachine? = nil) {
        let s = seconds.isFinite ? min(max(seconds, 0), Self.maximumTimerSeconds) : Self.maximumTimerSeconds
        let f = fadeSeconds.isFinite ? min(max(fadeSeconds, 0), s) : s
        let end = framesRendered + Int64((s * sampleRate).rounded())
        fadeFrames = Int64((f * sampleRate).rounded())
        endFrame = end
        fadeStartFrame = end - fadeFrames
        if let machine, machine.timerFaderPosition < 1 { machine.fadeTimer(to: 1, seconds: Self.restoreSeconds) }
    }

    /// Switches the timer off; if its fade had begun, the sound comes back up over 0.5 s.
    public mutating func cancelTimer(machine: NoiseMachine? = nil) {
        endFrame = nil
        fadeStartFrame = nil
        if let machine, machine.timerFaderPosition < 1 { machine.fadeTimer(to: 1, seconds: Self.restoreSeconds) }
    }

    static let restoreSeconds = 0.5

    public var isFinished: Bool { endFrame.map { framesRendered >= $0 } ?? false }

    public var remainingSeconds: Double? { endFrame.map { Double(max(0, $0 - framesRendered)) / sampleRate } }

    /// How many of `maximumFrames` to render next: blocks end exactly where the fade starts and
    /// where the timer ends.
    public func nextBlockFrames(_ maximumFrames: Int) -> Int {
        var n = Int64(maximumFrames)
        if let fadeStartFrame, framesRendered < fadeStartFrame { n = min(n, fadeStartFrame - framesRendered) }
        if let endFrame { n = min(n, max(0, endFrame - framesRendered)) }
        return Int(n)
    }

    /// Renders one block through `machine` and advances the clock; starts the fade on time.
    ///
    /// Real-time safety: no allocation.
    public mutating func render(_ machine: NoiseMachine, into buffer: UnsafeMutablePointer<Float>, frameCount: Int) {
        if let fadeStartFrame, framesRendered == fadeStartFrame {
            machine.fadeTimer(to: 0, seconds: Double(fadeFrames) / sampleRate)
        }
        machine.render(into: buffer, frameCount: frameCount)
        framesRendered += Int64(frameCount)
    }
}
