import BoundedJSON
import Foundation
import NoiseControl
import NoiseEngine
import PlayerLiveness
import Synchronization
import TestSupport
import Testing

/// What the status feed shows a bar (lost output, muted, paused) and that the publisher writes only
/// meaningful changes. What `noise status` prints is in CLITests (StatusCommandTests).
@Suite struct StatusFeedOutputTests {
    /// 16 (9), (18) and the mute flag in the bars.
    @Test func barsShowLostOutputMutedAndThePausedLevel() throws {
        var s = FakePlayer().status()
        s.output.lost = true
        var w = try JSONValue.parse(Data(StatusFormatter.waybar(s).utf8))
        #expect(w["class"] == .string("lost"))
        #expect(w["text"] == .string("♪ Sleep (no output)"))
        #expect(StatusFormatter.human(s).hasPrefix("Playing Sleep (preset sleep), but the output is lost (null test)"))
        #expect(StatusFormatter.i3blocks(s) == "♪ Sleep (no output)\n♪ !\n#bf616a")
        s.output.lost = false
        s.muted = true
        w = try JSONValue.parse(Data(StatusFormatter.waybar(s).utf8))
        #expect(w["class"] == .string("muted"))
        #expect(StatusFormatter.human(s).hasPrefix("Playing Sleep (preset sleep), master 70%, muted."))
        s.muted = false
        s.state = .paused
        #expect(StatusFormatter.i3blocks(s) == "⏸ Sleep 70%\n⏸ 70%\n#ebcb8b")
        // The document carries both flags; files from before them read as false.
        let doc = try JSONValue.parse(Data(StatusFormatter.json(s, pretty: false).utf8))
        #expect(doc["muted"] == .bool(false))
        #expect(
            doc["output"] == .object(["backend": .string("null"), "device": .string("test"), "lost": .bool(false)]))
        let old =
            #"""
            {"schemaVersion":1,"state":"playing","presetName":null,"presetID":null,"masterVolume":0.5,"layers":[],\#
            "timerEndsAt":null,"timerRemainingSeconds":null,"output":{"backend":"pulse","device":"x"},\#
            "levelDbfs":null,"underruns":0,"pid":1,"updatedAt":"2026-01-01T00:00:00Z"}
            """#
        let box = try Sandbox()
        defer { box.remove() }
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        try Data(old.utf8).write(to: box.root.status)
        guard case .loaded(let back) = try StatusStore(root: box.root).read() else {
            Issue.record("old file not read")
            return
        }
        #expect(back.output.lost == false && back.muted == false)
    }

    /// 12 (6): what is worth a write of `status.json`, and what is only a heartbeat.
    @Test func onlyMeaningfulChangesAreWritten() {
        let now = Date()
        var a = FakePlayer().status()
        a.updatedAt = now
        a.timerEndsAt = now.addingTimeInterval(600)
        a.timerRemainingSeconds = 600
        var b = a
        b.updatedAt = now.addingTimeInterval(1)
        b.levelDbfs = -40
        b.timerRemainingSeconds = 599
        b.timerEndsAt = now.addingTimeInterval(600.4)  // render clock against wall clock
        // Issue 41: an underrun alone costs no write (and no fsync) of status.json.
        b.underruns += 1
        #expect(!b.differsMeaningfully(from: a))
        for change in [
            { (s: inout PlayerStatus) in s.state = .paused }, { $0.masterVolume = 0.3 }, { $0.output.lost = true },
            { $0.muted = true }, { $0.timerEndsAt = now.addingTimeInterval(1800) },
            { $0.timerEndsAt = nil }, { $0.presetID = "rain" },
        ] {
            var c = a
            change(&c)
            #expect(c.differsMeaningfully(from: a))
        }
        #expect(a.differsMeaningfully(from: nil))
    }

    /// 12 (6): a playing status whose `updatedAt` is old is alive while its player's heartbeat is
    /// fresh, and stale when the heartbeat is old, missing, or another process's.
    @Test func stalenessFollowsTheHeartbeat() throws {
        let dir = try Products.temporaryDirectory("beat")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(PlayerHeartbeat.fileName)
        let heartbeat = try PlayerHeartbeat(url: url)
        heartbeat.beat()
        let now = Date()
        let age = try #require(PlayerHeartbeat.age(of: getpid(), at: url, now: now))
        #expect(age >= -0.1 && age < 2)
        #expect(PlayerHeartbeat.age(of: getpid() + 1, at: url) == nil)
        var s = FakePlayer().status()
        s.updatedAt = now.addingTimeInterval(-3600)  // steady all night: not rewritten
        #expect(!s.isStale(now: now, heartbeatAge: { PlayerHeartbeat.age(of: $0, at: url, now: now) }))
        #expect(
            s.isStale(
                now: now.addingTimeInterval(30),
                heartbeatAge: { PlayerHeartbeat.age(of: $0, at: url, now: now.addingTimeInterval(30)) }))
        #expect(s.isStale(now: now, heartbeatAge: { _ in nil }))
        heartbeat.stop()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(s.isStale(now: now, heartbeatAge: { PlayerHeartbeat.age(of: $0, at: url, now: now) }))
    }

    /// 12 (6): steady playing writes nothing in the store (no rename, no fsync), refreshes only
    /// the heartbeat, and a change still reaches `status.json` within one interval.
    @Test func publisherIsQuietWhileSteadyAndPromptOnChange() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let player = FakePlayer()
        let store = StatusStore(root: box.root)
        let heartbeat = try PlayerHeartbeat(url: box.run.appendingPathComponent(PlayerHeartbeat.fileName))
        let level = Atomic<Int>(0)
        let publisher = StatusPublisher(
            store: store, server: nil, intervalSeconds: 0.1, heartbeat: heartbeat,
            snapshot: {
                var s = player.status()
                // The level meter moves every interval, as a playing engine's does.
                s.levelDbfs = -30 - Double(level.add(1, ordering: .relaxed).newValue % 7)
                return s
            })
        publisher.start()
        publisher.publishNow()
        #expect(eventually { FileManager.default.fileExists(atPath: store.url.path) })
        func inode(_ url: URL) -> (ino: UInt, mtime: Double) {
            var st = stat()
            stat(url.path, &st)
            return (UInt(st.st_ino), Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
        }
        let before = inode(store.url), beatBefore = inode(heartbeat.url)
        let names = try FileManager.default.contentsOfDirectory(atPath: box.store.path)
        // Twelve intervals: that nothing is rewritten over them is the check (a quiet window).
        #expect(
            throughout(1.2) { inode(store.url) == before }, "status.json was rewritten while nothing changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.store.path) == names)
        #expect(inode(heartbeat.url).mtime > beatBefore.mtime, "the heartbeat did not move")
        // A change made behind the publisher's back (as the engine's underrun counter does) is
        // written at the next interval.
        player.state.withLock { $0.mix.masterVolume = 0.4 }
        #expect(
            eventually(1) {
                (try? store.read()).map { if case .loaded(let s) = $0 { s.masterVolume == 0.4 } else { false } }
                    ?? false
            })
        var final = player.status()
        final.state = .stopped
        publisher.stop(final: final)
        guard case .loaded(let last) = try store.read() else {
            Issue.record("no status")
            return
        }
        #expect(last.state == .stopped)
        #expect(!FileManager.default.fileExists(atPath: heartbeat.url.path))
    }
}
