import AudioSinkBase
import CNoiseSupport
import NoiseDSP

/// What to render offline.
public struct RenderPlan: Sendable {
    public var mix: Mix
    public var seed: UInt64
    public var sampleRate: Int
    public var channelCount: Int
    /// Length asked for; the sleep timer may end the render earlier.
    public var durationSeconds: Double
    /// Sleep timer: output ends here, fading to silence over `fadeSeconds` before.
    public var timerSeconds: Double?
    public var fadeSeconds: Double
    /// The level rises from silence over this long at the start (0: full level on the first sample).
    public var fadeInSeconds: Double
    /// Hearing correction on the master (`--hearing`); nil renders without (the default, so renders
    /// of a mix stay what they were). The mix's own notch comes with the mix.
    public var hearing: CorrectionCurve?

    /// The master filter this plan renders with.
    public var masterFilter: MasterFilterDesign {
        MasterFilterDesign(correction: hearing, notch: mix.notch?.settings)
    }

    public static let defaultFadeSeconds = 30.0
    /// A file's edges: 10 ms up at the start and, without a timer, down at the end. A render that
    /// starts at full level or stops dead clicks where a player starts or loops it; 10 ms is
    /// shorter than anything heard as a fade and long enough that the step's energy sits below
    /// 100 Hz.
    public static let edgeRampSeconds = 0.01

    public init(
        mix: Mix, seed: UInt64, sampleRate: Int = 48000, channelCount: Int = 2, durationSeconds: Double,
        timerSeconds: Double? = nil, fadeSeconds: Double? = nil, fadeInSeconds: Double = Self.edgeRampSeconds,
        hearing: CorrectionCurve? = nil
    ) {
        self.hearing = hearing
        self.mix = mix
        self.seed = seed
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.durationSeconds = durationSeconds
        self.timerSeconds = timerSeconds
        // Default fade: 30 s, or the whole timer if it is shorter.
        self.fadeSeconds = min(fadeSeconds ?? Self.defaultFadeSeconds, timerSeconds ?? .infinity)
        self.fadeInSeconds = fadeInSeconds
    }

    public var totalFrames: Int64 {
        let seconds = min(durationSeconds, timerSeconds ?? .infinity)
        return Int64((seconds * Double(sampleRate)).rounded())
    }

}

/// Renders a plan through a `NoiseMachine` into any sink, as fast as the CPU allows.
public enum OfflineRenderer {
    public static let blockFrames = 4096

    /// Renders until done or `isCancelled()` turns true (checked every block); returns frames written.
    /// The sink is not closed here.
    @discardableResult
    public static func render(
        _ plan: RenderPlan, to sink: any AudioSink,
        progress: (Int64, Int64) -> Void = { _, _ in },
        isCancelled: () -> Bool = { false }
    ) throws(AudioOutputError) -> Int64 {
        cns_enable_flush_to_zero()
        let spec = ProcessSpec(
            sampleRate: Double(plan.sampleRate), maximumFrameCount: blockFrames,
            channelCount: plan.channelCount)
        // Built, pre-rolled and faded in as `LivePlayer` does, so a render and a live stream with
        // the same fade-in carry the same samples.
        let machine = NoiseMachine(
            spec: spec, seed: plan.seed, layers: plan.mix.layerSettings,
            masterVolume: Float(plan.mix.masterVolume), faderPosition: plan.fadeInSeconds > 0 ? 0 : 1,
            masterFilter: plan.masterFilter)
        machine.preroll()
        if plan.fadeInSeconds > 0 { machine.fade(to: 1, seconds: plan.fadeInSeconds) }
        var timeline = PlaybackTimeline(sampleRate: Double(plan.sampleRate))
        let total = plan.totalFrames
        if let timer = plan.timerSeconds, timer <= plan.durationSeconds {
            timeline.setTimer(seconds: timer, fadeSeconds: plan.fadeSeconds)
        } else {
            // No timer: the end is the duration, reached over the edge ramp rather than a dead stop.
            timeline.setTimer(
                seconds: plan.durationSeconds, fadeSeconds: min(RenderPlan.edgeRampSeconds, plan.durationSeconds))
        }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames * plan.channelCount)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while done < total {
            if isCancelled() { break }
            let n = min(timeline.nextBlockFrames(blockFrames), Int(total - done))
            timeline.render(machine, into: buffer, frameCount: n)
            try sink.write(buffer, frameCount: n)
            done += Int64(n)
            progress(done, total)
        }
        return done
    }
}
