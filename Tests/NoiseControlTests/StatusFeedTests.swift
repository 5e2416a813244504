import BoundedJSON
import Foundation
import NoiseControl
import NoiseEngine
import TestSupport
import Testing

@Suite struct StatusFeedTests {
    @Test func documentHasExactlyTheContractKeys() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = StatusStore(root: box.root)
        var status = FakePlayer().status()
        status.timerEndsAt = Date(timeIntervalSince1970: 1_767_227_400)
        status.timerRemainingSeconds = 1800
        try store.write(status)
        let raw = try JSONValue.parse(try Data(contentsOf: store.url))
        guard case .object(let o) = raw else {
            Issue.record("not an object")
            return
        }
        #expect(
            Set(o.keys) == [
                "schemaVersion", "state", "presetName", "presetID", "masterVolume", "layers", "timerEndsAt",
                "timerRemainingSeconds", "timerFadeSeconds", "timerThen", "output", "levelDbfs", "underruns", "muted",
                "notch", "hearing", "scheduling", "pid", "updatedAt",
            ])
        #expect(raw["schemaVersion"] == .number(1))
        #expect(raw["state"] == .string("playing"))
        #expect(raw["presetName"] == .string("Sleep"))
        #expect(raw["presetID"] == .string("sleep"))
        #expect(raw["masterVolume"] == .number(0.7))
        #expect(raw["timerEndsAt"] == .string("2026-01-01T00:30:00Z"))
        #expect(raw["timerRemainingSeconds"] == .number(1800))
        #expect(
            raw["output"] == .object(["backend": .string("null"), "device": .string("test"), "lost": .bool(false)]))
        #expect(raw["muted"] == .bool(false))
        #expect(raw["levelDbfs"] == .number(-23.5))
        #expect(raw["underruns"] == .number(2))
        #expect(raw["pid"] == .number(Double(getpid())))
        guard case .array(let layers)? = raw["layers"], case .object(let l0) = layers[0] else {
            Issue.record("layers")
            return
        }
        #expect(Set(l0.keys) == ["enabled", "volume", "colour", "lowCutHz", "highCutHz", "eq"])
        #expect(raw["layers"]?.arrayCount == 2)
        #expect(l0["eq"] == .object(["lowDb": .number(2), "midDb": .number(-3), "highDb": .number(-8)]))
        // Optional values are written as null, so every key is always present.
        var idle = status
        idle.presetName = nil
        idle.timerEndsAt = nil
        idle.timerRemainingSeconds = nil
        idle.levelDbfs = nil
        try store.write(idle)
        let raw2 = try JSONValue.parse(try Data(contentsOf: store.url))
        #expect(raw2["timerEndsAt"] == .null && raw2["levelDbfs"] == .null && raw2["presetName"] == .null)
        guard case .loaded(let back) = try store.read() else {
            Issue.record("read")
            return
        }
        #expect(back.layers == idle.layers && back.state == .playing && back.timerEndsAt == nil)
        #expect(fileMode(store.url.path) == 0o600)
    }

    @Test func staleness() throws {
        let now = Date()
        var s = FakePlayer().status()
        s.updatedAt = now
        #expect(!s.isStale(now: now))
        #expect(!s.isStale(now: now.addingTimeInterval(9.5)))
        #expect(s.isStale(now: now.addingTimeInterval(10.5)))
        s.state = .paused
        #expect(!s.isStale(now: now.addingTimeInterval(600)))
        // A finished process's pid.
        let p = try ChildProcess("/bin/true", [])
        p.wait()
        s.pid = p.pid
        #expect(s.isStale(now: now))
        #expect(s.effective(now: now).state == .stopped)
        s.state = .stopped
        #expect(!s.isStale(now: now))
    }

    @Test func staleDeadlineIsWhenNeitherStatusNorHeartbeatIsHeardFrom() {
        let now = Date()
        var s = FakePlayer().status()
        s.updatedAt = now.addingTimeInterval(-3)
        let noBeat: (Int32) -> Double? = { _ in nil }
        // No heartbeat: 10 s after the status was written.
        let due = try? #require(s.staleDeadline(now: now, heartbeatAge: noBeat))
        #expect(due == s.updatedAt.addingTimeInterval(PlayerStatus.staleAfterSeconds))
        if let due {
            #expect(!s.isStale(now: due.addingTimeInterval(-0.01), heartbeatAge: noBeat))
            #expect(s.isStale(now: due.addingTimeInterval(0.01), heartbeatAge: noBeat))
        }
        // A heartbeat half a second old moves it on: 9.5 s from now.
        let beating = try? #require(s.staleDeadline(now: now, heartbeatAge: { _ in 0.5 }))
        #expect(beating.map { abs($0.timeIntervalSince(now) - 9.5) < 1e-6 } == true, "\(String(describing: beating))")
        // Only a playing status turns stale by time; a stale one has no moment left.
        s.state = .paused
        #expect(s.staleDeadline(now: now, heartbeatAge: noBeat) == nil)
        s.state = .stopped
        #expect(s.staleDeadline(now: now, heartbeatAge: noBeat) == nil)
        s.state = .playing
        #expect(s.staleDeadline(now: now.addingTimeInterval(20), heartbeatAge: noBeat) == nil)
    }

    @Test func anExitedProcessNotYetReapedIsNotAlive() throws {
        let p = try ChildProcess("/bin/sleep", ["30"])
        defer {
            p.signal(SIGKILL)
            p.wait()
        }
        #expect(PlayerStatus.processIsAlive(p.pid))
        p.signal(SIGKILL)
        // Nobody reaps it (ChildProcess reaps only in poll/wait): a zombie, which kill(pid, 0) still finds.
        _ = eventually(3) { !PlayerStatus.processIsAlive(p.pid) }
        #expect(kill(p.pid, 0) == 0, "still a zombie, not reaped")
        #expect(!PlayerStatus.processIsAlive(p.pid))
    }

    @Test func corruptStatusIsSetAside() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = StatusStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        try Data("{\"state\": \"playing\"".utf8).write(to: store.url)
        guard case .setAside(let reason, let at) = try store.read() else {
            Issue.record("expected set-aside")
            return
        }
        #expect(reason.contains("invalid JSON"))
        #expect(try String(contentsOf: at, encoding: .utf8) == "{\"state\": \"playing\"")
        guard case .missing = try store.read() else {
            Issue.record("expected missing")
            return
        }
    }

    @Test func publisherWritesTheFirstStatusAndTheFinalOne() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let player = FakePlayer()
        let store = StatusStore(root: box.root)
        let publisher = StatusPublisher(store: store, server: nil, intervalSeconds: 0.1, snapshot: { player.status() })
        publisher.start()
        #expect(eventually { if case .loaded = (try? store.read()) ?? .missing { true } else { false } })
        var final = player.status()
        final.state = .stopped
        publisher.stop(final: final)
        guard case .loaded(let last) = try store.read() else { return }
        #expect(last.state == .stopped)
    }

    @Test func formats() throws {
        var s = FakePlayer().status()
        s.timerEndsAt = Date().addingTimeInterval(1752)
        s.timerRemainingSeconds = 1752
        let waybar = StatusFormatter.waybar(s)
        let w = try JSONValue.parse(Data(waybar.utf8))
        #expect(w["text"] == .string("♪ Sleep 70%"))
        #expect(w["class"] == .string("playing"))
        #expect(w["percentage"] == .number(70))
        guard case .string(let tip)? = w["tooltip"] else {
            Issue.record("tooltip")
            return
        }
        #expect(tip.contains("Timer: 29m 12s left"))
        #expect(tip.contains("Layer 1: on, 80%, colour 1.80 (brown), low cut 20 Hz, high cut 6000 Hz, EQ +2/-3/-8 dB"))
        #expect(!waybar.contains("\n"))
        #expect(StatusFormatter.i3blocks(s) == "♪ Sleep 70%\n♪ 70%\n#a3be8c")
        s.state = .paused
        #expect(StatusFormatter.i3blocks(s) == "⏸ Sleep 70%\n⏸ 70%\n#ebcb8b")
        #expect(try JSONValue.parse(Data(StatusFormatter.waybar(s).utf8))["class"] == .string("paused"))
        let human = StatusFormatter.human(s)
        #expect(human.hasPrefix("Paused: Sleep (preset sleep), master 70%."))
        #expect(human.contains("Output: null test, level -23.5 dBFS, 2 underruns."))
        let dead = StatusFormatter.render(s, format: .waybar, isProcessAlive: { _ in false })
        #expect(try JSONValue.parse(Data(dead.utf8))["class"] == .string("stopped"))
        #expect(StatusFormatter.human(s, isProcessAlive: { _ in false }).hasPrefix("Stopped: the player (pid"))
        let json = try JSONValue.parse(Data(StatusFormatter.json(s, pretty: false).utf8))
        #expect(json["stale"] == .bool(false))
        #expect(json["state"] == .string("paused"))
        #expect(StatusFormatter.i3blocks(nil) == "♪ off\n♪\n#888888")
    }
}
