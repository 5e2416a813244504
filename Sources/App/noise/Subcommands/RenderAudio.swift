import ArgumentParser
import AudioOutput
import AudioSinkBase
import CLISupport
import Foundation
import NoiseEngine

extension Noise {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Render a mix to a WAV or FLAC file, faster than real time, with no audio device.",
            usage:
                """
                noise render [--preset <preset> | --mix <mix> | --link <link>]
                  [--duration <duration>]
                  --output <output> [<options>]
                """,
            discussion: HelpText.prose(
                """
                A name ending in .flac (or '--format flac') writes FLAC: lossless, the same samples as
                the 16-bit WAV, in a smaller file. Examples:
                  noise render --preset sleep --duration 8h -o sleep.wav
                  noise render --preset sleep --duration 8h -o sleep.flac
                  noise render --mix my-mix.json --duration 10m --timer 8m --fade 2m -o nap.wav
                  noise render --preset rain --duration 30s -o - | aplay
                """))

        @OptionGroup var source: MixSourceOptions
        @OptionGroup var storeOption: StoreOption
        @OptionGroup var loudness: LoudnessOption
        @OptionGroup var hearingOptions: HearingOptions

        @Option(
            name: .long, numeric: "Length: seconds or h/m/s units (90, 30s, 10m, 1h30m, 8h). Optional with --timer.")
        var duration: String?

        @Option(name: .long, numeric: "Seed of the noise generators; the same seed gives a byte-identical file.")
        var seed: UInt64?

        @Option(name: .long, numeric: "44100, 48000 or 96000.")
        var sampleRate: Int = 48000

        @Option(name: .long, numeric: "1 (mono) or 2 (stereo, independent noise per channel).")
        var channels: Int = 2

        @Option(
            name: .long,
            help: "s16, s24 or f32 (WAV), flac or flac24 (FLAC, 16 or 24 bit). Default: s16, or flac for a .flac name.")
        var format: String?

        @Option(name: .long, numeric: "Sleep timer: the output ends here, fading to silence.")
        var timer: String?

        @Option(name: .long, numeric: "Length of the sleep-timer fade (default 30s, or the whole timer if shorter).")
        var fade: String?

        @Option(
            name: .long,
            numeric: """
                Fade-in from silence, 0s…30m (default 10ms, so the file does not click; without '--timer' \
                it also ends with a 10 ms fade).
                """)
        var fadeIn: String?

        @Option(name: [.short, .customLong("output")], help: "Output file (.wav or .flac), or - for standard output.")
        var output: String

        struct Parsed {
            var durationSeconds: Double
            var timerSeconds: Double?
            var fadeSeconds: Double?
            var fadeInSeconds: Double
            var encoding: SampleEncoding
            var container: Container
        }

        enum Container: String { case wav, flac }

        /// The container and sample encoding from '--format' and the file name.
        func containerAndEncoding() throws -> (Container, SampleEncoding) {
            let namedFLAC = output.lowercased().hasSuffix(".flac")
            // As `weaver render` does: a name that says another format (x.mp3) is refused rather
            // than filled with WAV. A name without an extension (/dev/null, a FIFO) is WAV, and
            // '--format' names the format for any name.
            let fileExtension = URL(fileURLWithPath: output).pathExtension.lowercased()
            if format == nil, output != "-", !fileExtension.isEmpty, !["wav", "flac"].contains(fileExtension) {
                throw ValidationError(
                    """
                    '--output' \(output): .\(fileExtension) is not a format noise writes; use a .wav or .flac \
                    name, or give '--format' s16, s24 or f32 (WAV), flac or flac24 (FLAC)
                    """
                )
            }
            switch format {
            case nil: return namedFLAC ? (.flac, .s16) : (.wav, .s16)
            case "flac"?, "flac16"?:
                if output.lowercased().hasSuffix(".wav") { break }
                return (.flac, .s16)
            case "flac24"?:
                if output.lowercased().hasSuffix(".wav") { break }
                return (.flac, .s24)
            case let f?:
                guard let encoding = SampleEncoding(rawValue: f) else {
                    throw ValidationError(
                        "'--format' \(f) is not supported; use s16, s24 or f32 (WAV), flac or flac24 (FLAC)")
                }
                if namedFLAC {
                    guard encoding != .f32 else {
                        throw ValidationError(
                            "'--format' f32 cannot go in a FLAC file (FLAC holds integers); use flac (16 bit) or flac24"
                        )
                    }
                    return (.flac, encoding)
                }
                return (.wav, encoding)
            }
            throw ValidationError(
                "'--format' \(format!) writes FLAC, but '--output' \(output) ends in .wav; name it .flac")
        }

        func parsed() throws -> Parsed {
            func parse(_ text: String, _ flag: String) throws -> Double {
                do { return try DurationParser.seconds(text) } catch { throw ValidationError("'\(flag)': \(error)") }
            }
            guard [44100, 48000, 96000].contains(sampleRate) else {
                throw ValidationError("'--sample-rate' \(sampleRate) is not supported; use 44100, 48000 or 96000")
            }
            guard (1...2).contains(channels) else {
                throw ValidationError("'--channels' \(channels) is out of range; use 1 or 2")
            }
            let (container, encoding) = try containerAndEncoding()
            let timerSeconds = try timer.map { try parse($0, "--timer") }
            guard let durationSeconds = try duration.map({ try parse($0, "--duration") }) ?? timerSeconds else {
                throw ValidationError("give '--duration' (or '--timer')")
            }
            let maximum = 48.0 * 3600
            guard durationSeconds > 0, durationSeconds <= maximum else {
                throw ValidationError("'--duration' must be more than 0 and at most 48h")
            }
            if let timerSeconds {
                guard timerSeconds > 0 else { throw ValidationError("'--timer' must be more than 0") }
                guard timerSeconds <= durationSeconds else {
                    throw ValidationError("'--timer' must not be longer than '--duration'")
                }
            }
            let fadeSeconds = try fade.map { try parse($0, "--fade") }
            if fadeSeconds != nil && timerSeconds == nil { throw ValidationError("'--fade' needs '--timer'") }
            if let fadeSeconds, let timerSeconds, fadeSeconds > timerSeconds {
                throw ValidationError("'--fade' must not be longer than '--timer'")
            }
            let fadeInSeconds = try fadeIn.map { try parse($0, "--fade-in") } ?? RenderPlan.edgeRampSeconds
            guard FadeLimits.fadeInSeconds.contains(fadeInSeconds) else {
                throw ValidationError(
                    "'--fade-in' \(fadeIn ?? "") is out of range; allowed 0s…\(FadeLimits.longestText)")
            }
            if fadeInSeconds > min(durationSeconds, timerSeconds ?? .infinity) {
                throw ValidationError("'--fade-in' must not be longer than the render")
            }
            return Parsed(
                durationSeconds: durationSeconds, timerSeconds: timerSeconds, fadeSeconds: fadeSeconds,
                fadeInSeconds: fadeInSeconds, encoding: encoding,
                container: container)
        }

        func validate() throws {
            try source.requireSource()
            _ = try parsed()
            if try hearingOptions.choice(default: .off) == .auto {
                throw ValidationError(
                    "'--hearing auto' needs the device playing; render has none: give a profile FILE, "
                        + "iso226:PHON or off"
                )
            }
        }

        func run() throws {
            let p = try parsed()
            // Everything is checked before any file is touched: a bad mix creates or truncates nothing.
            var (mix, label) = try source.load(sampleRate: Double(sampleRate), store: storeOption.root)
            if let note = try loudness.apply(to: &mix, sampleRate: Double(sampleRate), channelCount: channels) {
                Terminal.printError(note)
            }
            if let note = try hearingOptions.applyNotch(to: &mix, sampleRate: Double(sampleRate)) {
                Terminal.printError(note)
            }
            let hearingChoice = try hearingOptions.choice(default: .off)
            let hearing = try HearingOptions.correction(hearingChoice, device: nil, store: storeOption.root)
            if hearingChoice != .off { Terminal.printError(hearing.note) }
            let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
            let plan = RenderPlan(
                mix: mix, seed: seed, sampleRate: sampleRate, channelCount: channels,
                durationSeconds: p.durationSeconds, timerSeconds: p.timerSeconds, fadeSeconds: p.fadeSeconds,
                fadeInSeconds: p.fadeInSeconds, hearing: hearing.curve)
            let format = AudioFormat(sampleRate: sampleRate, channelCount: channels)
            Terminal.installInterruptHandlers()

            let target = try WAVTarget(path: output)
            let sink = try target.open(
                format: format, encoding: p.encoding, container: p.container, expectedFrames: plan.totalFrames)
            var bar = Terminal.ProgressBar()
            let showProgress = Terminal.stderrIsTerminal && output != "-"
            let frames: Int64
            do {
                frames = try OfflineRenderer.render(
                    plan, to: sink,
                    progress: { done, total in
                        if showProgress { bar.update(done: done, total: total, sampleRate: sampleRate) }
                    }, isCancelled: { interruptRequested.load(ordering: .relaxed) })
                try sink.close(drain: true)
            } catch  where error.kind == .disconnected && target.isStream {
                // The reader closed the pipe (`noise render -o - | head -c 100`): for a filter that
                // is a normal end, not an error.
                try? sink.close(drain: false)
                return
            } catch {
                try? sink.close(drain: false)
                target.abandon()
                throw error
            }
            try target.commit()
            let seconds = Double(frames) / Double(sampleRate)
            let interrupted = frames < plan.totalFrames
            if showProgress && interrupted { FileHandle.standardError.write(Data("\n".utf8)) }
            Terminal.printError(
                "\(interrupted ? "Interrupted: wrote" : "Wrote") \(formatDuration(seconds)) of '\(label)' "
                    + """
                    (\(sampleRate) Hz, \(channels == 2 ? "stereo" : "mono"), \
                    \(p.container == .flac ? "FLAC \(p.encoding.bytesPerSample * 8)-bit" : p.encoding.rawValue), \
                    seed \(seed)) to \(output == "-" ? "standard output" : output)
                    """
                    + (duration != nil && !interrupted && (p.timerSeconds ?? .infinity) < p.durationSeconds
                        ? """
                        ; the sleep timer ended it at \(formatDuration(p.timerSeconds!)), before '--duration' \
                        \(formatDuration(p.durationSeconds))
                        """
                        : ""))
            // The shorter file is valid and kept, but scripts must be able to tell it was cut short.
            if interrupted { throw ExitCode(130) }
        }
    }
}

/// The output of `noise render` (see `OutputTarget`: a regular file is rendered beside itself and
/// renamed over at the end, also after Ctrl-C; `-`, pipes and devices are streamed), opened as a
/// WAV or FLAC sink.
struct WAVTarget {
    let output: OutputTarget
    var isStream: Bool { output.isStream }

    init(path: String) throws {
        do {
            output = try OutputTarget(path: path, exampleName: "sleep.wav")
        } catch {
            throw CLIError(error.description)
        }
    }

    func open(
        format: AudioFormat, encoding: SampleEncoding, container: Noise.Render.Container,
        expectedFrames: Int64
    ) throws -> any AudioSink {
        func sink(descriptor: Int32, owns: Bool, name: String) throws -> any AudioSink {
            switch container {
            case .wav:
                try WAVFileSink(
                    descriptor: descriptor, ownsDescriptor: owns, format: format, encoding: encoding,
                    name: name, expectedFrameCount: expectedFrames)
            case .flac:
                try FLACFileSink(
                    descriptor: descriptor, ownsDescriptor: owns, format: format, encoding: encoding,
                    name: name, expectedFrameCount: expectedFrames)
            }
        }
        if output.isStream {
            let (fd, owned) = try openOrFail()
            return try sink(
                descriptor: fd, owns: owned, name: output.isStandardOutput ? "standard output" : output.path)
        }
        do {
            switch container {
            case .wav:
                return try WAVFileSink(path: output.temporaryPath, format: format, encoding: encoding, exclusive: true)
            case .flac:
                return try FLACFileSink(
                    path: output.temporaryPath, format: format, encoding: encoding, exclusive: true,
                    expectedFrameCount: expectedFrames)
            }
        } catch {
            throw CLIError("cannot write \(output.path): \(error.reason)")
        }
    }

    private func openOrFail() throws -> (descriptor: Int32, owned: Bool) {
        do { return try output.openStream() } catch { throw CLIError(error.description) }
    }

    func commit() throws {
        do { try output.commit() } catch { throw CLIError(error.description) }
    }

    func abandon() { output.abandon() }
}

/// A failure reported as `Error: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
