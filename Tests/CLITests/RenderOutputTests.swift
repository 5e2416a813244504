import Foundation
import TestSupport
import Testing

/// `noise render` after a new user's trial (issue 16): FLAC output, summaries that say what was
/// written, a closed pipe as a normal end, clear messages.
@Suite struct RenderOutputTests {
    func temp() throws -> URL { try Products.temporaryDirectory("render-polish") }

    /// Decoded by the reference decoder (`flac -d`, which also checks the MD5 in STREAMINFO),
    /// a FLAC render holds exactly the samples of the WAV render of the same seed.
    @Test(arguments: [("flac", "s16"), ("flac24", "s24")])
    func flacDecodesToTheSamplesOfTheWAV(flacFormat: String, wavFormat: String) throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("a.wav").path, flac = dir.appendingPathComponent("a.flac").path
        let common = ["render", "--preset", "ocean", "--duration", "6s", "--seed", "11", "--channels", "2"]
        var r = try Products.run("noise", common + ["--format", wavFormat, "-o", wav])
        #expect(r.status == 0, "\(r.stderrText)")
        r = try Products.run("noise", common + ["--format", flacFormat, "-o", flac])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("FLAC \(wavFormat == "s16" ? 16 : 24)-bit"))
        let decoded = dir.appendingPathComponent("decoded.wav").path
        let d = try ChildProcess("/usr/bin/flac", ["-d", "-f", "-s", "-o", decoded, flac])
        #expect(d.wait() == 0, "\(String(decoding: d.stderr, as: UTF8.self))")
        let a = try WAVFile(path: wav), b = try WAVFile(path: decoded)
        #expect(a.sampleRate == b.sampleRate && a.channelCount == b.channelCount && a.bitsPerSample == b.bitsPerSample)
        #expect(a.frameCount == 6 * 48000 && b.frameCount == a.frameCount)
        let difference = firstDifference(channels: a.channels, b.channels)
        #expect(difference == nil, "decoded FLAC differs from the WAV render: \(difference ?? "")")
        let wavBytes = try FileManager.default.attributesOfItem(atPath: wav)[.size] as! Int
        let flacBytes = try FileManager.default.attributesOfItem(atPath: flac)[.size] as! Int
        print(
            """
            ocean 6 s \(flacFormat): FLAC \(flacBytes) B, WAV \(wavBytes) B, ratio \
            \(String(format: "%.3f", Double(flacBytes) / Double(wavBytes)))
            """
        )
        #expect(flacBytes < wavBytes)
    }

    @Test func flacByNameAndToAPipe() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let byName = dir.appendingPathComponent("night.flac").path
        var r = try Products.run(
            "noise", ["render", "--preset", "brown", "--duration", "2s", "--seed", "3", "-o", byName])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: byName)).prefix(4) == Data("fLaC".utf8))
        // Standard output: a stream the decoder reads from a pipe.
        r = try Products.run(
            "noise", ["render", "--preset", "brown", "--duration", "2s", "--seed", "3", "--format", "flac", "-o", "-"])
        #expect(r.status == 0)
        let d = try ChildProcess("/usr/bin/flac", ["-d", "-s", "-c", "-"], stdin: r.stdout)
        #expect(d.wait() == 0, "\(String(decoding: d.stderr, as: UTF8.self))")
        let fromPipe = try WAVFile(d.stdout)
        let file = try ChildProcess("/usr/bin/flac", ["-d", "-s", "-c", byName])
        file.wait()
        let pipeDifference = firstDifference(channels: try WAVFile(file.stdout).channels, fromPipe.channels)
        #expect(pipeDifference == nil, "\(pipeDifference ?? "")")
        // Formats that cannot be, refused before anything is written.
        r = try Products.run(
            "noise",
            [
                "render", "--preset", "brown", "--duration", "1s", "--format", "flac", "-o",
                dir.appendingPathComponent("x.wav").path,
            ])
        #expect(r.status == 64 && r.stderrText.contains("ends in .wav; name it .flac"))
        r = try Products.run(
            "noise",
            [
                "render", "--preset", "brown", "--duration", "1s", "--format", "f32", "-o",
                dir.appendingPathComponent("x.flac").path,
            ])
        #expect(r.status == 64 && r.stderrText.contains("FLAC holds integers"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["night.flac"])
    }

    /// 16 (13), (16), (17): the summary keeps fractions of a second, says when the timer ended
    /// the render before '--duration', and a folder as output gets a real message.
    @Test func summariesAndMessages() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.wav").path
        var r = try Products.run("noise", ["render", "--preset", "pink", "--duration", "1.5s", "-o", out])
        #expect(r.stderrText.hasPrefix("Wrote 1.5s of 'pink'"), "\(r.stderrText)")
        #expect(try WAVFile(path: out).frameCount == 72000)
        r = try Products.run("noise", ["render", "--preset", "pink", "--duration", "5s", "--timer", "3s", "-o", out])
        #expect(r.status == 0)
        #expect(r.stderrText.contains("the sleep timer ended it at 3s, before '--duration' 5s"), "\(r.stderrText)")
        r = try Products.run("noise", ["render", "--preset", "pink", "--duration", "1s", "-o", dir.path])
        #expect(r.status == 1)
        #expect(
            r.stderrText.contains(
                "'--output' \(dir.path) is a folder; give a file name, e.g. -o \(dir.path)/sleep.wav"),
            "\(r.stderrText)")
        #expect(!r.stderrText.contains("Usage: noise <subcommand>"))
    }

    /// 16 (14): `noise render -o - | head -c 100` printed "Broken pipe" and exited 1.
    @Test func aClosedPipeIsANormalEnd() throws {
        let noise = Products.url("noise").path
        let script =
            """
            '\(noise)' render --preset pink --duration 30s -o - 2>\"$1\" | head -c 100 >/dev/null; echo \
            \"${PIPESTATUS[0]}\"
            """
        let err = try temp().appendingPathComponent("err").path
        let p = try ChildProcess("/bin/bash", ["-c", script, "bash", err])
        #expect(p.wait() == 0)
        #expect(String(decoding: p.stdout, as: UTF8.self) == "0\n")
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "")
    }
}
