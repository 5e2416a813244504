import Foundation
import TestSupport
import Testing

/// `noise render` end to end, as a user runs it.
@Suite struct RenderCLITests {
    func temp() throws -> URL { try Products.temporaryDirectory("render") }

    @Test func rendersAPresetToAValidWAV() throws {
        let dir = try temp()
        let out = dir.appendingPathComponent("sleep.wav").path
        let r = try Products.run(
            "noise", ["render", "--preset", "sleep", "--duration", "3s", "--seed", "7", "-o", out])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("seed 7"))
        let wav = try WAVFile(path: out)
        #expect(wav.sampleRate == 48000 && wav.channelCount == 2 && wav.bitsPerSample == 16)
        #expect(wav.frameCount == 3 * 48000)
        let rms = TestRender.rms(wav.channels[0][...])
        #expect(rms > 0.005 && rms < 0.5)
        // No leftovers beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["sleep.wav"])
    }

    @Test func sameSeedIsByteIdenticalAndOtherSeedsDiffer() throws {
        let dir = try temp()
        func render(_ seed: String, _ name: String) throws -> Data {
            let path = dir.appendingPathComponent(name).path
            let r = try Products.run(
                "noise", ["render", "--preset", "rain", "--duration", "2", "--seed", seed, "-o", path])
            #expect(r.status == 0)
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let a = try render("99", "a.wav"), b = try render("99", "b.wav"), c = try render("100", "c.wav")
        #expect(a == b)
        #expect(a != c)
    }

    @Test(arguments: [("s16", 16, false, 44100, 1), ("s24", 24, false, 96000, 2), ("f32", 32, true, 48000, 1)])
    func formatsRatesAndChannels(format: String, bits: Int, isFloat: Bool, rate: Int, channels: Int) throws {
        let out = try temp().appendingPathComponent("x.wav").path
        let r = try Products.run(
            "noise",
            [
                "render", "--preset", "pink", "--duration", "1s", "--seed", "1", "--format", format,
                "--sample-rate", "\(rate)", "--channels", "\(channels)", "-o", out,
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let wav = try WAVFile(path: out)
        #expect(
            wav.bitsPerSample == bits && wav.isFloat == isFloat && wav.sampleRate == rate
                && wav.channelCount == channels)
        #expect(wav.frameCount == rate)
    }

    @Test func writesToStandardOutput() throws {
        let r = try Products.run(
            "noise", ["render", "--preset", "brown", "--duration", "1s", "--seed", "1", "-o", "-"])
        #expect(r.status == 0)
        let wav = try WAVFile(r.stdout)
        #expect(wav.frameCount == 48000)
    }

    /// A render rises from silence over 10 ms and, without a timer, falls to silence over the
    /// last 10 ms, so a file never clicks where a player starts or loops it; `--fade-in` sets the
    /// rise (0: full level on the first sample) and `--fade` keeps its meaning with `--timer`.
    /// Before issue 41 the first sample was at full level and the last one stopped dead.
    @Test func rendersRampUpAndDownAtTheEdges() throws {
        let dir = try temp()
        func render(_ name: String, _ extra: [String]) throws -> [Float] {
            let out = dir.appendingPathComponent(name).path
            let r = try Products.run(
                "noise",
                ["render", "--preset", "white", "--duration", "3s", "--seed", "4", "--format", "f32", "-o", out]
                    + extra)
            #expect(r.status == 0, "\(r.stderrText)")
            return try WAVFile(path: out).channels[0]
        }
        func peak(_ x: ArraySlice<Float>) -> Float { x.map { abs($0) }.max() ?? 0 }
        let x = try render("edges.wav", [])
        #expect(x.count == 3 * 48000)
        let steady = peak(x[48000..<96000])
        // 480 frames up: the first 48 (a tenth of the ramp) stay under a tenth of the steady peak,
        // the ramp's second half reaches over a third of it; the same mirrored at the end.
        let head = peak(x[0..<48]), tail = peak(x[(x.count - 48)...])
        print("edges: steady peak \(steady), first 1 ms \(head), last 1 ms \(tail), first sample \(x[0])")
        #expect(head < steady / 10 && tail < steady / 10, "head \(head) tail \(tail) steady \(steady)")
        #expect(abs(x[0]) < steady / 100 && abs(x[x.count - 1]) < steady / 100)
        #expect(peak(x[240..<480]) > steady / 3 && peak(x[(x.count - 480)..<(x.count - 240)]) > steady / 3)

        let hard = try render("hard.wav", ["--fade-in", "0"])
        #expect(peak(hard[0..<48]) > steady / 3, "'--fade-in 0' starts at full level")
        #expect(hard[480...] == x[480...], "only the start differs")

        let slow = try render("slow.wav", ["--fade-in", "2s"])
        let quarters = (0..<4).map { TestRender.db(TestRender.rms(slow[($0 * 24000)..<(($0 + 1) * 24000)])) }
        print("--fade-in 2s, level per 0.5 s: \(quarters)")
        for k in 1..<4 { #expect(quarters[k] > quarters[k - 1] + 1, "\(quarters)") }

        // With '--timer', '--fade' is the timer's fade, as before: 1 s down to the timer's end.
        let timed = try render("timed.wav", ["--timer", "2s", "--fade", "1s"])
        #expect(timed.count == 2 * 48000)
        let fadeMiddle = TestRender.rms(timed[(72000 - 2400)..<(72000 + 2400)])
        let before = TestRender.rms(timed[(24000)..<(48000)])
        #expect(TestRender.db(fadeMiddle) < TestRender.db(before) - 3, "\(fadeMiddle) vs \(before)")

        let tooLong = try Products.run(
            "noise", ["render", "--preset", "white", "--duration", "1s", "--fade-in", "2s", "-o", "/tmp/never.wav"])
        #expect(tooLong.status == 64 && tooLong.stderrText.contains("'--fade-in' must not be longer than the render"))
    }

    @Test func sleepTimerFadesToSilenceAndEndsTheFile() throws {
        let out = try temp().appendingPathComponent("t.wav").path
        let r = try Products.run(
            "noise",
            [
                "render", "--preset", "pink", "--duration", "20s", "--timer", "6s", "--fade", "3s",
                "--seed", "1", "-o", out,
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let x = try WAVFile(path: out).channels[0]
        #expect(x.count == 6 * 48000)
        let half = 24000
        let levels: [Double] = (0..<12).map { (i: Int) -> Double in
            TestRender.db(TestRender.rms(x[(i * half)..<((i + 1) * half)]))
        }
        print("timer fade levels: \(levels)")
        #expect(abs(levels[0] - levels[5]) < 1)  // steady before the fade
        for i in 7..<levels.count { #expect(levels[i] < levels[i - 1]) }  // falls all through the fade
        #expect(TestRender.rms(x[(x.count - 480)...]) < 0.0005)  // the last 10 ms are near silence
    }

    /// Each bad mix: non-zero exit, a message naming the file, the field path and the allowed
    /// range, and no output file created — an existing one is left exactly as it was.
    @Test(arguments: [
        (#"{"layers":[{"volume":1.5}]}"#, ["layers[0].volume", "1.5", "0…1"]),
        (#"{"layers":[{},{},{"lowCutHz":5}]}"#, ["layers[2].lowCutHz", "5 Hz", "10…2000"]),
        (#"{"layers":[{"highCutHz":25000}]}"#, ["layers[0].highCutHz", "500…20000"]),
        (#"{"layers":[{"lowCutHz":1500,"highCutHz":1000}]}"#, ["layers[0].lowCutHz", "below highCutHz"]),
        (#"{"layers":[{"eq":{"midDb":-13}}]}"#, ["layers[0].eq.midDb", "-12…12"]),
        (#"{"layers":[{"colour":"pink"}]}"#, ["layers[0].colour", "must be a number", "a string"]),
        (#"{"layers":[{"enabled":1}]}"#, ["layers[0].enabled", "true or false"]),
        (#"{"layers":[{"volume":0.5,"reverb":1}]}"#, ["layers[0].reverb", "not a known field"]),
        (#"{"masterVolume":2,"layers":[{}]}"#, ["masterVolume", "0…1"]),
        (#"{"layers":[{},{},{},{},{}]}"#, ["layers", "5 layers", "1…4"]),
        (#"{"layers":[]}"#, ["layers", "1…4"]),
        (#"{"name":"x"}"#, ["layers", "missing"]),
        (#"{"layers":[{"volume":0.5,}]}"#, ["invalid JSON", "line 1"]),
        ("{\n  \"layers\": [\n    {\"volume\": 0.5}\n  ],\n  \"layers\": []\n}", ["duplicate key", "line 5"]),
        (#"[1,2]"#, ["must be an object"]),
    ])
    func badMixIsRejectedAndNothingIsWritten(json: String, expected: [String]) throws {
        let dir = try temp()
        let mix = dir.appendingPathComponent("bad.json")
        try Data(json.utf8).write(to: mix)
        let fresh = dir.appendingPathComponent("new.wav").path
        let r1 = try Products.run("noise", ["render", "--mix", mix.path, "--duration", "1s", "-o", fresh])
        #expect(r1.status != 0)
        #expect(r1.stderrText.contains(mix.path), "\(r1.stderrText)")
        for e in expected { #expect(r1.stderrText.contains(e), "missing '\(e)' in: \(r1.stderrText)") }
        #expect(!FileManager.default.fileExists(atPath: fresh))
        let existing = dir.appendingPathComponent("keep.wav")
        try Data("precious".utf8).write(to: existing)
        let r2 = try Products.run("noise", ["render", "--mix", mix.path, "--duration", "1s", "-o", existing.path])
        #expect(r2.status != 0)
        #expect(try Data(contentsOf: existing) == Data("precious".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.json", "keep.wav"])
    }

    @Test(arguments: [
        (["--duration", "10s", "--timer", "20s"], "'--timer' must not be longer than '--duration'"),
        (["--duration", "ten"], "'--duration'"),
        (["--duration", "1s", "--format", "mp3"], "'--format' mp3"),
        (["--duration", "1s", "--sample-rate", "22050"], "'--sample-rate' 22050"),
        (["--duration", "1s", "--channels", "6"], "'--channels' 6"),
        (["--duration", "1s", "--fade", "2s"], "'--fade' needs '--timer'"),
    ])
    func badOptionsAreRejectedWithTheFlagNamed(args: [String], expected: String) throws {
        let out = try temp().appendingPathComponent("x.wav").path
        let r = try Products.run("noise", ["render", "--preset", "pink", "-o", out] + args)
        #expect(r.status == 64)
        #expect(r.stderrText.contains(expected), "\(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func unknownPresetListsTheAvailableOnes() throws {
        let r = try Products.run("noise", ["render", "--preset", "nope", "--duration", "1s", "-o", "/tmp/never.wav"])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("no preset named 'nope'") && r.stderrText.contains("sleep"))
    }

    @Test func presetsAreListedShownAndUserPresetsOverride() throws {
        let config = try temp()
        let list = try Products.run("noise", ["presets"], environment: ["XDG_CONFIG_HOME": config.path])
        let ids = ["airplane", "brown", "deep-focus", "fan", "ocean", "pink", "rain", "sleep", "white"]
        for id in ids { #expect(list.stdoutText.contains(id)) }
        let presets = config.appendingPathComponent("widgetweaver/presets")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try Data(#"{"name":"My Sleep","description":"mine","layers":[{"colour":0.4}]}"#.utf8).write(
            to: presets.appendingPathComponent("sleep.json"))
        let show = try Products.run(
            "noise", ["presets", "show", "sleep", "--json"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(show.status == 0)
        #expect(show.stdoutText.contains("My Sleep") && show.stdoutText.contains("0.4"))
    }

    /// Ctrl-C during a long render leaves a valid, shorter file.
    @Test func interruptLeavesAValidShorterFile() throws {
        let out = try temp().appendingPathComponent("long.wav").path
        let p = try ChildProcess(
            Products.url("noise").path, ["render", "--preset", "sleep", "--duration", "8h", "--seed", "1", "-o", out])
        _ = eventually(10) { (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0 > 0 }
        p.signal(SIGINT)
        #expect(p.wait() == 130)  // cut short, said so, and the file is still valid
        let wav = try WAVFile(path: out)
        #expect(wav.frameCount > 48000 && wav.frameCount < 8 * 3600 * 48000)
    }
}

@Suite struct RenderTargetTests {
    @Test func devicesArePlainStreamsAndLinksAreFollowed() throws {
        let dir = try Products.temporaryDirectory("targets")
        // /dev/null stays a device: nothing is renamed over it.
        let r1 = try Products.run("noise", ["render", "--preset", "pink", "--duration", "1s", "-o", "/dev/null"])
        #expect(r1.status == 0, "\(r1.stderrText)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        // A FIFO gets the stream; it is not replaced by a regular file.
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try ChildProcess("/bin/sh", ["-c", "cat '\(fifo)' > '\(dir.path)/got.wav'"])
        let r2 = try Products.run(
            "noise", ["render", "--preset", "pink", "--duration", "1s", "--seed", "1", "-o", fifo])
        reader.wait()
        #expect(r2.status == 0, "\(r2.stderrText)")
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try WAVFile(path: dir.path + "/got.wav").frameCount == 48000)
        // A symbolic link stays a link; its target gets the render.
        let target = dir.appendingPathComponent("real.wav").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = dir.appendingPathComponent("link.wav").path
        #expect(symlink(target, link) == 0)
        let r3 = try Products.run("noise", ["render", "--preset", "pink", "--duration", "1s", "-o", link])
        #expect(r3.status == 0)
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(try WAVFile(path: target).frameCount == 48000)
    }
}
