import Foundation
import TestSupport
import Testing

/// `noise play` through a private PipeWire (pipewire + wireplumber + pipewire-pulse), read back
/// from the null sink's monitor and compared with the render, as the PulseAudio test does.
@Suite(.serialized) struct PipeWirePlaybackTests {
    @Test func playsThroughPipeWireAndSoundsLikeTheRender() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        print("server: \(server.serverName)")
        let recorder = try server.record(to: server.directory.appendingPathComponent("rec.wav"))
        // No fade-in on either side ('render' ramps over 10 ms by default, 'play' over 3 s).
        let args = ["--preset", "rain", "--seed", "5", "--timer", "4s", "--fade", "1s", "--fade-in", "0"]
        let env = TestStore(at: server.directory.appendingPathComponent("store")).environment(server.environment)
        let r = try Products.run(
            "noise", ["play", "--output", "pulse", "--device", "test"] + args, environment: env)
        // The server's buffer drains into the recording after the player exits: 0.3 s more of the monitor.
        recorder.waitForAudio(0.3)
        let rec = try recorder.stop()
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("on pulse (test)"), "\(r.stderrText)")
        let played = PlaybackTests.active(rec.channels[0])
        let reference = try PlaybackTests.render(args)
        let renderActive = PlaybackTests.active(reference.channels[0]).count
        print("pipewire: recorded \(rec.frameCount) frames, active \(played.count), render active \(renderActive)")
        #expect(abs(played.count - renderActive) < 480)  // all of it, within 10 ms: nothing lost, nothing added

        // Level and spectrum of the steady part (0.5…2.5 s) match the render.
        let (levelDiff, worstBand) = PlaybackTests.steadyDifference(played: played, reference: reference.channels[0])
        print("pipewire vs render: level \(levelDiff) dB, worst band \(worstBand) dB")
        #expect(abs(levelDiff) < 0.01)
        #expect(worstBand < 1.5)
        // No gaps: every 10 ms window of the whole played span (timer fade excluded) carries sound.
        let steady = Array(played.prefix(3 * 48000))
        let quietest = stride(from: 0, to: steady.count - 480, by: 480).map {
            TestRender.db(TestRender.rms(steady[$0..<($0 + 480)]))
        }.min()!
        print(
            """
            pipewire: quietest 10 ms window \(quietest - TestRender.db(TestRender.rms(steady[...]))) dB against \
            the mean
            """
        )
        #expect(quietest > TestRender.db(TestRender.rms(steady[...])) - 20)
        #expect(played.map { abs($0) }.max()! < 0.966)
        // PipeWire passes the samples through (same rate, volume 1): find the render in the recording.
        let offset = PlaybackTests.renderOffset(reference.channels[0], in: rec.channels[0])
        #expect(offset != nil, "the rendered samples were not found in the recording")
    }
}
