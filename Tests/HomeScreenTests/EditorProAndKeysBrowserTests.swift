import Foundation
import TestSupport
import Testing

/// Issue 41, items 7 and 8, in a real headless Chromium against a real `weaver serve`: Pro unlocked
/// from the Editor itself (what `weaver pro unlock` does, read back with `weaver pro status`), and
/// the built-in keys whose data is not set up yet offered by `{{` and named as such, not as unknown.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct EditorProAndKeysBrowserTests {
    typealias B = EditorBrowserTests

    @Test func proIsUnlockedFromTheEditorAsTheCLIUnlocksIt() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Buttons")
        try rig.startServer()
        // The route is a write: without the page's token it is refused and Pro stays locked.
        let refused = try rig.post("/api/pro/unlock", "{}", token: nil)
        #expect(refused.status == 403, "\(refused.text)")
        #expect(try rig.weaver(["pro", "status"]).stdoutText.contains("locked"))
        #expect(!(try rig.weaver(["pro", "status"]).stdoutText.contains("unlocked")))

        let browser = try WebDriver()
        defer { browser.quit() }
        try EditorSizesBrowserTests.open(rig, browser, id)
        // Without Pro: the Actions group says what Pro is and offers the unlock beside its locked controls.
        #expect(
            try browser.execute(
                """
                const r = document.querySelector('fieldset.group[data-group="Actions"] [data-pro-reason]');
                const b = r.querySelector('[data-unlock-pro]');
                return !r.hidden && /unlimited saved designs/.test(r.textContent) && !!b && !b.disabled
                  && document.querySelector('[data-field="actions[0].kind"]').disabled;
                """) as? Bool == true, "no unlock offered beside the locked buttons")
        _ = try browser.execute(
            """
            document.querySelector('fieldset.group[data-group="Actions"] [data-unlock-pro]')
              .scrollIntoView({ block: 'center' }); return true;
            """)
        try browser.click(
            try #require(try browser.find(#"fieldset.group[data-group="Actions"] [data-unlock-pro]"#)))
        #expect(
            try browser.waitUntil(
                10,
                """
                return !document.querySelector('[data-field="actions[0].kind"]').disabled && \
                document.querySelector('fieldset.group[data-group="Actions"] [data-pro-reason]').hidden && \
                !document.querySelector('fieldset.group[data-group="Matched set"]').hidden
                """), "the buttons and the matched set did not open after the unlock")
        let status = try rig.weaver(["pro", "status"])
        #expect(status.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "unlocked", "\(status.stdoutText)")

        // Issue 41.18: "Saved" is said beside the Save button, not only across the window.
        try browser.click(try #require(try browser.find("button#save")))
        #expect(
            try browser.waitUntil(10, "return document.getElementById('save-state').textContent === 'Saved'"),
            "no 'Saved' beside the button")
        let gap =
            try browser.execute(
                """
                const a = document.getElementById('save-state').getBoundingClientRect();
                const b = document.getElementById('save').getBoundingClientRect();
                const across = Math.max(0, b.left - a.right, a.left - b.right);
                return across + Math.abs((a.top + a.bottom) - (b.top + b.bottom)) / 2;
                """) as? Double ?? 999
        #expect(gap < 40, "'Saved' is \(gap) px from the Save button")
    }

    @Test func weatherKeysAreOfferedBeforeWeatherIsSetUp() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Weather words")
        try rig.startServer()
        // The API: every built-in key, the ones without data saying what to do.
        let answer = try #require(try RawHTTP.send(port: rig.port, path: "/api/variables").json())
        let list = answer["variables"] as? [[String: Any]] ?? []
        let temp = list.first { $0["key"] as? String == "__weather_temp" }
        #expect(temp?["notSetUp"] as? String == "weather is not set up yet (Data page)", "\(temp ?? [:])")
        #expect(list.contains { $0["key"] as? String == "__time" && $0["notSetUp"] == nil })
        let weatherKeys = list.filter { ($0["key"] as? String ?? "").hasPrefix("__weather_") }.count
        #expect(weatherKeys >= 10, "only \(weatherKeys) weather keys")

        let browser = try WebDriver()
        defer { browser.quit() }
        try EditorSizesBrowserTests.open(rig, browser, id)
        let text = try #require(try browser.find(#"[data-field="primaryText"]"#))
        try browser.sendKeys(text, "\u{E009}a\u{E000}\u{E003}{{__weather_te")
        #expect(
            try browser.waitUntil(
                5,
                """
                const l = document.querySelector('.completions:not([hidden])'); return !!l && \
                [...l.querySelectorAll('li')].some((li) => li.dataset.key === '__weather_temp' && \
                /not set up yet/.test(li.textContent))
                """), "typing {{__weather_te did not offer __weather_temp")
        let before = try B.generation(browser)
        try browser.sendKeys(text, "\u{E007}\u{E004}")  // Enter takes the key, Tab sends the change
        try B.waitForRedraw(browser, after: before, "typing the weather key")
        let notice = "document.querySelector('[data-notice-for=\"primaryText\"]').textContent"
        let named = try browser.waitUntil(5, "return /weather is not set up yet \\(Data page\\)/.test(\(notice))")
        let said = try browser.execute("return " + notice) as? String ?? ""
        #expect(named, "\(said)")
        #expect(!said.contains("no built-in or stored variable"), "\(said)")
    }
}
