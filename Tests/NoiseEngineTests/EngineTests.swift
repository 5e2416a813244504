import AudioSinkBase
import Foundation
import NoiseDSP
import NoiseEngine
import TestSupport
import Testing

/// A stand-in for a device: stereo at 48 kHz, no latency, no underruns, nothing to close.
protocol StandInSink: AudioSink {}

extension StandInSink {
    var format: AudioFormat { AudioFormat(sampleRate: 48000, channelCount: 2) }
    var latencyFrames: Int { 0 }
    var underrunCount: Int { 0 }
    func close(drain: Bool) throws(AudioOutputError) {}
}

@Suite struct EngineTests {
    static let pink = Mix(name: "P", masterVolume: 1, layers: [Mix.Layer(volume: 1, colour: 1)])

    @Test func spscQueueKeepsOrderAcrossThreadsAndReportsFull() async {
        let q = SPSCQueue<Int>(capacity: 8)
        for i in 0..<8 { #expect(q.push(i)) }
        #expect(!q.push(99))
        for i in 0..<8 { #expect(q.pop() == i) }
        #expect(q.pop() == nil)
        let total = 100_000
        let producer = Task.detached {
            var i = 0
            while i < total { if q.push(i) { i += 1 } }
        }
        var expected = 0
        while expected < total {
            if let v = q.pop() {
                #expect(v == expected)
                expected += 1
            }
        }
        await producer.value
    }

    @Test func timelineEndsBlocksAtTheFadeAndTheEnd() {
        var t = PlaybackTimeline(sampleRate: 48000)
        t.setTimer(seconds: 1, fadeSeconds: 0.25)
        #expect(t.fadeStartFrame == 36000 && t.endFrame == 48000)
        #expect(t.nextBlockFrames(100_000) == 36000)
        #expect(t.remainingSeconds == 1)
    }

    /// The engine writes exactly what the offline renderer writes for the same seed and timer.
    @Test func liveEngineMatchesOfflineRender() throws {
        final class Capture: StandInSink {
            let name = "capture"
            var samples: [Float] = []
            func write(_ s: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
                samples += UnsafeBufferPointer(start: s, count: frameCount * 2)
            }
        }
        var options = LivePlayer.Options()
        // The render's default fade-in (10 ms): both start from silence the same way.
        options.fadeInSeconds = RenderPlan.edgeRampSeconds
        options.realTimePriority = 0
        let player = LivePlayer(mix: Self.pink, seed: 9, options: options)
        player.send(.setTimer(seconds: 0.5, fadeSeconds: 0.2))
        let live = Capture()
        try player.start(sink: live)
        _ = eventually(30) { player.state != .running }
        #expect(player.state == .finished)
        player.join()
        let offline = Capture()
        try OfflineRenderer.render(
            RenderPlan(mix: Self.pink, seed: 9, durationSeconds: 1, timerSeconds: 0.5, fadeSeconds: 0.2), to: offline)
        #expect(live.samples.count == 48000)
        let difference = firstDifference(live.samples, offline.samples)
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test func lostOutputStopsTheRenderThreadAndCanRestart() throws {
        final class Flaky: StandInSink {
            let name = "flaky"
            var writes = 0
            func write(_ s: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
                writes += 1
                if writes == 3 {
                    throw AudioOutputError(.disconnected, backend: "flaky", call: "write", reason: "gone")
                }
            }
        }
        var options = LivePlayer.Options()
        options.realTimePriority = 0
        let player = LivePlayer(mix: Self.pink, seed: 1, options: options)
        try player.start(sink: Flaky())
        _ = eventually(30) { player.state != .running }
        #expect(player.state == .outputLost)
        #expect(player.failure?.reason == "gone")
        player.join()
        try player.start(sink: NullSink(format: AudioFormat(sampleRate: 48000, channelCount: 2)), fadeInSeconds: 0.1)
        // Still running a moment later (not ended by the earlier loss) is the check: a moment has to pass.
        #expect(throughout(0.05) { player.state == .running })
        player.stop(fadeSeconds: 0.01)
        player.send(.fade(position: 1, seconds: 0.01))  // a fade after stop must not undo it
        _ = eventually(30) { player.state != .running }
        #expect(player.state == .finished)
        player.join()
    }

    @Test func mixDecodingNamesTheFieldAndRange() {
        func error(_ json: String) -> String { mixDecodingError(json) }
        #expect(error(#"{"layers":[{"colour":2.5}]}"#) == "m.json: layers[0].colour: 2.5 is out of range; allowed 0…2")
        #expect(error(#"{"layers":[{"eq":{"lowDb":1,"bass":2}}]}"#).contains("layers[0].eq.bass: is not a known field"))
        #expect(error(#"{"layers":[{"volume":true}]}"#).contains("layers[0].volume: must be a number, found a boolean"))
        #expect(error(#"{"layers":[{"highCutHz":0,"lowCutHz":0}]}"#).isEmpty)  // 0 means off
    }

    /// The mix reader's words, read through the shared strict reader, are the ones mix files
    /// always had (taken from the build before the move).
    @Test func mixDecodingKeepsItsWording() {
        func error(_ json: String) -> String { mixDecodingError(json) }
        let layerFields =
            "brightness, colour, densityPerSecond, enabled, eq, highCutHz, lowCutHz, movement, texture, volume"
        let expected: [(String, String)] = [
            (#"{"layers":[{"volume":null}]}"#, "layers[0].volume: must be a number, found null"),
            (#"{"layers":[{"volume":1e400}]}"#, "layers[0].volume: inf is out of range; allowed 0…1"),
            ("[1,2]", "(top level): must be an object, found an array"),
            (#"{"layers":null}"#, "layers: must be an array, found null"),
            (#"{"layers":[]}"#, "layers: has 0 layers; allowed 1…4"),
            ("{}", "layers: is missing; a mix needs 1 to 4 layers"),
            (
                #"{"layers":[{}],"extra":1,"aaa":2}"#,
                "aaa: is not a known field; allowed: description, layers, masterVolume, name, notch, schemaVersion"
            ),
            (
                #"{"layers":[{"reverb":1,"volume":"x"}]}"#,
                "layers[0].reverb: is not a known field; allowed: \(layerFields)"
            ),
            (
                #"{"layers":[{"movement":{"depth":1}}]}"#,
                "layers[0].movement.depth: is not a known field; allowed: highCutOctaves, levelDb, periodSeconds"
            ),
            (#"{"layers":[{"eq":null}]}"#, "layers[0].eq: must be an object, found null"),
            (#"{"layers":[{"enabled":"yes"}]}"#, "layers[0].enabled: must be true or false, found a string"),
            (#"{"layers":[{"texture":null}]}"#, "layers[0].texture: must be a string, found null"),
            (#"{"schemaVersion":2,"layers":[{}]}"#, "schemaVersion: 2 is not supported; this version reads 1"),
            (#"{"layers":[{"eq":{"lowDb":"x"}}],"name":7}"#, "layers[0].eq.lowDb: must be a number, found a string"),
            (#"{"layers":[[]]}"#, "layers[0]: must be an object, found an array"),
            (
                #"{"layers":[{"volume":1}],"layers":[]}"#,
                "invalid JSON at line 1, column 26 (byte 25): duplicate key \"layers\""
            ),
            (
                #"{"name":"\#(String(repeating: "é", count: 201))","layers":[{}]}"#,
                "name: is 201 characters; the limit is 200"
            ),
        ]
        for (json, message) in expected { #expect(error(json) == "m.json: \(message)", "\(json)") }
        let long = "aVeryLongUnknownFieldNameThatIsLongerThanFortyCharacters"
        #expect(
            error(#"{"layers":[{"\#(long)":1}]}"#)
                == "m.json: layers[0].\(long): is not a known field; allowed: \(layerFields)")
    }

    /// The members a mix file may hold come from the mix table's keys.
    @Test func mixFileMembersAreTheTables() {
        #expect(MixFields.memberNames(under: "") == ["masterVolume", "layers", "notch"])
        #expect(MixFields.memberNames(under: "notch") == ["centreHz", "widthOctaves", "depthDb"])
        #expect(
            Set(MixFields.memberNames(under: "layers[]")) == [
                "enabled", "volume", "colour", "lowCutHz", "highCutHz", "eq", "movement", "texture", "densityPerSecond",
                "brightness",
            ])
        #expect(MixFields.memberNames(under: "layers[].eq") == ["lowDb", "midDb", "highDb"])
        #expect(MixFields.memberNames(under: "layers[].movement") == ["periodSeconds", "levelDb", "highCutOctaves"])
    }
}

/// The user's fader (pause, stop) and the sleep timer's fader never undo each other.
@Suite struct FaderInteractionTests {
    static func machine() -> NoiseMachine {
        let m = NoiseMachine(
            spec: ProcessSpec(sampleRate: 48000, maximumFrameCount: 1024, channelCount: 1), seed: 2,
            layers: [LayerSettings(volume: 1, colour: 1)])
        m.preroll()
        return m
    }

    static func render(_ m: NoiseMachine, _ t: inout PlaybackTimeline, seconds: Double) -> [Float] {
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 1024)
        var left = Int(seconds * 48000)
        while left > 0 {
            let n = max(1, min(t.nextBlockFrames(1024), left))
            if t.isFinished { break }
            buffer.withUnsafeMutableBufferPointer { t.render(m, into: $0.baseAddress!, frameCount: n) }
            out += buffer[0..<n]
            left -= n
        }
        return out
    }

    static func rms(_ x: ArraySlice<Float>) -> Float {
        (x.reduce(0) { $0 + $1 * $1 } / Float(max(x.count, 1))).squareRoot()
    }

    @Test func cancellingTheTimerDoesNotUnpause() {
        let m = Self.machine()
        var t = PlaybackTimeline(sampleRate: 48000)
        t.setTimer(seconds: 2, fadeSeconds: 1, machine: m)
        m.fade(to: 0, seconds: 0.1)  // pause
        _ = Self.render(m, &t, seconds: 1.5)  // into the timer's fade
        t.cancelTimer(machine: m)
        let after = Self.render(m, &t, seconds: 1)
        #expect(after.allSatisfy { $0 == 0 })  // still paused
    }

    @Test func settingTheTimerAgainDuringItsFadeBringsTheSoundBack() {
        let m = Self.machine()
        var t = PlaybackTimeline(sampleRate: 48000)
        let full = Self.rms(Self.render(m, &t, seconds: 0.5)[...])
        t.setTimer(seconds: 1, fadeSeconds: 0.5, machine: m)
        _ = Self.render(m, &t, seconds: 0.9)  // deep in the fade
        t.setTimer(seconds: 60, fadeSeconds: 10, machine: m)
        let after = Self.render(m, &t, seconds: 1)
        #expect(Self.rms(after[(after.count - 9600)...]) > full * 0.9)
    }

    @Test func resumingDuringTheTimerFadeKeepsTheTimerFade() {
        let m = Self.machine()
        var t = PlaybackTimeline(sampleRate: 48000)
        t.setTimer(seconds: 1, fadeSeconds: 0.5, machine: m)
        _ = Self.render(m, &t, seconds: 0.75)
        m.fade(to: 1, seconds: 0.1)  // "resume" while the timer fades
        let tail = Self.render(m, &t, seconds: 1)
        #expect(t.isFinished)
        #expect(Self.rms(tail[(tail.count - 480)...]) < 0.001)  // still fades to silence at the end
    }
}

/// What `Mix.decode` says about `json` read as `m.json`; empty when it reads.
func mixDecodingError(_ json: String) -> String {
    do {
        _ = try Mix.decode(Array(json.utf8), file: "m.json")
        return ""
    } catch {
        return error.description
    }
}
