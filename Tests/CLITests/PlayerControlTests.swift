import Foundation
import NoiseControl
import TestSupport
import Testing

/// A real player on a private PulseAudio server, driven from other processes the way a user's
/// shells, status bars and login scripts drive it.
@Suite(.serialized) struct PlayerControlTests {
    typealias Rig = PulseStore

    @Test func statusFeedDescribesTheRunningPlayer() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned("noise", ["play", "--preset", "sleep", "--fade-in", "0"], environment: rig.env)
        #expect(player.waitForStderr(5) { $0.contains("Playing") }, "\(player.stderrText)")
        let s = try #require(rig.waitForStatus { $0["state"] as? String == "playing" && $0["levelDbfs"] is Double })
        #expect(s["presetID"] as? String == "sleep" && s["presetName"] as? String == "Sleep")
        #expect(s["masterVolume"] as? Double == 0.9)  // the presets' shared reference master
        #expect((s["layers"] as? [Any])?.count == 2)
        #expect((s["output"] as? [String: Any])?["backend"] as? String == "pulse")
        #expect(s["underruns"] as? Int == 0)
        #expect(s["schemaVersion"] as? Int == 1)
        #expect((s["pid"] as? Int).map(Int32.init) == player.processIdentifier)
        let level = try #require(s["levelDbfs"] as? Double)
        #expect(level < -10 && level > -80)
        // Alive without rewriting the store: the heartbeat beside the control socket holds its pid
        // (QuietPlayerTests checks that nothing is written while steady).
        let heartbeat = URL(fileURLWithPath: rig.env["XDG_RUNTIME_DIR"]!).appendingPathComponent(
            "widgetweaver/noise.heartbeat")
        #expect((try? String(contentsOf: heartbeat, encoding: .utf8)) == "\(player.processIdentifier)\n")

        let bar = try rig.noise(["status", "--format", "waybar"])
        let waybar = try JSONSerialization.jsonObject(with: bar.stdout) as! [String: Any]
        #expect(waybar["class"] as? String == "playing" && waybar["percentage"] as? Int == 90)
        #expect((waybar["text"] as? String)?.contains("Sleep") == true)
        let i3 = try rig.noise(["status", "--format", "i3blocks"])
        #expect(i3.stdoutText.split(separator: "\n").count == 3)

        // A change over the socket shows up in the feed.
        #expect(try rig.noise(["set", "--layer", "1", "--volume", "0.3"]).status == 0)
        #expect(rig.waitForStatus { (($0["layers"] as? [[String: Any]])?.first?["volume"] as? Double) == 0.3 } != nil)
        #expect(try rig.noise(["pause"]).status == 0)
        #expect(rig.waitForStatus { $0["state"] as? String == "paused" } != nil)
        #expect(try rig.noise(["resume"]).status == 0)
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
        #expect(rig.waitForStatus { $0["state"] as? String == "stopped" } != nil)
    }

    /// Play, change, stop: the Last Mix is the changed mix, and `render --mix last` renders exactly it.
    /// `noise toggle` with no player starts the Last Mix in the background and returns (a key
    /// binding must not become the player); deleting the preset it plays drops the label from the
    /// player and from the Last Mix, and the sound goes on.
    @Test func toggleStartsInTheBackgroundAndADeletedPresetLosesItsLabel() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        #expect(try rig.noise(["preset", "ocean"]).status == 0)
        let saved = try rig.noise(["presets", "save", "mine"])
        #expect(saved.status == 0, "\(saved.stderrText)")
        #expect(try rig.noise(["preset", "mine"]).status == 0)
        let toggle = try rig.noise(["toggle"])
        #expect(
            toggle.status == 0 && toggle.stdoutText.contains("in the background"),
            "\(toggle.stdoutText)\(toggle.stderrText)")
        let s = try #require(
            rig.waitForStatus(8) { $0["state"] as? String == "playing" && $0["presetID"] as? String == "mine" })
        let pid = Int32(try #require(s["pid"] as? Int))
        defer { kill(pid, SIGKILL) }
        let deleted = try rig.noise(["presets", "delete", "mine"])
        #expect(deleted.status == 0, "\(deleted.stderrText)")
        #expect(rig.waitForStatus(2) { $0["presetID"] as? String == nil && $0["state"] as? String == "playing" } != nil)
        let last =
            try JSONSerialization.jsonObject(with: Data(contentsOf: rig.store.appendingPathComponent("last-mix.json")))
            as! [String: Any]
        #expect(last["presetID"] as? String == nil, "\(last)")
        #expect(!(try rig.noise(["status"]).stdoutText.contains("(preset mine)")))
        #expect(try rig.noise(["stop"]).status == 0)
        _ = eventually(10) { kill(pid, 0) != 0 }
        #expect(kill(pid, 0) != 0, "the background player exits when stopped")
    }

    /// `noise timer +15m` / `-15m` move the running timer; `-15m` with none running, or past its
    /// end, is refused with what to do instead.
    @Test func timerMovesByRelativeAmounts() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned("noise", ["play", "--preset", "pink", "--fade-in", "0"], environment: rig.env)
        defer { rig.stop(player) }
        #expect(player.waitForStderr(5) { $0.contains("Playing") }, "\(player.stderrText)")
        let shorten = try rig.noise(["timer", "-15m"])
        #expect(
            shorten.status != 0 && shorten.stderrText.contains("no sleep timer is running"), "\(shorten.stderrText)")
        let plus = try rig.noise(["timer", "+15m"])
        #expect(plus.status == 0, "\(plus.stderrText)")
        #expect(
            rig.waitForStatus { ($0["timerRemainingSeconds"] as? Double).map { (895...900).contains($0) } ?? false }
                != nil)
        #expect(try rig.noise(["timer", "+15m"]).status == 0)
        #expect(
            rig.waitForStatus { ($0["timerRemainingSeconds"] as? Double).map { (1795...1800).contains($0) } ?? false }
                != nil)
        let minus = try rig.noise(["timer", "-15m", "--fade", "10s"])
        #expect(minus.status == 0 && minus.stdoutText.contains("stops in"), "\(minus.stderrText)")
        #expect(
            rig.waitForStatus { ($0["timerRemainingSeconds"] as? Double).map { (895...900).contains($0) } ?? false }
                != nil)
        let tooFar = try rig.noise(["timer", "-20m"])
        #expect(tooFar.status != 0 && tooFar.stderrText.contains("would end it now"), "\(tooFar.stderrText)")
        let two = try rig.noise(["timer", "+5m", "+5m"])
        #expect(two.status != 0 && two.stderrText.contains("give one DURATION"), "\(two.stderrText)")
    }

    /// Each `noise timer` reply states the timer it set, and each change starts from the timer the
    /// one before it set, back to back, even on a player whose blocks are long (1 s latency: 85 ms
    /// blocks, so the engine takes the change a device write later). Before issue 41 each reply
    /// said the previous timer and `-20m` right after a change found no timer running.
    @Test func timerRepliesWithTheNewTimeBackToBack() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned(
            "noise", ["play", "--preset", "pink", "--fade-in", "0", "--latency", "1s"], environment: rig.env)
        defer { rig.stop(player) }
        #expect(player.waitForStderr(5) { $0.contains("Playing") }, "\(player.stderrText)")
        func expectReply(_ args: [String], _ seconds: Double) throws {
            let r = try rig.noise(["timer"] + args)
            let allowed = [seconds, seconds - 1, seconds - 2].map {
                "Timer set: stops in \(StatusFormatter.duration($0)).\n"
            }
            #expect(r.status == 0 && allowed.contains(r.stdoutText), "\(args): \(r.stdoutText)\(r.stderrText)")
        }
        try expectReply(["+15m"], 900)
        try expectReply(["45m", "--fade", "5m"], 2700)
        try expectReply(["12s"], 12)
        try expectReply(["45m"], 2700)
        try expectReply(["+15m"], 3600)
        try expectReply(["-20m"], 2400)
        let status = try rig.noise(["status", "--json"])
        let remaining = try #require(
            (try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])?["timerRemainingSeconds"]
                as? Double)
        #expect((2395...2400).contains(remaining), "\(status.stdoutText)")
    }

    /// `noise set --preset X --fade D`: the running player crossfades to the preset (as `noise
    /// preset X --crossfade D`); '--fade' alone, or with layer changes, is refused.
    @Test func setPresetCrossfadesTheRunningPlayer() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned("noise", ["play", "--preset", "pink", "--fade-in", "0"], environment: rig.env)
        defer { rig.stop(player) }
        #expect(player.waitForStderr(5) { $0.contains("Playing") }, "\(player.stderrText)")
        let switched = try rig.noise(["set", "--preset", "ocean", "--fade", "1s"])
        #expect(
            switched.status == 0 && switched.stdoutText.contains("Switching to Ocean (ocean)"), "\(switched.stderrText)"
        )
        #expect(rig.waitForStatus { $0["presetID"] as? String == "ocean" } != nil)
        let alone = try rig.noise(["set", "--fade", "1s"])
        #expect(alone.status != 0 && alone.stderrText.contains("'--fade' goes with '--preset'"), "\(alone.stderrText)")
        let mixed = try rig.noise(["set", "--preset", "rain", "--layer", "1", "--volume", "0.5"])
        #expect(mixed.status != 0 && mixed.stderrText.contains("give it alone"), "\(mixed.stderrText)")
        let long = try rig.noise(["set", "--preset", "rain", "--fade", "31m"])
        #expect(long.status != 0 && long.stderrText.contains("allowed 0s…30m"), "\(long.stderrText)")
    }

    @Test func lastMixRoundTrip() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned("noise", ["play", "--preset", "pink", "--fade-in", "0"], environment: rig.env)
        #expect(player.waitForStderr(5) { $0.contains("Playing") })
        #expect(
            try rig.noise(["set", "--layer", "1", "--colour", "1.6", "--low-cut", "100", "--eq-high", "-4"]).status == 0
        )
        #expect(try rig.noise(["set", "--master", "0.5"]).status == 0)
        player.signal(SIGINT)
        #expect(player.waitForExit(10) == 0)

        let expected = rig.server.directory.appendingPathComponent("expected.json")
        try Data(
            #"""
            {"name":"Pink","masterVolume":0.5,"layers":[{"volume":0.99,"colour":1.6,"lowCutHz":100,"eq":{"highDb":-4}}]}
            """#
            .utf8
        )
        .write(to: expected)
        let a = rig.server.directory.appendingPathComponent("last.wav").path
        let b = rig.server.directory.appendingPathComponent("expected.wav").path
        let r1 = try rig.noise(["render", "--mix", "last", "--duration", "2s", "--seed", "3", "-o", a])
        let r2 = try rig.noise(["render", "--mix", expected.path, "--duration", "2s", "--seed", "3", "-o", b])
        #expect(r1.status == 0 && r2.status == 0, "\(r1.stderrText) \(r2.stderrText)")
        let difference = firstDifference(
            try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
        #expect(difference == nil, "the Last Mix renders differently from the mix that played: \(difference ?? "")")
        // Ctrl-C ended it on purpose: a login would not resume it.
        let last =
            try JSONSerialization.jsonObject(with: Data(contentsOf: rig.store.appendingPathComponent("last-mix.json")))
            as! [String: Any]
        #expect(last["wasPlaying"] as? Bool == false)
    }

    @Test func aSecondPlayHandsItsRequestToTheRunningPlayer() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned("noise", ["play", "--preset", "sleep", "--fade-in", "0"], environment: rig.env)
        #expect(player.waitForStderr(5) { $0.contains("Playing") })
        let second = try rig.noise(["play", "--preset", "rain"])
        #expect(second.status == 0)
        #expect(second.stderrText.contains("already running"))
        #expect(rig.waitForStatus { $0["presetID"] as? String == "rain" } != nil)
        let refused = try rig.noise(["play", "--preset", "ocean", "--exclusive"])
        #expect(refused.status != 0 && refused.stderrText.contains("already running"))
        // Logout (SIGTERM) keeps "was playing", so `resume --if-enabled` brings it back at login.
        #expect(player.terminate() == 0)
        #expect(try rig.noise(["autostart", "enable"]).status == 0)
        let resumed = try Spawned("noise", ["resume", "--if-enabled"], environment: rig.env)
        #expect(resumed.waitForStderr(8) { $0.contains("Playing") }, "\(resumed.stderrText)")
        #expect(rig.waitForStatus { $0["state"] as? String == "playing" && $0["presetID"] as? String == "rain" } != nil)
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(resumed.waitForExit(10) == 0)
        _ = try rig.noise(["autostart", "disable"])
    }
}

extension PulseStore {
    /// `noise stop`, as a user would, then waits for `player` to exit.
    fileprivate func stop(_ player: Spawned) {
        _ = try? noise(["stop"])
        _ = player.waitForExit(10)
    }
}
