import Foundation
import TestSupport
import Testing

/// `noise play` through real PulseAudio and ALSA, read back from the server's monitor and from
/// ALSA's `file` plugin, and compared with the headless render of the same mix and seed.
@Suite(.serialized) struct PlaybackTests {
    static func render(_ args: [String]) throws -> WAVFile {
        let out = try Products.temporaryDirectory("ref").appendingPathComponent("ref.wav").path
        let r = try Products.run("noise", ["render"] + args + ["-o", out])
        #expect(r.status == 0, "\(r.stderrText)")
        return try WAVFile(path: out)
    }

    /// The part of a recording where sound is: from the first to the last sample above −80 dBFS.
    static func active(_ x: [Float]) -> ArraySlice<Float> {
        let first = x.firstIndex { abs($0) > 1e-4 } ?? 0
        let last = x.lastIndex { abs($0) > 1e-4 } ?? 0
        return x[first...max(first, last)]
    }

    @Test func playsThroughPulseAudioAndSoundsLikeTheRender() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let recorder = try server.record(to: server.directory.appendingPathComponent("rec.wav"))
        // No fade-in on either side ('render' ramps over 10 ms by default, 'play' over 3 s).
        let args = ["--preset", "rain", "--seed", "5", "--timer", "4s", "--fade", "1s", "--fade-in", "0"]
        let env = TestStore(at: server.directory.appendingPathComponent("store")).environment(server.environment)
        let r = try Products.run("noise", ["play"] + args, environment: env)
        // The server's buffer drains into the recording after the player exits: 0.3 s more of the monitor.
        recorder.waitForAudio(0.3)
        let rec = try recorder.stop()
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("on pulse (default sink)"))
        let played = Self.active(rec.channels[0])
        let reference = try Self.render(args)
        print(
            """
            recorded \(rec.frameCount) frames, active \(played.count), render active \
            \(Self.active(reference.channels[0]).count)
            """
        )
        #expect(abs(played.count - Self.active(reference.channels[0]).count) < 480)  // all of it, within 10 ms

        // Level and spectrum of the steady part (0.5…2.5 s) match the render.
        let a = Array(played.dropFirst(24000).prefix(96000))
        let (levelDiff, worstBand) = Self.steadyDifference(played: played, reference: reference.channels[0])
        print("pulse vs render: level \(levelDiff) dB, worst band \(worstBand) dB")
        #expect(abs(levelDiff) < 0.5)
        #expect(worstBand < 1.5)
        // No dropouts: every 10 ms window of the steady part carries sound.
        let quietest = stride(from: 0, to: a.count - 480, by: 480).map {
            TestRender.db(TestRender.rms(a[$0..<($0 + 480)]))
        }.min()!
        #expect(quietest > TestRender.db(TestRender.rms(a[...])) - 20)
        // No clipping.
        #expect(played.map { abs($0) }.max()! < 0.966)
        // The server got the very samples we rendered (s16 both ways): find the render in the recording.
        #expect(
            Self.renderOffset(reference.channels[0], in: rec.channels[0]) != nil,
            "the rendered samples were not found in the recording")
    }

    /// Level (dB) and worst third-octave band (dB, 100 Hz–10 kHz) between the steady part
    /// (0.5…2.5 s) of what was played and of the render.
    static func steadyDifference(played: ArraySlice<Float>, reference: [Float]) -> (
        levelDb: Double, worstBandDb: Double
    ) {
        let a = Array(played.dropFirst(24000).prefix(96000)), b = Array(reference[24000..<120000])
        let levelDiff = TestRender.db(TestRender.rms(a[...])) - TestRender.db(TestRender.rms(b[...]))
        let bands = Spectrum.bandCentres(from: 100, to: 10000, perOctave: 3)
        func levels(_ x: [Float]) -> [Double] {
            let w = Spectrum.welch(x, sampleRate: 48000, segment: 4096)
            return Spectrum.bandLevelsDb(binHz: w.binHz, density: w.density, centresHz: bands, fraction: 3)
        }
        return (levelDiff, zip(levels(a), levels(b)).map { abs($0 - $1) }.max()!)
    }

    /// Where 64 rendered samples (from frame 30,000) appear in the recording, within two s16 steps:
    /// the server's float-to-s16 conversion and the WAV writer's (× 32767) round differently by up
    /// to one step, and scale differently by up to |x| of a step.
    static func renderOffset(_ reference: [Float], in recorded: [Float]) -> Int? {
        let probe = Array(reference[30000..<30064])
        return (0..<(recorded.count - 64)).first { i in
            (0..<64).allSatisfy { abs(recorded[i + $0] - probe[$0]) <= 2.0 / 32767 }
        }
    }

    @Test func playsThroughALSAAndWritesExactlyTheRender() throws {
        let dir = try Products.temporaryDirectory("alsa")
        let raw = dir.appendingPathComponent("alsa-out.raw").path
        let conf = dir.appendingPathComponent("asound-ci.conf")
        try Data("pcm.ciwav { type file slave.pcm \"null\" file \"\(raw)\" format \"raw\" }\n".utf8).write(to: conf)
        let env = TestStore(at: dir.appendingPathComponent("store")).environment([
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(conf.path)", "XDG_RUNTIME_DIR": dir.path,
        ])
        // No fade-in on either side ('render' ramps over 10 ms by default, 'play' over 3 s).
        let args = ["--preset", "ocean", "--seed", "11", "--timer", "3s", "--fade", "1s", "--fade-in", "0"]
        let r = try Products.run(
            "noise", ["play", "--output", "alsa", "--device", "ciwav"] + args, environment: env)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("alsa (ciwav)"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        let played: [Float] = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let reference = try Self.render(args + ["--format", "f32"])
        var interleaved: [Float] = []
        for i in 0..<reference.frameCount { interleaved += [reference.channels[0][i], reference.channels[1][i]] }
        #expect(played.count == interleaved.count)
        // Bit for bit, whatever the device block size (a block of half the buffer once broke this:
        // the live chain must not depend on how the device asks for audio).
        let worst = zip(played, interleaved).map { abs($0 - $1) }.max() ?? 0
        print("ALSA against the render: largest sample difference \(worst)")
        #expect(
            worst == 0, "ALSA received different samples than the render: \(firstDifference(played, interleaved) ?? "")"
        )
    }

    @Test func noServerAndNoDeviceIsAClearError() throws {
        let empty = try Products.temporaryDirectory("nothing")
        let r = try Products.run(
            "noise", ["play", "--preset", "pink"],
            environment: TestStore(at: empty.appendingPathComponent("store")).environment([
                "XDG_RUNTIME_DIR": empty.path, "HOME": empty.path, "PULSE_SERVER": "unix:\(empty.path)/none",
            ]))
        #expect(r.status != 0)
        #expect(r.stderrText.contains("pulse"), "\(r.stderrText)")
        #expect(r.stderrText.contains("alsa"))
        #expect(r.stderrText.contains("noise render"))
    }

    /// `noise play --preset <preset> --retry-for <window>` on `server`, with a store of its own.
    static func play(_ preset: String, retryingFor window: String, on server: PulseServer) throws -> Spawned {
        try Spawned(
            "noise", ["play", "--preset", preset, "--fade-in", "0", "--retry-for", window],
            environment: TestStore(at: server.directory.appendingPathComponent("store")).environment(server.environment)
        )
    }

    @Test func serverKilledMidPlayIsReportedAndGivesUp() throws {
        let server = try PulseServer()
        let player = try Self.play("pink", retryingFor: "2s", on: server)
        #expect(player.waitForStderr(5) { $0.contains("Playing") })
        // A second of playing before the server dies is the scenario: it must play all through it.
        #expect(throughout(1) { !player.stderrText.contains("Lost the output") }, "\(player.stderrText)")
        server.kill()
        #expect(player.waitForStderr(5) { $0.contains("Lost the output") }, "\(player.stderrText)")
        let status = player.waitForExit(15)
        print(player.stderrText)
        #expect(status == 1, "exit status \(String(describing: status)) (nil: hung)")
        #expect(player.stderrText.contains("gave up after 2 s"))
    }

    @Test func serverBackWithinTheWindowResumesPlayback() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let player = try Self.play("brown", retryingFor: "20s", on: server)
        #expect(player.waitForStderr(5) { $0.contains("Playing") })
        // A second of playing before the server dies is the scenario: it must play all through it.
        #expect(throughout(1) { !player.stderrText.contains("Lost the output") }, "\(player.stderrText)")
        server.kill()
        #expect(player.waitForStderr(5) { $0.contains("Lost the output") })
        // The server stays away for a second (the player's retries are tested): no reconnection meanwhile.
        #expect(throughout(1) { !player.stderrText.contains("Reconnected") }, "\(player.stderrText)")
        try server.start()
        #expect(player.waitForStderr(15) { $0.contains("Reconnected") }, "\(player.stderrText)")
        let recorder = try server.record(to: server.directory.appendingPathComponent("after.wav"))
        recorder.waitForAudio(1.5)  // the recording's length
        let rec = try recorder.stop()
        #expect(TestRender.rms(rec.channels[0][...]) > 0.005, "no sound after reconnecting")
        #expect(player.terminate() == 0)
        #expect(player.stderrText.contains("Stopped."))
    }

    /// Issue 41 item 24: 20 s at the default 150 ms buffer with one core held busy by a spinning
    /// process do not underrun: the render thread runs at real-time priority where it is allowed
    /// (as root here) and says which it got; the count is the player's own (PulseAudio's underflow
    /// callbacks), read from the final status it writes when the timer ends.
    @Test func oneBusyCoreCausesNoUnderrun() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let store = server.directory.appendingPathComponent("store")
        let env = TestStore(at: store).environment(server.environment)
        let hog = try ChildProcess("/bin/sh", ["-c", "while :; do :; done"])
        defer {
            hog.signal(SIGKILL)
            _ = hog.wait(timeoutSeconds: 10)
        }
        let r = try Products.run(
            "noise",
            ["play", "--preset", "sleep", "--fade-in", "0", "--timer", "20s", "--fade", "1s", "--no-mpris"],
            environment: env)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("150 ms buffer"), "\(r.stderrText)")
        #expect(r.stderrText.contains("real-time scheduling (SCHED_FIFO"), "\(r.stderrText)")
        let status = try #require(StoreStatus.read(store), "no final status")
        let underruns = try #require(status["underruns"] as? Int)
        print("20 s with one busy core: \(underruns) underruns; \(r.stderrText.split(separator: "\n").first ?? "")")
        #expect(underruns == 0, "\(r.stderrText)")
    }

    /// Where real-time priority is not allowed (no CAP_SYS_NICE, RLIMIT_RTPRIO 0: an ordinary
    /// user without an rtprio grant), the player says so and what to do, and still plays.
    @Test func refusedRealTimePriorityIsSaid() throws {
        let server = try PulseServer()
        defer { server.stop() }
        let env = TestStore(at: server.directory.appendingPathComponent("store")).environment(server.environment)
        let child = try ChildProcess(
            "/usr/bin/setpriv",
            [
                "--bounding-set=-sys_nice", "/usr/bin/prlimit", "--rtprio=0", Products.url("noise").path, "play",
                "--preset", "pink", "--fade-in", "0", "--timer", "1s", "--fade", "0s", "--no-mpris",
            ], environment: env)
        let status = child.wait()
        let stderr = String(decoding: child.stderr, as: UTF8.self)
        #expect(status == 0, "\(stderr)")
        #expect(
            stderr.contains("normal scheduling (SCHED_FIFO refused: Operation not permitted")
                && stderr.contains("rtkit: "), "\(stderr)")
        #expect(
            stderr.contains("warning: the render thread has no real-time priority (RLIMIT_RTPRIO is 0"), "\(stderr)")
    }

}
