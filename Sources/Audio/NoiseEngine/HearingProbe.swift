import AudioSinkBase
import Foundation
import NoiseDSP

/// The sound of a hearing calibration, for the terminal (`noise hearing calibrate`) and the browser
/// (`weaver serve`'s Noise → Calibrate) alike: pink noise through the real output chain (a `LivePlayer`
/// into the device), shaped into a band by the master filter, its level set by the layer volume.
///
/// A cycle of segments (a band, a gap, the 1 kHz reference, a gap) plays over and over on the probe's
/// own thread, the only thread that talks to the player once it started; `play` and `setGain` may be
/// called from any thread.
public final class HearingProbe: @unchecked Sendable {
    /// One part of a cycle: a band (nil: silence) for `seconds`; the reference plays at 0 dB, the
    /// rest at the probe's gain.
    public struct Segment: Equatable, Sendable {
        public var hz: Double?
        public var isReference: Bool
        public var seconds: Double
        public var widthOctaves: Double

        public init(hz: Double?, isReference: Bool = false, seconds: Double, widthOctaves: Double = 1.0 / 3) {
            self.hz = hz
            self.isReference = isReference
            self.seconds = seconds
            self.widthOctaves = widthOctaves
        }
    }

    /// The reference's amplitude: 12 dB under full scale, so a band may go 12 dB above it
    /// (`HearingCalibration.gainRange`'s cap).
    public static let referenceAmplitude = 0.25
    public static let rampSeconds = 0.03
    /// The master level's range (the volume slider's scale): the listener's usual level, capped.
    public static let levelRange = 0.1...0.9
    public static let sampleRate = 48000.0

    public let player: LivePlayer

    private let lock = NSLock()
    private var cycle: [Segment] = []
    private var gainDb = 0.0
    /// Bumped by `play`: the thread starts the new cycle from its first segment.
    private var cycleGeneration = 0
    private var gainGeneration = 0
    private var stopping = false
    private var thread: Thread?
    private var closed = false

    /// - Parameters:
    ///   - level: master level, `levelRange` (0.1…0.9).
    ///   - seed: the noise's seed.
    public init(level: Double, seed: UInt64) {
        var options = LivePlayer.Options()
        options.fadeInSeconds = 0
        options.blockFrames = LivePlayer.Options.blockFrames(latencySeconds: 0.1, sampleRate: Int(Self.sampleRate))
        let clamped = min(max(level, Self.levelRange.lowerBound), Self.levelRange.upperBound)
        let mix = Mix(name: "Hearing calibration", masterVolume: clamped, layers: [Mix.Layer(volume: 0, colour: 1)])
        player = LivePlayer(mix: mix, seed: seed, options: options)
        _ = player.setMasterFilter(
            sections: HearingCalibration.bandSections(
                centreHz: HearingCalibration.referenceHz, sampleRate: Self.sampleRate),
            rampSeconds: 0)
    }

    /// The format a probe's sink is opened with.
    public static let format = AudioFormat(sampleRate: 48000, channelCount: 2)

    /// Starts the player into `sink` (silent until `play`) and the probe's thread.
    public func start(sink: any AudioSink) throws {
        try player.start(sink: sink)
        let t = Thread { [weak self] in self?.run() }
        t.name = "hearing-probe"
        thread = t
        t.start()
    }

    /// Plays `cycle` over and over from its first segment, bands at `gainDb` (dB re the reference).
    public func play(_ cycle: [Segment], gainDb: Double) {
        lock.withLock {
            self.cycle = cycle
            self.gainDb = gainDb
            cycleGeneration &+= 1
        }
    }

    /// Moves the bands' gain; a band sounding now changes at once.
    public func setGain(_ gainDb: Double) {
        lock.withLock {
            self.gainDb = gainDb
            gainGeneration &+= 1
        }
    }

    /// Stops the thread, fades the player out and closes its sink (draining it). Idempotent.
    public func stop() {
        let wasClosed = lock.withLock { () -> Bool in
            defer {
                closed = true
                stopping = true
            }
            return closed
        }
        guard !wasClosed else { return }
        while lock.withLock({ thread != nil }) { Thread.sleep(forTimeInterval: 0.005) }
        player.stop(fadeSeconds: 0.05)
        player.join().map { try? $0.close(drain: true) }
    }

    /// The layer volume (slider) that plays at `gainDb` relative to the reference.
    public static func volume(gainDb: Double) -> Float {
        Float(min(1, pow(referenceAmplitude * pow(10, gainDb / 20), 1.0 / 3)))
    }

    /// What a calibration step plays: loudness, the band then the 1 kHz reference with gaps;
    /// threshold (and the reference's threshold), the band pulsed.
    public static func cycle(for step: HearingCalibration.Step, mode: HearingProfile.Mode) -> [Segment] {
        let bandHz: Double
        switch step {
        case .referenceThreshold: bandHz = HearingCalibration.referenceHz
        case .band(let f, _): bandHz = f
        case .done: return []
        }
        if mode == .loudness && step != .referenceThreshold {
            return [
                Segment(hz: bandHz, seconds: 0.9), Segment(hz: nil, seconds: 0.3),
                Segment(hz: HearingCalibration.referenceHz, isReference: true, seconds: 0.9),
                Segment(hz: nil, seconds: 0.3),
            ]
        }
        return [Segment(hz: bandHz, seconds: 0.6), Segment(hz: nil, seconds: 0.4)]
    }

    private func run() {
        var seenCycle = -1
        var seenGain = -1
        var index = -1
        var current: Segment?
        var segmentEnd = ContinuousClock.now
        while true {
            let (segments, gain, cycleGen, gainGen, stop) = lock.withLock {
                (cycle, gainDb, cycleGeneration, gainGeneration, stopping)
            }
            if stop { break }
            let now = ContinuousClock.now
            if cycleGen != seenCycle {
                seenCycle = cycleGen
                seenGain = gainGen
                index = -1
                segmentEnd = now
            }
            if !segments.isEmpty && now >= segmentEnd {
                index = (index + 1) % segments.count
                let s = segments[index]
                if let hz = s.hz {
                    _ = player.setMasterFilter(
                        sections: HearingCalibration.bandSections(
                            centreHz: hz, widthOctaves: s.widthOctaves, sampleRate: Self.sampleRate),
                        rampSeconds: 0)
                    setLevel(s.isReference ? 0 : gain)
                } else {
                    setLevel(nil)
                }
                current = s
                segmentEnd = now + .milliseconds(Int(s.seconds * 1000))
            } else if segments.isEmpty, current != nil {
                setLevel(nil)
                current = nil
            }
            if gainGen != seenGain {
                seenGain = gainGen
                if let c = current, c.hz != nil, !c.isReference { setLevel(gain) }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        setLevel(nil)
        lock.withLock { thread = nil }
    }

    private func setLevel(_ gainDb: Double?) {
        var l = LayerSettings(volume: gainDb.map(Self.volume) ?? 0, colour: 1)
        l.isEnabled = true
        _ = player.send(.setLayer(index: 0, settings: l, rampSeconds: Self.rampSeconds))
    }
}
