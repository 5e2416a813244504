import Foundation
import TestSupport
import Testing

/// The home screen follows a player that stops without a word in the status feed: a real
/// `noise play` on a private PulseAudio, a real `weaver serve`, its event stream read as the page
/// reads it.
@Suite(.serialized)
struct PlayerWakeupTests {
    /// A playing player, the server, and an event stream that has seen the mixer say "playing".
    static func start(_ rig: ServeRig) throws -> (player: Spawned, events: EventStreamReader) {
        let player = try Spawned("noise", ["play", "--preset", "sleep", "--fade-in", "0"], environment: rig.env)
        #expect(player.waitForStderr(10) { $0.contains("Playing") }, "\(player.stderrText)")
        let named = rig.waitForStatus {
            $0["state"] as? String == "playing" && ($0["pid"] as? Int).map(Int32.init) == player.processIdentifier
        }
        #expect(named != nil, "the status feed names the player")
        do {
            try rig.startServer()
            let events = try EventStreamReader(port: rig.port)
            #expect(
                events.wait(for: 5) { name, data in name == "mixer" && data.contains(#""state":"playing""#) } != nil)
            return (player, events)
        } catch {
            // The caller never sees this player: it is stopped here, or it would outlive the test.
            player.signal(SIGKILL)
            _ = player.waitForExit(5)
            throw error
        }
    }

    /// A new rig with `start` done on it; the rig is stopped again when `start` throws.
    static func started() throws -> (rig: ServeRig, player: Spawned, events: EventStreamReader) {
        let rig = try ServeRig()
        do {
            let (player, events) = try start(rig)
            return (rig, player, events)
        } catch {
            rig.stop()
            throw error
        }
    }

    /// Sends `signal` to the player; when it was sent.
    static func signal(_ player: Spawned, _ signal: Int32) -> ContinuousClock.Instant {
        let sent = ContinuousClock.now
        player.signal(signal)
        return sent
    }

    /// Kills the player (it may be stopped by SIGSTOP, so SIGKILL), then the rig.
    static func stop(_ player: Spawned, _ rig: ServeRig) {
        player.signal(SIGKILL)
        _ = player.waitForExit(5)
        rig.stop()
    }

    /// Waits for the mixer to say stopped and the Noise widget to show Stopped; returns when both
    /// had come, measured from `since`.
    static func waitForStopped(_ events: EventStreamReader, within seconds: Double, since: ContinuousClock.Instant)
        -> Duration?
    {
        var mixerStopped = false, widgetStopped = false
        let found = events.wait(for: seconds) { name, data in
            if name == "mixer", data.contains(#""state":"stopped""#) { mixerStopped = true }
            if name == "widget",
                data.contains(#""key":"noise-machine\/small""#) || data.contains(#""key":"noise-machine/small""#),
                data.contains("Stopped")
            {
                widgetStopped = true
            }
            return mixerStopped && widgetStopped
        }
        return found.map { _ in since.duration(to: .now) }
    }

    /// SIGKILL leaves the feed saying "playing"; the player's exit (a pidfd) must wake the server.
    /// Before it did, the page said Playing until the next minute.
    @Test func aPlayerKilledWithSIGKILLShowsStoppedWithinASecond() throws {
        let (rig, player, events) = try Self.started()
        defer { Self.stop(player, rig) }
        MinuteBoundary.waitUntilNoneWithin(3)
        let killed = Self.signal(player, SIGKILL)
        _ = player.child.wait()  // reaped at once, as a shell would
        let shown = Self.waitForStopped(events, within: 3, since: killed)
        print("HomeScreen: mixer and Noise widget showed stopped \(shown.map { "\($0)" } ?? "never") after SIGKILL")
        let elapsed = try #require(shown, "still playing 3 s after SIGKILL; \(rig.server?.stderrText ?? "")")
        #expect(elapsed < .seconds(1), "\(elapsed)")
        // The state served to a page loaded now agrees.
        let mixer = try #require(try RawHTTP.send(port: rig.port, path: "/api/mixer").json())
        #expect(mixer["running"] as? Bool == false && mixer["state"] as? String == "stopped", "\(mixer)")
        let page = try RawHTTP.send(port: rig.port, path: "/").text
        #expect(page.contains("Noise: Stopped") && !page.contains("Noise: Playing"))
    }

    /// A player that is alive but silent (SIGSTOP) turns stale `staleAfterSeconds` (10 s) after its
    /// last sign of life; the server wakes at that moment, not at the next minute.
    @Test func aSilentPlayerShowsStoppedWhenItsStatusTurnsStale() throws {
        let (rig, player, events) = try Self.started()
        defer { Self.stop(player, rig) }
        MinuteBoundary.waitUntilNoneWithin(14)
        let stopped = Self.signal(player, SIGSTOP)
        let shown = Self.waitForStopped(events, within: 13, since: stopped)
        print("HomeScreen: mixer and Noise widget showed stopped \(shown.map { "\($0)" } ?? "never") after SIGSTOP")
        let elapsed = try #require(shown, "still playing 13 s after SIGSTOP; \(rig.server?.stderrText ?? "")")
        // The heartbeat is refreshed once a second, so its last refresh was 0-1 s before SIGSTOP.
        #expect(elapsed > .seconds(8.5) && elapsed < .seconds(11), "\(elapsed)")
    }
}
