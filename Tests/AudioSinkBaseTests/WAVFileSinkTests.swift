import Foundation
import TestSupport
import Testing

@testable import AudioSinkBase

@Suite struct WAVFileSinkTests {
    @Test func riffHeaderDescribesTheFile() throws {
        let path = try Products.temporaryDirectory("wav").appendingPathComponent("a.wav").path
        let sink = try WAVFileSink(path: path, format: AudioFormat(sampleRate: 48000, channelCount: 2), encoding: .s16)
        let samples: [Float] = [0, 0.5, -0.5, 1, -1, 2, -2, 0.25]
        try samples.withUnsafeBufferPointer { try sink.write($0.baseAddress!, frameCount: 4) }
        try sink.close(drain: true)
        let wav = try WAVFile(path: path)
        #expect(!wav.isRF64 && wav.frameCount == 4)
        func close(_ a: [Float], _ b: [Float]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 1.0 / 32767 } }
        #expect(close(wav.channels[0], [0, -0.5, -1, -1]))  // ±2 clipped to ±1, never wrapped
        #expect(close(wav.channels[1], [0.5, 1, 1, 0.25]))
    }

    /// Past 4 GiB of data the header becomes RF64 with a ds64 chunk carrying the 64-bit sizes.
    @Test func headerSwitchesToRF64PastFourGiB() {
        let frames: Int64 = 8 * 3600 * 48000  // 8 h stereo s16 = 5.5 GB
        let h = WAVFileSink.header(
            format: AudioFormat(sampleRate: 48000, channelCount: 2), encoding: .s16, frameCount: frames, final: true)
        #expect(String(decoding: h[0..<4], as: UTF8.self) == "RF64")
        #expect(String(decoding: h[12..<16], as: UTF8.self) == "ds64")
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(h[o + $1]) << (8 * UInt64($1)) } }
        #expect(u64(28) == UInt64(frames * 4))  // data size
        #expect(u64(36) == UInt64(frames))  // sample count
        let small = WAVFileSink.header(
            format: AudioFormat(sampleRate: 48000, channelCount: 2), encoding: .s16, frameCount: 48000, final: true)
        #expect(small.count == h.count)  // the JUNK reservation keeps the header size fixed
        #expect(String(decoding: small[0..<4], as: UTF8.self) == "RIFF")
    }
}
