import AudioOutput
import AudioSinkBase
import Foundation
import MPRISPlayer
import NoiseControl
import NoiseDSP
import NoiseEngine
import PlayerLiveness
import SharedStore
import SystemBusServices

/// One run of the live player from the command line: takes the control socket (or hands the
/// request to a player that already runs), opens the output, starts the engine, publishes status
/// and the Last Mix, watches for signals, `noise stop`, the timer and a lost output (retrying with
/// backoff), and stops cleanly.
struct PlaybackSession {
    let mix: Mix
    let label: String
    let presetID: String?
    let seed: UInt64
    let settings: PlaybackOptions.Parsed
    let store: StoreRoot
    var exclusive = false
    /// The master was set for this run (`--loudness`): a hand-over sends it after the preset.
    var setsMaster = false
    /// What the end of the sleep timer does (`--then`).
    var timerEnd = TimerEnd.stop
    /// `--hearing`: resolved once the output is open (auto needs the device's name).
    var hearing = HearingOptions.Choice.auto

    typealias TimerEnd = NoiseControl.TimerEnd

    var selector: OutputSelector {
        OutputSelector(
            backend: settings.backend, device: settings.device, latencySeconds: settings.latencySeconds,
            format: AudioFormat(sampleRate: settings.sampleRate, channelCount: settings.channels))
    }

    /// Resolves `--hearing` for the output now open and hands the correction to the player (before
    /// its first block, so it starts corrected); says what it did. A bad profile file is reported
    /// and playback goes on uncorrected: the sound is already promised.
    func applyHearing(player: LivePlayer, sink: any AudioSink) {
        let device = OutputDeviceName.of(sinkName: sink.name, backendDevice: settings.device)
        do {
            let (curve, note) = try HearingOptions.correction(hearing, device: device, store: store)
            if hearing != .off { Terminal.printError(note) }
            switch hearing {
            case .auto: player.hearingLabel = device.map { "the profile of \($0)" }
            case .file(let path): player.hearingLabel = "profile \(path)"
            case .equalLoudness(let phon):
                player.hearingLabel = "ISO 226 compensation for \(JSONValueText.number(phon)) phon"
            case .off: player.hearingLabel = nil
            }
            if curve != nil || mix.notch != nil {
                player.setMasterFilter(
                    MasterFilterDesign(correction: curve, notch: mix.notch?.settings), rampSeconds: 0)
            }
        } catch {
            Terminal.printError("warning: \(error); playing without hearing correction")
        }
    }

    static func output(of sink: any AudioSink) -> PlayerStatus.Output {
        let name = sink.name
        guard let open = name.firstIndex(of: "("), name.hasSuffix(")") else { return .init(backend: name, device: "") }
        return .init(
            backend: String(name[..<open]).trimmingCharacters(in: .whitespaces),
            device: String(name[name.index(after: open)..<name.index(before: name.endIndex)]))
    }

    func run(timerSeconds: Double?, fadeSeconds: Double) throws {
        // Before any thread of ours runs: libpulse reads it when the stream's context is made.
        PulseAudioSink.exportStreamProperties()
        var options = LivePlayer.Options()
        options.sampleRate = settings.sampleRate
        options.channelCount = settings.channels
        options.fadeInSeconds = settings.fadeInSeconds
        options.blockFrames = LivePlayer.Options.blockFrames(
            latencySeconds: settings.latencySeconds, sampleRate: settings.sampleRate)
        let player = LivePlayer(mix: mix, seed: seed, options: options, ended: sessionWake)
        let controller = PlayerController(
            player: player, mix: mix, presetID: presetID,
            output: .init(backend: "none", device: ""),
            saver: LastMixSaver(store: LastMixStore(root: store)),
            timerEndProblem: { end in
                // Asked when a client sets the timer's end (`noise timer --then`, the Noise page).
                do {
                    _ = try Logind()
                    return nil
                } catch {
                    return "\(end.actionWords) at the timer's end needs systemd-logind, which did not answer: \(error)"
                }
            })

        // One player per user: the socket decides. Taken before the output, so a second
        // `noise play` never opens the sound device at all.
        let server = ControlServer(handler: { controller.handle($0) })
        do {
            try server.start()
        } catch ControlError.alreadyRunning {
            try handOver(timerSeconds: timerSeconds, fadeSeconds: fadeSeconds)
            return
        }

        // logind: asked for at start, so '--then suspend' without it is refused before any sound.
        var logind: Logind?
        if timerEnd != .stop || settings.inhibit {
            do {
                logind = try Logind()
            } catch {
                if timerEnd != .stop {
                    server.stop()
                    throw CLIError("'--then \(timerEnd.rawValue)' needs systemd-logind, which did not answer: \(error)")
                }
            }
        }
        let idleLock = IdleLock(logind: settings.inhibit ? logind : nil)

        var sink: any AudioSink
        do {
            sink = try selector.open()
        } catch {
            server.stop()
            throw CLIError("\(error)")
        }
        controller.setOutput(Self.output(of: sink))
        applyHearing(player: player, sink: sink)
        if let timerSeconds {
            player.send(.setTimer(seconds: timerSeconds, fadeSeconds: fadeSeconds))
            controller.noteStartingTimer(seconds: timerSeconds, fadeSeconds: fadeSeconds, then: timerEnd)
        }
        do {
            try player.start(sink: sink)
        } catch {
            server.stop()
            throw error
        }
        controller.saveLastMix()
        // `--hearing auto`: a profile saved for this device while playing is taken at once.
        var follower: HearingProfileFollower?
        if hearing == .auto, let device = OutputDeviceName.of(sinkName: sink.name, backendDevice: settings.device) {
            do {
                follower = try HearingProfileFollower(device: device, store: store)
                follower?.start(status: { controller.status() })
            } catch {
                Terminal.printError("warning: a hearing profile saved while playing waits for the next play: \(error)")
            }
        }
        let statusStore = StatusStore(root: store)
        // Liveness beside the control socket (a tmpfs), not in the store: see PlayerHeartbeat.
        var heartbeat: PlayerHeartbeat?
        do { heartbeat = try PlayerHeartbeat() } catch { Terminal.printError("warning: no heartbeat file: \(error)") }
        let publisher = StatusPublisher(
            store: statusStore, server: server, heartbeat: heartbeat, snapshot: { controller.status() },
            onError: { Terminal.printError("warning: cannot publish status: \($0)") })
        controller.attach(publisher)
        publisher.start()
        let artwork = MPRISArtwork(root: store)
        let mpris =
            settings.mpris
            ? MPRISService(controller: controller, artwork: { artwork.url(for: $0) }, log: { Terminal.printError($0) })
            : nil
        mpris?.start()

        for _ in 0..<20 where player.scheduling == nil { Thread.sleep(forTimeInterval: 0.005) }
        RenderPriority.raise(player)
        let timerText = timerSeconds.map { ", timer \(formatDuration($0)) (fade \(formatDuration(fadeSeconds)))" } ?? ""
        Terminal.printError(
            """
            Playing \(mix.name) (\(label)) on \(sink.name), \(sink.format), \(Int(settings.latencySeconds * 1000)) \
            ms buffer\(timerText);\u{20}
            """
                + "\(player.scheduling ?? "scheduling unknown"), flush-to-zero on, seed \(seed). Ctrl-C stops.")
        if let advice = player.schedulingAdvice { Terminal.printError("warning: \(advice)") }

        var signalled: Int32 = 0
        var failure: Error?
        var stopAskedAt: ContinuousClock.Instant?
        var renderThreadBlocked = false
        idleLock.follow(playing: true)
        loop: while true {
            // Woken by a signal or by the render thread ending; the timeout is only a safety net.
            sessionWake.wait(seconds: 2)
            idleLock.follow(playing: !controller.isPaused && !controller.stopRequested)
            let caught = Terminal.caughtSignal
            if caught != 0 && signalled == 0 {
                signalled = caught
                player.stop(fadeSeconds: PlayerController.stopFadeSeconds)
            }
            if stopAskedAt == nil && (signalled != 0 || controller.stopRequested) { stopAskedAt = .now }
            switch player.state {
            case .finished:
                try? player.join()?.close(drain: true)
                let timerEnded = signalled == 0 && !controller.stopRequested
                Terminal.printError(timerEnded ? "Sleep timer ended." : "Stopped.")
                idleLock.follow(playing: false)
                // What the end does now: '--then', or what a client set since (`noise timer --then`).
                let end = controller.timerEnd
                if timerEnded, end != .stop {
                    do {
                        let bus = try logind ?? Logind()
                        if end == .suspend { try bus.suspend() } else { try bus.powerOff() }
                        Terminal.printError(
                            end == .suspend ? "Suspending (systemd-logind)." : "Powering off (systemd-logind).")
                    } catch {
                        failure = CLIError("the timer ended but \(end.actionWords) failed: \(error)")
                    }
                }
                break loop
            case .outputLost:
                let reason = player.failure.map { "\($0)" } ?? "unknown error"
                try? player.join()?.close(drain: false)
                if signalled != 0 || controller.stopRequested { break loop }
                var lost = Self.output(of: sink)
                lost.lost = true
                controller.setOutput(lost)
                Terminal.printError(
                    "Lost the output \(sink.name): \(reason). Retrying for \(Int(settings.retrySeconds)) s...")
                guard let replacement = reconnect(unlessStopped: controller) else {
                    if Terminal.caughtSignal != 0 || controller.stopRequested { break loop }
                    failure = CLIError(
                        "gave up after \(Int(settings.retrySeconds)) s without an audio output (last error: \(reason))")
                    break loop
                }
                sink = replacement
                controller.setOutput(Self.output(of: sink))
                Terminal.printError("Reconnected to \(sink.name); playing again.")
                do {
                    try player.start(sink: replacement, fadeInSeconds: 0.5)
                } catch {
                    failure = error
                    break loop
                }
            case .idle, .running:
                // A suspended sink (or a device that stopped taking audio) takes no audio, so the
                // fade-out never finishes rendering: stop without it rather than hang. The render
                // thread stays blocked in the output until the process exits.
                let patienceSeconds = PlayerController.stopFadeSeconds + 3
                if let stopAskedAt, ContinuousClock.now - stopAskedAt > .seconds(patienceSeconds) {
                    Terminal.printError(
                        "Stopped. The output took no audio for \(Int(patienceSeconds)) s "
                            + "(suspended?), so the fade-out was not played.")
                    renderThreadBlocked = true
                    break loop
                }
                continue
            }
        }
        idleLock.follow(playing: false)
        // The session ending (SIGTERM at logout, SIGHUP) keeps "was playing", so the next login
        // resumes, and so does giving up on a lost output (nobody chose to stop); Ctrl-C,
        // `noise stop` and the sleep timer end it on purpose.
        let sessionEnded = signalled == SIGTERM || signalled == SIGHUP
        follower?.stop()
        // Close the socket first, so no late request can publish "playing" after the final status.
        server.stop()
        mpris?.stop()
        artwork.remove()
        publisher.stop(final: controller.status(state: .stopped))
        controller.finish(wasPlaying: sessionEnded || failure != nil)
        if let failure { throw failure }
        // The blocked render thread still uses the player and the sink: end the process here
        // rather than free them under it.
        if renderThreadBlocked { exit(0) }
    }

    /// A player already runs: give it this request instead of playing twice (or refuse).
    func handOver(timerSeconds: Double?, fadeSeconds: Double) throws {
        if exclusive {
            throw CLIError(
                "a player is already running ('noise status' shows it); not starting another because of '--exclusive'")
        }
        let client = ControlClient()
        var requests: [ControlRequest] = []
        if let presetID {
            // A scheduled preset (`noise schedule`) fades in over minutes: with '--fade-in' the
            // running player crossfades over it instead of the usual 2 s.
            requests.append(.preset(id: presetID, crossfadeSeconds: settings.fadeInGiven ? settings.fadeInSeconds : 2))
            if setsMaster { requests.append(.setMaster(volume: mix.masterVolume)) }
        } else {
            for (i, layer) in mix.layers.enumerated() {
                requests.append(.setLayer(index: i, change: LayerChange(replacing: layer)))
            }
            for i in mix.layers.count..<4 { requests.append(.setLayer(index: i, change: LayerChange(enabled: false))) }
            requests.append(.setMaster(volume: mix.masterVolume))
        }
        requests.append(.resume)
        if let timerSeconds {
            requests.append(.timer(seconds: timerSeconds, fadeSeconds: fadeSeconds))
            // The running player acts on the end now (it refuses suspend or poweroff without logind).
            if timerEnd != .stop { requests.append(.then(timerEnd)) }
        }
        for request in requests {
            if case .error(let message) = try client.send(request) {
                throw CLIError("the running player refused the change: \(message)")
            }
        }
        Terminal.printError(
            "A player is already running: switched it to \(mix.name) (\(label))"
                + (timerSeconds.map { " with a \(formatDuration($0)) timer" } ?? "") + " instead of starting another."
                + " It keeps its own output and format; use 'noise stop' first to change those.")
    }

    /// Tries to open the output again with growing pauses (0.25 s doubling to 4 s) until the window ends.
    func reconnect(unlessStopped controller: PlayerController) -> (any AudioSink)? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(settings.retrySeconds)
        var pause = 0.25
        while clock.now < deadline {
            if Terminal.caughtSignal != 0 || controller.stopRequested { return nil }
            Thread.sleep(forTimeInterval: pause)
            if let sink = try? selector.open() { return sink }
            pause = min(pause * 2, 4)
        }
        return nil
    }
}

/// logind's idle inhibitor, held while the noise is heard and given back on pause and stop, so
/// the machine does not idle into suspend under a sleep sound (the screen may still lock).
final class IdleLock {
    let logind: Logind?
    private var inhibitor: Logind.Inhibitor?
    private var warned = false

    init(logind: Logind?) { self.logind = logind }

    func follow(playing: Bool) {
        guard let logind else { return }
        if playing, inhibitor == nil {
            do {
                inhibitor = try logind.inhibit(what: "idle", who: "noise", why: "Noise is playing")
            } catch {
                if !warned { Terminal.printError("warning: no idle inhibitor: \(error)") }
                warned = true
            }
        } else if !playing, let held = inhibitor {
            held.release()
            inhibitor = nil
        }
    }
}
