import AudioOutput
import Foundation
import NoiseEngine

/// One run of the live player from the command line: opens the output, starts the engine, watches
/// for Ctrl-C, the timer and a lost output (retrying with backoff for up to 30 s), and stops cleanly.
struct PlaybackSession {
    let mix: Mix
    let label: String
    let seed: UInt64
    let settings: PlaybackOptions.Parsed


    var selector: OutputSelector {
        OutputSelector(backend: settings.backend, device: settings.device, latencySeconds: settings.latencySeconds,
                       format: AudioFormat(sampleRate: settings.sampleRate, channelCount: settings.channels))
    }

    func run(timerSeconds: Double?, fadeSeconds: Double) throws {
        var options = LivePlayer.Options()
        options.sampleRate = settings.sampleRate
        options.channelCount = settings.channels
        options.fadeInSeconds = settings.fadeInSeconds
        let player = LivePlayer(mix: mix, seed: seed, options: options)
        var sink: any AudioSink
        do {
            sink = try selector.open()
        } catch {
            throw CLIError("\(error)")
        }
        if let timerSeconds { player.send(.setTimer(seconds: timerSeconds, fadeSeconds: fadeSeconds)) }
        try player.start(sink: sink)
        var backend = sink.name
        // Say once what we got, including what the render thread was granted.
        for _ in 0..<20 where player.scheduling == nil { Thread.sleep(forTimeInterval: 0.005) }
        let timerText = timerSeconds.map { ", timer \(formatDuration($0)) (fade \(formatDuration(fadeSeconds)))" } ?? ""
        Terminal.printError("Playing \(mix.name) (\(label)) on \(backend), \(sink.format), \(Int(settings.latencySeconds * 1000)) ms buffer\(timerText); "
            + "\(player.scheduling ?? "scheduling unknown"), flush-to-zero on, seed \(seed). Ctrl-C stops.")

        var stopping = false
        while true {
            Thread.sleep(forTimeInterval: 0.05)
            if interruptRequested.load(ordering: .relaxed) && !stopping {
                stopping = true
                player.send(.fade(position: 0, seconds: 0.5))
                player.send(.finishWhenSilent)
            }
            switch player.state {
            case .finished:
                let used = player.join()
                try? used?.close(drain: true)
                Terminal.printError(stopping ? "Stopped." : "Sleep timer ended.")
                return
            case .outputLost:
                let failure = player.failure.map { "\($0)" } ?? "unknown error"
                try? player.join()?.close(drain: false)
                if stopping { return }
                Terminal.printError("Lost the output \(backend): \(failure). Retrying for \(Int(settings.retrySeconds)) s...")
                guard let replacement = reconnect() else {
                    if interruptRequested.load(ordering: .relaxed) { return }
                    throw CLIError("gave up after \(Int(settings.retrySeconds)) s without an audio output (last error: \(failure))")
                }
                backend = replacement.name
                Terminal.printError("Reconnected to \(backend); playing again.")
                try player.start(sink: replacement, fadeInSeconds: 0.5)
            case .idle, .running:
                continue
            }
        }
    }

    /// Tries to open the output again with growing pauses (0.25 s doubling to 4 s) until the window ends.
    func reconnect() -> (any AudioSink)? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(settings.retrySeconds)
        var pause = 0.25
        while clock.now < deadline {
            if interruptRequested.load(ordering: .relaxed) { return nil }
            Thread.sleep(forTimeInterval: pause)
            if let sink = try? selector.open() { return sink }
            pause = min(pause * 2, 4)
        }
        return nil
    }
}
