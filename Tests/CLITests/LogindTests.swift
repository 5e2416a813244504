import Foundation
import TestSupport
import Testing

/// `noise play` and systemd-logind, against a private bus with a stand-in logind (dbus-python)
/// that records what it is asked: the idle inhibitor while playing, given back at the end, and
/// `--then suspend|poweroff` when the timer ends.
@Suite(.serialized) struct LogindTests {
    static func rig(withLogind: Bool) throws -> SystemBusRig {
        try SystemBusRig(standIn: withLogind ? { try LogindStandIn(on: $0) } : nil)
    }

    @Test func theTimerEndsInSuspendAndTheIdleLockIsHeldWhilePlaying() throws {
        let rig = try Self.rig(withLogind: true)
        defer { rig.stop() }
        let r = try Products.run(
            "noise",
            [
                "play", "--preset", "pink", "--fade-in", "0", "--no-mpris", "--timer", "2s", "--fade", "0s",
                "--then", "suspend",
            ], environment: rig.env)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("Suspending (systemd-logind)."), "\(r.stderrText)")
        _ = eventually(3) { rig.calls().count >= 3 }
        #expect(
            rig.calls() == ["Inhibit idle|noise|Noise is playing|block", "released", "Suspend False"], "\(rig.calls())")
    }

    @Test func powerOffWithoutTheIdleLock() throws {
        let rig = try Self.rig(withLogind: true)
        defer { rig.stop() }
        let r = try Products.run(
            "noise",
            [
                "play", "--preset", "pink", "--fade-in", "0", "--no-mpris", "--no-inhibit", "--timer", "1s",
                "--then", "poweroff",
            ], environment: rig.env)
        #expect(r.status == 0, "\(r.stderrText)")
        _ = eventually(3) { !rig.calls().isEmpty }
        #expect(rig.calls() == ["PowerOff False"], "\(rig.calls())")
    }

    @Test func noLogindIsRefusedBeforeAnySound() throws {
        let rig = try Self.rig(withLogind: false)
        defer { rig.stop() }
        let r = try Products.run(
            "noise", ["play", "--preset", "pink", "--no-mpris", "--timer", "1s", "--then", "suspend"],
            environment: rig.env)
        #expect(r.status != 0)
        #expect(r.stderrText.contains("'--then suspend' needs systemd-logind, which did not answer"), "\(r.stderrText)")
        #expect(!r.stderrText.contains("Playing"), "\(r.stderrText)")
        let bad = try Products.run(
            "noise", ["play", "--preset", "pink", "--timer", "1s", "--then", "hibernate"], environment: rig.env)
        #expect(
            bad.status != 0
                && bad.stderrText.contains("'--then' hibernate is not an action; use stop, suspend or poweroff"),
            "\(bad.stderrText)")
        let noTimer = try Products.run(
            "noise", ["play", "--preset", "pink", "--then", "suspend"], environment: rig.env)
        #expect(noTimer.status != 0 && noTimer.stderrText.contains("'--then' needs '--timer'"), "\(noTimer.stderrText)")
        // Without logind, plain play still works (no lock to hold, no warning).
        let plain = try Products.run(
            "noise", ["play", "--preset", "pink", "--fade-in", "0", "--no-mpris", "--timer", "1s"], environment: rig.env
        )
        #expect(plain.status == 0 && !plain.stderrText.contains("warning"), "\(plain.stderrText)")
    }

    /// `noise timer --then` (the control socket's `then`, what the Noise page sends) on a player
    /// started without one: the status shows the end with the fade, and the player suspends when
    /// the timer runs out. A `noise play --then` handed to a running player sends the same request
    /// (it used to be refused).
    @Test func theTimerCommandSetsTheEndOfARunningPlayer() throws {
        let rig = try Self.rig(withLogind: true)
        defer { rig.stop() }
        let player = try Spawned(
            "noise", ["play", "--preset", "pink", "--fade-in", "0", "--no-mpris", "--no-inhibit"], environment: rig.env)
        #expect(player.waitForStderr(10) { $0.contains("Playing") }, "\(player.stderrText)")
        let set = try Products.run(
            "noise", ["timer", "30m", "--fade", "5m", "--then", "suspend"], environment: rig.env)
        #expect(set.status == 0 && set.stdoutText.contains(", then suspend"), "\(set.stdoutText) \(set.stderrText)")
        let status = try Products.run("noise", ["status", "--json"], environment: rig.env)
        let s = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any] ?? [:]
        #expect(s["timerThen"] as? String == "suspend" && s["timerFadeSeconds"] as? Double == 300, "\(s)")
        // Handed over: a shorter timer that powers off, then it ends.
        let handed = try Products.run(
            "noise", ["play", "--preset", "pink", "--timer", "2s", "--fade", "0s", "--then", "poweroff"],
            environment: rig.env)
        #expect(handed.status == 0 && handed.stderrText.contains("already running"), "\(handed.stderrText)")
        #expect(player.waitForExit(15) != nil, "the player did not end with its timer")
        #expect(player.stderrText.contains("Powering off (systemd-logind)."), "\(player.stderrText)")
        _ = eventually(3) { !rig.calls().isEmpty }
        #expect(rig.calls() == ["PowerOff False"], "\(rig.calls())")
    }

    /// Without logind the running player refuses suspend in its words; the timer itself is set.
    @Test func theTimerCommandsEndIsRefusedWithoutLogind() throws {
        let rig = try Self.rig(withLogind: false)
        defer { rig.stop() }
        let player = try Spawned(
            "noise", ["play", "--preset", "pink", "--fade-in", "0", "--no-mpris"], environment: rig.env)
        defer { _ = try? Products.run("noise", ["stop"], environment: rig.env) }
        #expect(player.waitForStderr(10) { $0.contains("Playing") }, "\(player.stderrText)")
        let r = try Products.run("noise", ["timer", "30m", "--then", "suspend"], environment: rig.env)
        #expect(r.status == 1, "\(r.stdoutText)")
        #expect(r.stdoutText.contains("Timer set"), "\(r.stdoutText)")
        #expect(
            r.stderrText.contains("suspend at the timer's end needs systemd-logind, which did not answer"),
            "\(r.stderrText)")
        let bad = try Products.run("noise", ["timer", "30m", "--then", "hibernate"], environment: rig.env)
        #expect(bad.status == 64 && bad.stderrText.contains("use stop, suspend or poweroff"), "\(bad.stderrText)")
    }
}
