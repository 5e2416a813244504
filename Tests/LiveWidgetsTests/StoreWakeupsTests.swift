import Foundation
import LiveWidgets
import NoiseControl
import SharedStore
import Synchronization
import TestSupport
import Testing

@testable import ChangeWatch

/// The wake-ups `weaver serve` and `weaver render --watch` share, against a real process standing
/// in for the player (`/bin/sleep`, named by a real status.json) and a real store folder.
@Suite(.serialized) struct StoreWakeupsTests {
    /// Counts redraws and when each came.
    final class Redraws: Sendable {
        let times = Mutex<[ContinuousClock.Instant]>([])
        let errors = Mutex<[String]>([])
        var count: Int { times.withLock { $0.count } }

        /// Waits up to `seconds` for redraw number `number` (1-based); when it came.
        func wait(for number: Int, _ seconds: Double) -> ContinuousClock.Instant? {
            Wait.until(seconds, interval: 0.002) { times.withLock { $0.count >= number ? $0[number - 1] : nil } }
        }
    }

    static func stop(_ wakeups: StoreWakeups) {
        wakeups.stop()
        wakeups.wait()
    }

    struct Rig {
        let directory: URL
        let root: StoreRoot
        let player: ChildProcess

        init() throws {
            directory = try Products.temporaryDirectory("wakeups")
            root = StoreRoot(url: directory)
            player = try ChildProcess("/bin/sleep", ["30"])
        }

        func remove() {
            player.signal(SIGKILL)
            player.wait()
            try? FileManager.default.removeItem(at: directory)
        }

        /// The status feed naming the stand-in player as playing, written `age` seconds ago.
        func writePlaying(writtenSecondsAgo age: Double = 0) throws {
            var status = PlayerStatus(
                state: .playing, mix: LastMix.defaultMix, presetID: nil,
                output: .init(backend: "null", device: "test"),
                updatedAt: Date().addingTimeInterval(-age))
            status.pid = player.pid
            try StatusStore(root: root).write(status)
        }

        func started(_ wakeups: StoreWakeups) -> Redraws {
            let redraws = Redraws()
            wakeups.start(
                { redraws.times.withLock { $0.append(.now) } },
                onError: { e in redraws.errors.withLock { $0.append("\(e)") } })
            return redraws
        }
    }

    /// SIGKILL leaves the feed saying "playing": the player's exit itself must cause the redraw.
    @Test func theFollowedPlayersExitRedraws() throws {
        let rig = try Rig()
        defer { rig.remove() }
        try rig.writePlaying()
        MinuteBoundary.waitUntilNoneWithin(4)
        let wakeups = try StoreWakeups(root: rig.root)
        let redraws = rig.started(wakeups)
        defer { Self.stop(wakeups) }
        #expect(redraws.wait(for: 1, 2) != nil, "the first draw")
        // That nothing comes is the check: a quiet window has to pass.
        #expect(throughout(0.3) { redraws.count == 1 }, "nothing changed yet")
        let killed = ContinuousClock.now
        // Not reaped: an exited player whose parent has not waited for it yet counts as dead too.
        rig.player.signal(SIGKILL)
        let second = try #require(
            redraws.wait(for: 2, 2), "no redraw within 2 s of SIGKILL; \(redraws.errors.withLock { $0 })")
        print("LiveWidgets: redraw \(killed.duration(to: second)) after SIGKILL")
        #expect(killed.duration(to: second) < .seconds(1))
        // That no second redraw comes is the check: a quiet window has to pass.
        #expect(throughout(0.3) { redraws.count == 2 }, "one exit, one redraw")
    }

    /// A player that is alive but silent (no status write, no heartbeat) turns stale
    /// `staleAfterSeconds` after its last status write: the redraw comes at that moment.
    @Test func aSilentPlayersStaleMomentRedraws() throws {
        let rig = try Rig()
        defer { rig.remove() }
        // Before the write: the stale moment below is measured from it, and this may wait out a minute.
        MinuteBoundary.waitUntilNoneWithin(4)
        // Written 8.5 s ago (stored in whole seconds: 8.5-9.5 s) and no heartbeat of this pid:
        // stale 0.5-1.5 s from now, at the moment the stored time gives.
        try rig.writePlaying(writtenSecondsAgo: PlayerStatus.staleAfterSeconds - 1.5)
        guard case .loaded(let written) = try StatusStore(root: rig.root).read() else {
            Issue.record("the status just written does not read back")
            return
        }
        let wakeups = try StoreWakeups(root: rig.root)
        let redraws = rig.started(wakeups)
        defer { Self.stop(wakeups) }
        #expect(redraws.wait(for: 1, 2) != nil, "the first draw")
        let second = try #require(
            redraws.wait(for: 2, 3), "no redraw at the stale moment; \(redraws.errors.withLock { $0 })")
        let redrawnAt = Date().addingTimeInterval(-second.duration(to: .now).seconds)
        let due = written.updatedAt.addingTimeInterval(
            PlayerStatus.staleAfterSeconds + StoreWakeups.staleWakeMarginSeconds)
        let lateSeconds = redrawnAt.timeIntervalSince(due)
        print("LiveWidgets: stale-moment redraw \(String(format: "%.3f", lateSeconds)) s after its moment")
        #expect(lateSeconds > -0.01 && lateSeconds < 0.5, "\(lateSeconds) s")
        // That nothing more comes is the check: a quiet window has to pass.
        #expect(throughout(0.5) { redraws.count == 2 }, "stale now: no moment is left to wake for")
    }

    /// What a wake leads to: a redraw, except when the stale moment alone came and the player
    /// still lives (its heartbeat or a status write moved the moment on).
    @Test func theStaleMomentAloneDoesNotRedrawWhileThePlayerLives() throws {
        let rig = try Rig()
        defer { rig.remove() }
        try rig.writePlaying()
        let wakeups = try StoreWakeups(root: rig.root)
        #expect(try wakeups.followPlayer())
        let momentOnly = ChangeSet(deadline: Date())
        #expect(try !wakeups.needsRedraw(after: momentOnly))
        #expect(try wakeups.needsRedraw(after: ChangeSet(minute: Date())))
        #expect(try wakeups.needsRedraw(after: ChangeSet(paths: [rig.root.status.path])))
        // The same moment with the player gone: the widgets must show it stopped.
        rig.player.signal(SIGKILL)
        _ = eventually(3) { !PlayerStatus.processIsAlive(rig.player.pid) }
        #expect(try wakeups.needsRedraw(after: momentOnly))
        #expect(try !wakeups.followPlayer(), "nothing live to follow")
    }

    /// A drawing that asks for its next moment (a countdown's next second) is drawn again then,
    /// by the watcher's timer, with no file written; once it asks for none, nothing more comes.
    @Test func theMomentADrawingAsksForRedrawsAndNothingAfter() throws {
        let rig = try Rig()
        defer { rig.remove() }
        MinuteBoundary.waitUntilNoneWithin(4)
        let wakeups = try StoreWakeups(root: rig.root)
        let redraws = Redraws()
        let asked = Mutex<[ContinuousClock.Instant]>([])
        wakeups.start(
            {
                let n = redraws.times.withLock {
                    $0.append(.now)
                    return $0.count
                }
                // Three more moments 0.25 s apart, then none (as a countdown that has ended).
                let next: Date? = n <= 3 ? Date().addingTimeInterval(0.25) : nil
                if next != nil { asked.withLock { $0.append(.now + .milliseconds(250)) } }
                try? wakeups.redraw(at: next)
            }, onError: { e in redraws.errors.withLock { $0.append("\(e)") } })
        defer { Self.stop(wakeups) }
        let fourth = try #require(redraws.wait(for: 4, 3))
        let moments = asked.withLock { $0 }
        let times = redraws.times.withLock { $0 }
        for (due, came) in zip(moments, times.dropFirst()) {
            let late = came - due
            #expect(late >= .milliseconds(-5) && late < .milliseconds(400), "\(late)")
        }
        #expect(redraws.wait(for: 5, 1.2) == nil, "redrawn again \(redraws.count - 4) times after the last request")
        _ = fourth
        #expect(redraws.errors.withLock { $0 }.isEmpty)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

}
