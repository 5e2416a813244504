import Foundation
import TestSupport
import Testing

/// `weaver render --watch` against a real player on a private PulseAudio server: what wakes the
/// watcher when a player stops without a word in the status feed.
@Suite(.serialized) struct LiveRenderTests {
    struct Rig {
        let server: PulseServer
        let store: URL
        let env: [String: String]
        let output: URL

        init() throws {
            server = try PulseServer()
            store = server.directory.appendingPathComponent("store")
            env = TestStore(at: store).environment(server.environment)
            output = server.directory.appendingPathComponent("noise.txt")
        }

        var outputText: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// Waits until `seconds` after `since` for the output to satisfy `predicate`, reading it
        /// every 5 ms; returns when it did, as time since `since`.
        func waitForOutput(_ seconds: Double, since: ContinuousClock.Instant = .now, _ predicate: (String) -> Bool)
            -> Duration?
        {
            let left = Double(seconds) - since.duration(to: .now) / .seconds(1)
            return Wait.until(left, interval: 0.005) { predicate(outputText) ? since.duration(to: .now) : nil }
        }

        func statusPID() -> Int32? {
            guard let data = try? Data(contentsOf: store.appendingPathComponent("status.json")),
                let s = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                s["state"] as? String == "playing"
            else { return nil }
            return (s["pid"] as? NSNumber)?.int32Value
        }

        /// A rig, a playing player and `weaver render --watch` for `body`; afterwards both are
        /// killed and the server stopped.
        static func run(_ body: (Rig, _ player: Spawned, _ watch: Spawned) throws -> Void) throws {
            let rig = try Rig()
            defer { rig.server.stop() }
            let (player, watch) = try rig.start()
            defer {
                player.signal(SIGKILL)
                player.child.wait()
                watch.signal(SIGKILL)
                watch.child.wait()
            }
            try body(rig, player, watch)
        }

        /// A playing player, and `weaver render --watch` showing it in the output file.
        func start() throws -> (player: Spawned, watch: Spawned) {
            let player = try Spawned("noise", ["play", "--preset", "sleep", "--fade-in", "0"], environment: env)
            #expect(player.waitForStderr(8) { $0.contains("Playing") }, "\(player.stderrText)")
            _ = eventually(5) { statusPID() != nil }
            #expect(statusPID() == player.processIdentifier, "the status feed names the player")
            let watch = try Spawned(
                "weaver",
                [
                    "render", "--template", "noise-machine", "--family", "small",
                    "-o", output.path, "--watch",
                ], environment: env)
            #expect(waitForOutput(8) { $0.contains("Playing") } != nil, "\(outputText) \(watch.stderrText)")
            return (player, watch)
        }
    }

    /// SIGKILL leaves the feed saying "playing"; the player's exit (a pidfd) must wake the watcher.
    /// Before it did, the file kept "Playing" until the next minute.
    @Test func aPlayerKilledWithSIGKILLShowsStoppedWithinASecond() throws {
        try Rig.run { rig, player, watch in
            MinuteBoundary.waitUntilNoneWithin(3)
            let killed = ContinuousClock.now
            player.signal(SIGKILL)
            player.child.wait()  // reaped at once, as a shell would
            let changed = rig.waitForOutput(3, since: killed) { $0.contains("Stopped") }
            print("LiveRender: output showed Stopped \(changed.map { "\($0)" } ?? "never") after SIGKILL")
            let elapsed = try #require(changed, "still \(rig.outputText) after 3 s; \(watch.stderrText)")
            #expect(elapsed < .seconds(1), "\(elapsed)")
            #expect(rig.outputText.contains("Stopped") && !rig.outputText.contains("Playing"))
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(5) == 0, "\(watch.stderrText)")
        }
    }

    /// A player that stops refreshing its heartbeat (here SIGSTOP: alive, silent) turns stale
    /// `staleAfterSeconds` (10 s) after its last sign of life; the watcher wakes at that moment,
    /// computed from the status and heartbeat times, not at the next minute.
    @Test func aSilentPlayerShowsStoppedWhenItsStatusTurnsStale() throws {
        try Rig.run { rig, player, watch in
            MinuteBoundary.waitUntilNoneWithin(14)
            let stopped = ContinuousClock.now
            player.signal(SIGSTOP)
            let changed = rig.waitForOutput(13, since: stopped) { $0.contains("Stopped") }
            print("LiveRender: output showed Stopped \(changed.map { "\($0)" } ?? "never") after SIGSTOP")
            let elapsed = try #require(changed, "still \(rig.outputText) after 13 s; \(watch.stderrText)")
            // The heartbeat is refreshed once a second, so its last refresh was 0-1 s before SIGSTOP.
            #expect(elapsed > .seconds(8.5) && elapsed < .seconds(11), "\(elapsed)")
            watch.signal(SIGTERM)
            #expect(watch.waitForExit(5) == 0, "\(watch.stderrText)")
        }
    }
}
