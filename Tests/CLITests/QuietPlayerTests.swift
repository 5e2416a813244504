import Foundation
import TestSupport
import Testing

/// A real player on a private PulseAudio (issue 12 point 6, issue 16): quiet while steady, still
/// prompt on change, honest when its output is lost, and a stream the server can classify.
@Suite(.serialized) struct QuietPlayerTests {
    typealias Rig = PulseStore

    static func stamp(_ url: URL) -> (inode: UInt, mtime: Double)? {
        var st = stat()
        guard stat(url.path, &st) == 0 else { return nil }
        return (UInt(st.st_ino), Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
    }

    /// Nothing is written in the store while nothing changes; the heartbeat (a tmpfs file) shows
    /// the player alive; a change reaches `status.json` within 1 s; a killed player reads as stale.
    @Test func steadyPlayWritesNothingInTheStore() throws {
        let rig = try Rig(configHome: true)
        defer { rig.server.stop() }
        let player = try rig.play(["--preset", "pink", "--timer", "10m"])
        let first = try #require(rig.waitForStatus { $0["state"] as? String == "playing" })
        // 16 (10): whole seconds.
        let remaining = try #require(first["timerRemainingSeconds"] as? Double)
        #expect(remaining == remaining.rounded() && remaining > 590 && remaining <= 600)
        /// Every store file with its inode and modification time (status.json among them).
        func storeStamps() -> [String] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: rig.store.path).sorted()) ?? []
            return entries.map { name in
                Self.stamp(rig.store.appendingPathComponent(name)).map { "\(name) \($0.inode) \($0.mtime)" } ?? name
            }
        }
        // Start-up writes (Last Mix) settle: the store unchanged for longer than LastMixSaver's 1 s
        // between two writes.
        let before = try #require(steady(for: 1.2, within: 10, interval: 0.05) { storeStamps() }, "\(storeStamps())")
        #expect(before.contains { $0.hasPrefix("status.json ") }, "\(before)")
        let beat = try #require(Self.stamp(rig.heartbeatURL))
        // That nothing is rewritten while steady is the check: a quiet window, failed at the first poll
        // that sees a store file written, added or removed (status.json's inode and time among them).
        #expect(throughout(3.5) { storeStamps() == before }, "a store file changed while steady: \(storeStamps())")
        #expect(try #require(Self.stamp(rig.heartbeatURL)).mtime > beat.mtime, "the heartbeat did not move")
        #expect(try String(contentsOf: rig.heartbeatURL, encoding: .utf8) == "\(player.processIdentifier)\n")
        var r = try rig.noise(["status", "--json"])
        var doc = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        #expect(doc["stale"] as? Bool == false && doc["state"] as? String == "playing")
        // A change is in the file within a second of the command.
        let sent = Date()
        #expect(try rig.noise(["set", "--master", "0.5"]).status == 0)
        #expect(rig.waitForStatus(1) { $0["masterVolume"] as? Double == 0.5 } != nil)
        print("change reached status.json after \(Int(Date().timeIntervalSince(sent) * 1000)) ms")
        // A dead player is told from a live one.
        player.signal(SIGKILL)
        #expect(player.waitForExit(5) != nil)
        r = try rig.noise(["status", "--json"])
        doc = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        #expect(doc["stale"] as? Bool == true, "\(r.stdoutText)")
        r = try rig.noise(["status", "--format", "waybar"])
        #expect((try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any])["class"] as? String == "stopped")
    }

    /// 16 (9): the server dies: status says playing with `output.lost`, waybar shows "lost";
    /// when the server returns the player reconnects and the flag clears.
    @Test func aLostOutputShowsInTheStatus() throws {
        let rig = try Rig(configHome: true)
        defer { rig.server.stop() }
        let player = try rig.play(["--preset", "pink", "--retry-for", "60s"])
        #expect(rig.waitForStatus { $0["state"] as? String == "playing" } != nil)
        rig.server.kill()
        let lost = rig.waitForStatus(5) { ($0["output"] as? [String: Any])?["lost"] as? Bool == true }
        #expect(lost?["state"] as? String == "playing")
        let bar = try rig.noise(["status", "--format", "waybar"])
        #expect(
            (try JSONSerialization.jsonObject(with: bar.stdout) as! [String: Any])["class"] as? String == "lost",
            "\(bar.stdoutText)")
        #expect(try rig.noise(["status"]).stdoutText.contains("but the output is lost"))
        try rig.server.start()
        #expect(
            rig.waitForStatus(15) { ($0["output"] as? [String: Any])?["lost"] as? Bool == false } != nil,
            "\(player.stderrText)")
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }

    /// A steady player makes at most 1.5x the system calls of `pacat` playing the same sound at the
    /// same latency (issue 12 point 6), and no fsync or rename. Counted, not timed: the same script
    /// the docs quote (`scripts/measure-quiet.sh`: strace -f -c on every thread over 5 s of steady
    /// play, then on pacat). The player measured 1.12x, then 1.81x after a merge, without a test
    /// noticing; it measures 1.01x with its own main loop (docs/quiet-player.md).
    @Test func steadyPlayCostsAtMostOneAndAHalfPacats() throws {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root = root.deletingLastPathComponent()
        }
        let script = root.appendingPathComponent("scripts/measure-quiet.sh").path
        let run = try ChildProcess("/bin/bash", [script, "5", Products.url("noise").path, "pink"])
        let status = run.wait()
        let out = String(decoding: run.stdout, as: UTF8.self)
        #expect(status == 0, "\(out)\n\(String(decoding: run.stderr, as: UTF8.self))")
        let ratioLine = try #require(out.split(separator: "\n").first { $0.hasPrefix("ratio") }, "\(out)")
        let ratio = try #require(Double(ratioLine.split(separator: " ")[1].dropLast()), "\(ratioLine)")
        #expect(ratio > 0.2 && ratio <= 1.5, "\(out)")
        let noiseLine = try #require(out.split(separator: "\n").first { $0.hasPrefix("noise") }, "\(out)")
        #expect(noiseLine.contains("fsync 0, rename 0"), "\(out)")
        #expect(out.contains("store files written during the window: none"), "\(out)")
    }

    /// A suspended sink takes no audio, so the stop fade never finishes rendering: `noise stop`
    /// still ends the player, within the fade plus 3 s (it waited forever before).
    @Test func stopEndsAPlayerWhoseSinkIsSuspended() throws {
        let rig = try Rig(configHome: true)
        defer { rig.server.stop() }
        let player = try rig.play(["--preset", "pink"])
        #expect(try rig.server.run("/usr/bin/pactl", ["suspend-sink", "test", "1"]).status == 0)
        // The player keeps running on a suspended sink for a while: the scenario.
        #expect(throughout(1) { player.child.poll() == nil }, "\(player.stderrText)")
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0, "\(player.stderrText)")
        #expect(player.stderrText.contains("the fade-out was not played"), "\(player.stderrText)")
        #expect(rig.waitForStatus(2) { $0["state"] as? String == "stopped" } != nil)
    }

    /// The stream carries `media.role` and an icon name (PULSE_PROP: the server puts a client's
    /// properties under its streams', so the user's own PULSE_PROP can still override ours).
    @Test func theStreamSaysItIsMusic() throws {
        let rig = try Rig(configHome: true)
        defer { rig.server.stop() }
        let player = try rig.play(["--preset", "brown"])
        let list = try rig.server.run("/usr/bin/pactl", ["list", "sink-inputs"])
        #expect(list.stdoutText.contains("media.role = \"music\""), "\(list.stdoutText)")
        #expect(list.stdoutText.contains("application.icon_name = \"audio-x-generic\""))
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }

    /// `noise play` alone: the Last Mix, or the default preset in a fresh store; `noise toggle`
    /// pauses and continues it; mute keeps the level.
    @Test func playWithNoArgumentsAndToggle() throws {
        let rig = try Rig(configHome: true)
        defer { rig.server.stop() }
        var player = try rig.play([])
        #expect(
            rig.waitForStatus { $0["presetID"] as? String == "sleep" && $0["state"] as? String == "playing" } != nil,
            "\(player.stderrText)")
        #expect(try rig.noise(["toggle"]).stdoutText == "Paused.\n")
        #expect(rig.waitForStatus(1) { $0["state"] as? String == "paused" } != nil)
        #expect(try rig.noise(["toggle"]).stdoutText == "Resumed.\n")
        #expect(try rig.noise(["set", "--mute"]).status == 0)
        #expect(rig.waitForStatus(1) { $0["muted"] as? Bool == true && $0["masterVolume"] as? Double == 0.9 } != nil)
        #expect(try rig.noise(["set", "--master", "-10%"]).status == 0)
        #expect(
            rig.waitForStatus(1) {
                $0["muted"] as? Bool == false && abs(($0["masterVolume"] as? Double ?? 0) - 0.8) < 1e-9
            } != nil)
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
        // (The presets' master is 0.9: the -23 LUFS reference level, issue 12.)
        // With no player, `preset` sets the Last Mix; `play` alone then plays it.
        #expect(try rig.noise(["preset", "rain"]).status == 0)
        player = try rig.play([])
        #expect(player.stderrText.contains("(Last Mix: Rain)"), "\(player.stderrText)")
        #expect(rig.waitForStatus { $0["presetID"] as? String == "rain" && $0["state"] as? String == "playing" } != nil)
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }
}

extension PulseStore {
    fileprivate var statusURL: URL { store.appendingPathComponent("status.json") }
    fileprivate var heartbeatURL: URL {
        URL(fileURLWithPath: env["XDG_RUNTIME_DIR"]!).appendingPathComponent("widgetweaver/noise.heartbeat")
    }

    fileprivate func play(_ args: [String]) throws -> Spawned {
        let player = try Spawned(
            "noise", ["play", "--fade-in", "0", "--latency", "150ms"] + args, environment: env)
        #expect(player.waitForStderr(20) { $0.contains("Playing") }, "\(player.stderrText)")
        return player
    }
}
