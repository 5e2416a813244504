import Foundation
import NoiseControl
import NoiseEngine
import Synchronization
import TestSupport
import Testing

/// The timer's end (`then`) on the real controller: taken only while a timer runs, refused in the
/// session's words when logind cannot act, shown in the status with the fade, and back to `stop`
/// when the timer is switched off.
@Suite struct TimerEndTests {
    static func controller(problem: String? = nil) -> PlayerController {
        let player = LivePlayer(mix: sleepMix, seed: 1)
        return PlayerController(
            player: player, mix: sleepMix, presetID: "sleep", output: .init(backend: "null", device: ""),
            saver: nil, timerEndProblem: { _ in problem })
    }

    @Test func thenNeedsATimerAndIsShownWithTheFade() throws {
        let c = Self.controller()
        guard case .error(let noTimer) = c.handle(.then(.suspend)) else {
            Issue.record("'then' without a timer was taken")
            return
        }
        #expect(noTimer.contains("'then' needs a running sleep timer"), "\(noTimer)")
        guard case .ok(let set?) = c.handle(.timer(seconds: 1800, fadeSeconds: 300)) else {
            Issue.record("timer")
            return
        }
        #expect(set.timerFadeSeconds == 300 && set.timerThen == .stop, "\(set)")
        guard case .ok(let after?) = c.handle(.then(.suspend)) else {
            Issue.record("then")
            return
        }
        #expect(after.timerThen == .suspend && after.timerFadeSeconds == 300)
        #expect(c.timerEnd == .suspend)
        // A new length keeps the end; no fade given is the player's default, as the engine does.
        guard case .ok(let longer?) = c.handle(.timer(seconds: 2700, fadeSeconds: nil)) else {
            Issue.record("longer")
            return
        }
        #expect(longer.timerThen == .suspend && longer.timerFadeSeconds == RenderPlan.defaultFadeSeconds)
        #expect(
            StatusFormatter.human(longer).contains("fading out over 30s, then suspend"),
            "\(StatusFormatter.human(longer))")
        guard case .ok(let off?) = c.handle(.timer(seconds: nil, fadeSeconds: nil)) else {
            Issue.record("off")
            return
        }
        #expect(off.timerThen == nil && off.timerFadeSeconds == nil && c.timerEnd == .stop)
    }

    @Test func suspendIsRefusedWhenLogindCannotAct() {
        let c = Self.controller(problem: "suspend at the timer's end needs systemd-logind, which did not answer")
        _ = c.handle(.timer(seconds: 600, fadeSeconds: 60))
        guard case .error(let refused) = c.handle(.then(.suspend)) else {
            Issue.record("suspend was taken without logind")
            return
        }
        #expect(refused.contains("needs systemd-logind"))
        #expect(c.timerEnd == .stop)
        // Stopping needs nobody.
        guard case .ok(let stop?) = c.handle(.then(.stop)) else {
            Issue.record("stop")
            return
        }
        #expect(stop.timerThen == .stop)
    }
}
