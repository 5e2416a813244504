import CSndFile
import Foundation
import SoundFiles
import TestSupport
import Testing

/// Recordings in the formats people have, made at test time with sox from a known tone, and the
/// files that are not recordings.
@Suite struct SoundFileTests {
    func folder() throws -> URL { try Products.temporaryDirectory("soundfiles") }

    /// A 2 s stereo 44.1 kHz file of a 440 Hz tone at half scale (left) and silence (right), by sox.
    func make(_ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        p.arguments = [
            "-n", "-r", "44100", "-c", "2", path, "synth", "2", "sine", "440", "remix", "1v0.5", "1v0", "gain", "0",
        ]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "sox could not write \(name) (apt-get install sox libsox-fmt-mp3)")
        return path
    }

    @Test(arguments: ["tone.wav", "tone.flac", "tone.ogg", "tone.mp3"])
    func readsTheFormatsPeopleRecordIn(name: String) throws {
        let path = try make(name, in: try folder())
        let f = try SoundFile(path: path)
        #expect(f.sampleRate == 44100 && f.channelCount == 2)
        // MP3 encoders add padding; every format holds 2 s within 0.1 s.
        #expect(abs(f.durationSeconds - 2) < 0.1, "\(f.durationSeconds) s")
        // Left 0.5 peak, right silent: the mono mix peaks at 0.25, RMS 0.25/√2.
        let middle = f.samples[20000..<60000]
        let rms = (middle.reduce(0) { $0 + $1 * $1 } / Double(middle.count)).squareRoot()
        #expect(abs(rms - 0.25 / 2.0.squareRoot()) < 0.01, "\(name): RMS \(rms)")
        #expect(!f.formatName.isEmpty)
    }

    /// Ogg Opus (sox cannot write it): written through libsndfile itself, 1 s of a 440 Hz tone at
    /// 48 kHz mono, amplitude 0.5.
    @Test func readsOggOpus() throws {
        let path = try folder().appendingPathComponent("tone.opus").path
        var info = SF_INFO()
        info.samplerate = 48000
        info.channels = 1
        info.format = Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_OPUS)
        let handle = try #require(sf_open(path, Int32(SFM_WRITE), &info), "\(String(cString: sf_strerror(nil)))")
        var tone = (0..<48000).map { 0.5 * sin(2 * Double.pi * 440 * Double($0) / 48000) }
        #expect(tone.withUnsafeMutableBufferPointer { sf_writef_double(handle, $0.baseAddress, 48000) } == 48000)
        sf_close(handle)
        let f = try SoundFile(path: path)
        #expect(f.sampleRate == 48000 && f.channelCount == 1)
        #expect(f.formatName.contains("Opus"), "\(f.formatName)")
        let middle = f.samples[12000..<36000]
        let rms = (middle.reduce(0) { $0 + $1 * $1 } / Double(middle.count)).squareRoot()
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.02, "RMS \(rms)")
    }

    @Test func badFilesAreRefusedNamingTheFileAndTheProblem() throws {
        let dir = try folder()
        let missing = dir.appendingPathComponent("nothing.wav").path
        #expect(throws: SoundFileError(file: missing, problem: "no such file")) { try SoundFile(path: missing) }
        let text = dir.appendingPathComponent("notes.wav")
        try Data("this is not audio\n".utf8).write(to: text)
        do {
            _ = try SoundFile(path: text.path)
            Issue.record("a text file was read as audio")
        } catch {
            #expect(error.file == text.path)
            #expect(error.description.hasPrefix("\(text.path): "), "\(error)")
        }
        #expect(throws: SoundFileError.self) { try SoundFile(path: dir.path) }
        let long = try make("long.flac", in: dir)
        do {
            _ = try SoundFile(path: long, maximumSeconds: 1)
            Issue.record("a 2 s file was read with a 1 s limit")
        } catch {
            #expect(error.description.contains("is 2 s long; at most 1 s is read"), "\(error)")
        }
    }
}
