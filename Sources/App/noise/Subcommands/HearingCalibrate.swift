import ArgumentParser
import AudioOutput
import AudioSinkBase
import CLISupport
import Foundation
import NoiseDSP
import NoiseEngine
import SharedStore

extension Noise.HearingCommand {
    /// Options shared by the two listening flows: where to play and how loud.
    struct ListeningOptions: ParsableArguments {
        @Option(name: .long, help: "auto (PulseAudio, then ALSA), pulse or alsa.")
        var output: String = "auto"

        @Option(name: .long, help: "PulseAudio sink or ALSA PCM name (default: the default output).")
        var device: String?

        @Option(
            name: .long,
            numeric: "Master level 0.1…0.9 (the volume slider's scale): set it to your usual listening level.")
        var level: Double = 0.6

        func validate() throws {
            guard OutputBackend(rawValue: output) != nil, output != "pipe" else {
                throw ValidationError("'--output' \(output) is not a backend; use auto, pulse or alsa")
            }
            guard level.isFinite, (0.1...0.9).contains(level) else {
                throw ValidationError("'--level' \(level) is out of range; allowed 0.1…0.9")
            }
        }
    }

    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calibrate",
            abstract: "Calibrate a hearing profile for the output in use, with the keyboard alone.",
            usage: """
                noise hearing calibrate [--output <output>] [--device <device>]
                  [--level <level>] [--mode <mode>] [--retest <retest>]
                  [--seed <seed>] [--restart] [<options>]
                """,
            discussion: HelpText.prose(
                """
                Narrow bands of noise (third-octave, 63 Hz to 12.5 kHz) alternate with a band at 1 kHz. Make each
                band as loud as the 1 kHz one: Up or + louder, Down or - softer (1 dB a press), Enter to accept,
                q to save and quit (run again to resume). A second pass repeats random bands and says how far
                your answers moved (the test-retest spread). With '--mode threshold', make each band just
                audible instead. Bands are capped at 12 dB above the reference. Not a medical device.
                """))

        @OptionGroup var listening: ListeningOptions
        @OptionGroup var storeOption: StoreOption

        @Option(name: .long, help: "loudness (as loud as the 1 kHz band) or threshold (just audible).")
        var mode: String = "loudness"

        @Option(name: .long, numeric: "Bands the second pass repeats (0…12).")
        var retest: Int = 6

        @Option(name: .long, numeric: "Seed of the second pass's draw and the noise.")
        var seed: UInt64?

        @Flag(help: "Start afresh even when an unfinished calibration is stored.")
        var restart = false

        func validate() throws {
            guard HearingProfile.Mode(rawValue: mode) != nil else {
                throw ValidationError("'--mode' \(mode) is not a mode; use loudness or threshold")
            }
            guard (0...12).contains(retest) else { throw ValidationError("'--retest' must be 0…12") }
        }

        func run() throws {
            let rig = try ListeningRig(listening, seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)))
            defer { rig.close() }
            let store = HearingProfileStore(root: storeOption.root)
            let loaded = try store.load(device: rig.device)
            for m in loaded.messages { Terminal.printError("warning: \(m)") }
            let drawSeed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
            var calibration: HearingCalibration
            if !restart, let p = loaded.profile, !p.complete {
                calibration = HearingCalibration(resuming: p, retestCount: retest, seed: drawSeed)
                print("Resuming the calibration of \(rig.device): \(p.centresHz.count) bands done.\r")
            } else {
                calibration = HearingCalibration(
                    mode: HearingProfile.Mode(rawValue: mode)!, retestCount: retest, seed: drawSeed)
                calibration.tinnitusHz = loaded.profile?.tinnitusHz
                print("Calibrating \(rig.device) (\(mode) mode), \(rig.sinkName).\r")
            }
            print("Up/+ louder, Down/- softer, Enter accept, q save and quit.\r")
            while true {
                let step = calibration.next
                if step == .done { break }
                let answer = rig.adjust(step: step, mode: calibration.mode, startDb: calibration.startingGainDb(step))
                guard let gain = answer else {
                    try store.save(calibration.profile(device: rig.device), device: rig.device)
                    print("\r\nSaved; 'noise hearing calibrate' resumes where you stopped.\r")
                    return
                }
                calibration.accept(step, gainDb: gain)
                try store.save(calibration.profile(device: rig.device), device: rig.device)
            }
            rig.close()
            let profile = calibration.profile(device: rig.device)
            try store.save(profile, device: rig.device)
            print("\r\nDone: saved the profile of \(rig.device) to \(store.url(device: rig.device).path).")
            if let s = profile.retestSpreadDb {
                print(String(format: "Test-retest spread: %.1f dB (RMS over %d bands).", s, calibration.second.count))
            }
            print(ProfileChart.text(profile))
        }
    }

    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "match",
            abstract: "Match your tinnitus pitch with a narrow band, with an octave check; suggests a --notch.",
            usage: """
                noise hearing match [--output <output>] [--device <device>]
                  [--level <level>] [--start-hz <start-hz>] [<options>]
                """,
            discussion: HelpText.prose(
                """
                A narrow band (1/12 octave) plays. Left/Right move it 1/12 octave, [ and ] by 1/48 octave,
                Up/Down change its level, Enter when it sounds like your tinnitus. Then the octave check:
                1 plays the band an octave below, 2 an octave above; press 1 or 2 if one of them is closer
                (matching goes on from there), Enter to keep your match, q to quit without saving.
                """))

        @OptionGroup var listening: ListeningOptions
        @OptionGroup var storeOption: StoreOption

        @Option(name: .long, numeric: "Where the band starts, Hz (1000…12000).")
        var startHz: Double = 4000

        func validate() throws {
            guard startHz.isFinite, (1000...12000).contains(startHz) else {
                throw ValidationError("'--start-hz' \(startHz) is out of range; allowed 1000…12000 Hz")
            }
        }

        func run() throws {
            let rig = try ListeningRig(listening, seed: 7)
            defer { rig.close() }
            guard let hz = rig.matchPitch(startHz: startHz) else {
                print("\r\nStopped; nothing saved.\r")
                return
            }
            rig.close()
            print(String(format: "\r\nMatched pitch: %.0f Hz. Try: noise play --notch %.0f", hz, hz))
            let store = HearingProfileStore(root: storeOption.root)
            if var p = try store.load(device: rig.device).profile {
                p.tinnitusHz = hz
                try store.save(p, device: rig.device)
                print("Recorded in the profile of \(rig.device).")
            }
        }
    }
}

/// The player and keyboard a listening flow uses: the sound is `HearingProbe`'s (NoiseEngine), the
/// one the browser's calibration plays too; this adds the keyboard and the status line.
final class ListeningRig {
    let probe: HearingProbe
    let keys = KeyboardInput()
    let device: String
    let sinkName: String
    private var closed = false

    typealias Segment = HearingProbe.Segment

    init(_ o: Noise.HearingCommand.ListeningOptions, seed: UInt64) throws {
        let selector = OutputSelector(
            backend: OutputBackend(rawValue: o.output) ?? .auto, device: o.device, latencySeconds: 0.1,
            format: HearingProbe.format)
        let sink: any AudioSink
        do { sink = try selector.open() } catch { throw CLIError("\(error)") }
        sinkName = sink.name
        device = OutputDeviceName.of(sinkName: sink.name, backendDevice: o.device) ?? "default"
        probe = HearingProbe(level: o.level, seed: seed)
        try probe.start(sink: sink)
        keys.makeRaw()
        Terminal.installInterruptHandlers()
    }

    func close() {
        guard !closed else { return }
        closed = true
        keys.restore()
        probe.stop()
    }

    func status(_ text: String) {
        FileHandle.standardOutput.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Runs one step until Enter (the gain) or q (nil).
    func adjust(step: HearingCalibration.Step, mode: HearingProfile.Mode, startDb: Double) -> Double? {
        var gain = startDb
        if step == .done { return nil }
        let label = step.prompt(mode: mode)
        let cycle = HearingProbe.cycle(for: step, mode: mode)
        return play(
            cycle: { cycle }, gain: &gain, range: HearingCalibration.gainRange, label: label,
            describe: { String(format: "%+.0f dB", $0) })
    }

    /// Plays `cycle()` over and over (read again when `onKey` handled a key); Up/Down move `gain`
    /// within `range`; Enter returns it, q nil. `onKey` may take other keys (true when it handled one).
    private func play(
        cycle: () -> [Segment], gain: inout Double, range: ClosedRange<Double>, label: String,
        describe: (Double) -> String, onKey: ((KeyboardInput.Key) -> Bool)? = nil
    ) -> Double? {
        probe.play(cycle(), gainDb: gain)
        status("\(label): \(describe(gain))")
        while true {
            if interruptRequested.load(ordering: .relaxed) { return nil }
            guard let key = keys.next(timeoutSeconds: 0.02) else { continue }
            switch key {
            case .quit: return nil
            case .enter: return gain
            case .up, .down:
                let step = (key == .up ? 1 : -1) * HearingCalibration.stepDb
                gain = min(max(gain + step, range.lowerBound), range.upperBound)
                probe.setGain(gain)
                status("\(label): \(describe(gain))")
            default:
                if onKey?(key) == true {
                    // Play the change at once.
                    probe.play(cycle(), gainDb: gain)
                    status("\(label): \(describe(gain))")
                }
            }
        }
    }

    /// Tinnitus pitch matching with the octave check; the matched Hz, or nil on q.
    func matchPitch(startHz: Double) -> Double? {
        var hz = startHz
        var level = 0.0
        let width = 1.0 / 12
        while true {
            var moving = hz
            let answer = play(
                cycle: { [Segment(hz: moving, isReference: false, seconds: 2, widthOctaves: width)] }, gain: &level,
                range: -30...12, label: "Pitch match: Left/Right, [ ], Up/Down level, Enter",
                describe: { String(format: "%.0f Hz, %+.0f dB", moving, $0) },
                onKey: { key in
                    let step: Double
                    switch key {
                    case .left: step = -1.0 / 12
                    case .right: step = 1.0 / 12
                    case .character("["): step = -1.0 / 48
                    case .character("]"): step = 1.0 / 48
                    default: return false
                    }
                    moving = min(max(moving * pow(2, step), 250), 16000)
                    return true
                })
            guard answer != nil else { return nil }
            hz = moving
            // The octave check: the candidate an octave below and above, each alone, then the match.
            let lower = hz / 2, upper = min(hz * 2, 16000)
            status(
                String(
                    format: "Octave check: 1 = %.0f Hz, 2 = %.0f Hz, then your %.0f Hz. Closer? 1 or 2; Enter keeps",
                    lower, upper, hz))
            probe.play(
                [lower, nil, upper, nil, hz, nil].map {
                    Segment(hz: $0, seconds: $0 == nil ? 0.3 : 0.9, widthOctaves: width)
                }, gainDb: level)
            var choice: Double?
            loop: while true {
                if interruptRequested.load(ordering: .relaxed) { return nil }
                switch keys.next(timeoutSeconds: 0.02) {
                case .character("1")?:
                    choice = lower
                    break loop
                case .character("2")?:
                    choice = upper
                    break loop
                case .enter?: break loop
                case .quit?: return nil
                default: continue
                }
            }
            guard let c = choice else { return hz }
            hz = c
        }
    }
}
