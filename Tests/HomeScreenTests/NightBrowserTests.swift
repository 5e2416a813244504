import Foundation
import TestSupport
import Testing

/// The Noise page's night section in a real headless Chromium against a real `weaver serve` and a
/// real player on a private PulseAudio, read back with the CLI as a process: a 30-minute timer with
/// a 5-minute fade and suspend at the end (`noise status --json` shows all three), `+15 min`, and
/// a schedule added on the page that `noise schedule list` lists. logind is the stand-in of
/// LogindTests on a private bus (a real one would suspend the machine); systemd does not run in
/// this container, so the page first refuses the schedule in the CLI's words, then writes it
/// with "without a systemd user session" ticked, as ScheduleCLITests use `--without-systemd-session`.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct NightBrowserTests {
    @Test func aTimerWithFadeAndSuspendAndAScheduleSetOnThePage() throws {
        let logind = try LogindStandIn()
        defer { logind.stop() }
        let rig = try NightAPITests.Rig(extra: logind.environment)
        defer { rig.stop() }
        let player = try rig.play()
        defer { _ = player.waitForExit(0.1) }
        try rig.start()

        let browser = try WebDriver()
        defer { browser.quit() }
        try browser.navigate("http://127.0.0.1:\(rig.serve.port)/noise")
        #expect(try browser.waitUntil(10, "return document.getElementById('night').dataset.ready === 'true'"))
        #expect(try browser.execute("return document.getElementById('night').dataset.player") as? String == "playing")

        /// What the page said last (the status line under the sections).
        func message() -> String {
            ((try? browser.execute("return document.getElementById('night-message').textContent")) as? String) ?? ""
        }

        // 30 minutes, a 5-minute fade, suspend at the end: chosen as a person does, then "Set timer".
        func choose(_ id: String, _ value: String) throws {
            _ = try browser.execute(
                "const s = document.getElementById('\(id)'); s.value = '\(value)';"
                    + " s.dispatchEvent(new Event('change', { bubbles: true })); return s.value;")
        }
        try choose("night-minutes", "1800")
        try choose("night-fade", "300")
        try choose("night-then", "suspend")
        try browser.click(try #require(try browser.find("#night-set")))
        #expect(
            try browser.waitUntil(5, "return document.getElementById('night').dataset.timerThen === 'suspend'"),
            "\(message())")
        let status = try rig.status()
        #expect((1790...1800).contains(status["timerRemainingSeconds"] as? Double ?? 0), "\(status)")
        #expect(status["timerFadeSeconds"] as? Double == 300, "\(status)")
        #expect(status["timerThen"] as? String == "suspend", "\(status)")
        let human = try rig.noise(["status"]).stdoutText
        #expect(human.contains("fading out over 5m 00s, then suspend"), "\(human)")
        let shown = try browser.execute("return document.getElementById('night-timer-state').textContent") as? String
        #expect(shown?.contains("then suspend") == true, "\(shown ?? "")")

        // +15 min, from the keyboard: the timer grows, its fade and end stay.
        let more = try #require(try browser.find("#night-more"))
        try browser.sendKeys(more, "\u{E007}")  // Enter on the focused button
        let longer = rig.serve.waitForStatus(5) { (($0["timerRemainingSeconds"] as? Double) ?? 0) > 2600 }
        #expect(longer != nil, "\(rig.serve.status() ?? [:])")
        let after = try rig.status()
        #expect(after["timerFadeSeconds"] as? Double == 300 && after["timerThen"] as? String == "suspend", "\(after)")
        #expect(logind.calls().allSatisfy { !$0.hasPrefix("Suspend") }, "nothing suspends before the timer ends")

        // A schedule: refused first (no systemd here), in the CLI's words.
        _ = try browser.execute("document.getElementById('night-time').value = '22:30'; return true;")
        try choose("night-preset", "rain")
        try choose("night-schedule-fade", "600")
        try browser.click(try #require(try browser.find("#night-add")))
        #expect(
            try browser.waitUntil(
                5, "return document.getElementById('night-message').textContent.includes('would never run here')"),
            "\(message())")
        #expect(try browser.execute("return document.getElementById('night-systemd').hidden") as? Bool == false)
        try browser.click(try #require(try browser.find("#night-anyway")))
        try browser.click(try #require(try browser.find("#night-add")))
        #expect(
            try browser.waitUntil(
                5, "return !!document.querySelector('#night-schedules li[data-schedule-id=\"2230-rain\"]')"),
            "\(message())")
        var list = try rig.noise(["schedule", "list"])
        #expect(list.status == 0, "\(list.stderrText)")
        #expect(
            list.stdoutText.hasPrefix("2230-rain  22:30 daily  preset rain  fade 10m00s  timer none  next"),
            "\(list.stdoutText)")

        // Disabled with its checkbox, then removed with its button.
        try browser.click(try #require(try browser.find(#"#night-schedules li[data-schedule-id="2230-rain"] input"#)))
        #expect(try browser.waitUntil(5, "return !!document.querySelector('#night-schedules li.disabled')"))
        list = try rig.noise(["schedule", "list"])
        #expect(list.stdoutText.contains("timer none  disabled"), "\(list.stdoutText)")
        try browser.click(try #require(try browser.find(#"#night-schedules li[data-schedule-id="2230-rain"] button"#)))
        #expect(try browser.waitUntil(5, "return document.querySelectorAll('#night-schedules li').length === 0"))
        #expect(try rig.noise(["schedule", "list"]).stdoutText.contains("No schedules"))
        #expect(try rig.noise(["stop"]).status == 0)
    }
}
