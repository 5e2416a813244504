import Foundation
import TestSupport
import Testing

/// The Editor's Describe and Ask boxes in a real headless Chromium against a real `weaver serve` and a
/// stand-in Ollama on loopback: off (and saying how to set a model up) until `weaver ai setup`; then
/// Describe → preview → Save, and Ask for an edit → Undo restores the design.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct EditorAssistantBrowserTests {
    static func text(_ browser: WebDriver, _ id: String) throws -> String {
        try browser.execute("return document.getElementById('\(id)').textContent") as? String ?? ""
    }

    static func waitForAnswer(_ browser: WebDriver, _ what: String) throws {
        #expect(
            try browser.waitUntil(
                15,
                """
                const r = document.getElementById('assistant-result'); return !r.hidden && \
                r.dataset.outcome !== 'asking' && document.getElementById('assistant').dataset.state === 'on'
                """),
            "no answer shown after \(what)")
    }

    @Test func describePreviewSaveThenAskAndUndo() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Plain")
        let box = AnswerBox(
            AssistantAPITests.answer(
                #"[{"field":"name","value":"Coffee Board"},{"field":"style.background","value":"midnight"},"#
                    + #"{"field":"primaryText","value":"Coffee"},{"field":"style.padding","value":99}]"#,
                notes: #"["A +1 button needs Pro"]"#))
        let standIn = try AssistantAPITests.standIn(box)
        defer { standIn.stop() }
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try browser.setWindowSize(width: 1280, height: 900)

        // 1. No model set up: the boxes are off and say how to set one up; nothing is contacted.
        try browser.navigate(rig.url + "editor/\(id)")
        #expect(
            try browser.waitUntil(10, "return document.getElementById('assistant').dataset.state === 'off'"),
            "the boxes did not turn off")
        #expect(try Self.text(browser, "assistant-about").contains("weaver ai setup"))
        #expect(try browser.execute("return document.getElementById('describe-text').disabled") as? Bool == true)
        #expect(try browser.execute("return document.querySelector('#ask button').disabled") as? Bool == true)
        #expect(standIn.requests.isEmpty)

        // 2. Set up, reload: the boxes name the model.
        #expect(try rig.weaver(["ai", "setup", "--url", standIn.baseURL]).status == 0)
        try browser.navigate(rig.url + "editor/\(id)")
        #expect(
            try browser.waitUntil(
                10,
                """
                return document.getElementById('assistant').dataset.state === 'on' && \
                document.getElementById('editor').dataset.ready === 'true' && \
                Number(document.querySelector('.dock').dataset.generation || 0) > 0
                """),
            "the boxes did not turn on")
        #expect(try Self.text(browser, "assistant-about").hasPrefix("Asks tiny:1b at \(standIn.baseURL)."))

        // 3. Describe → the draft and its preview, the changes and the refusal listed, nothing saved.
        var before = try EditorBrowserTests.generation(browser)
        try browser.sendKeys(try #require(try browser.find("#describe-text")), "a coffee board at night")
        _ = try browser.execute("document.getElementById('describe-family').value = 'large'; return true;")
        try browser.click(try #require(try browser.find("#describe button[type=submit]")))
        try Self.waitForAnswer(browser, "Describe")
        try EditorBrowserTests.waitForRedraw(browser, after: before, "Describe")
        let headline = try Self.text(browser, "assistant-headline")
        #expect(headline.hasPrefix("A new design from your words"), "\(headline)")
        let changes = try Self.text(browser, "assistant-changes")
        #expect(changes.contains("name: Classic → Coffee Board") && changes.contains("background"), "\(changes)")
        let refused = try Self.text(browser, "assistant-refused")
        #expect(refused.contains("Padding (style.padding) = '99'") && refused.contains("0…32"), "\(refused)")
        #expect(try Self.text(browser, "assistant-notes") == "A +1 button needs Pro")
        #expect(try Self.text(browser, "design-title") == "Coffee Board")
        #expect(try EditorBrowserTests.value(browser, "primaryText") == "Coffee")
        #expect(try browser.execute("return document.getElementById('unsaved').hidden") as? Bool == false)
        #expect(try Self.text(browser, "dock-state").hasPrefix("Drawn from the unsaved draft"))
        let sent = String(decoding: try #require(standIn.requests.last).body, as: UTF8.self)
        #expect(sent.contains("a coffee board at night") && sent.contains("large widget"))
        #expect(try EditorAPITests.showJSON(rig, id)["name"] as? String == "Plain", "Describe saved the design")

        if let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] {
            _ = try browser.execute(
                "window.scrollTo(0, 0); document.activeElement && document.activeElement.blur(); return true;")
            _ = try browser.waitUntil(5, EditorBrowserTests.twoFramesPainted)
            try browser.screenshotPNG().write(
                to: URL(fileURLWithPath: dir).appendingPathComponent("editor-assistant.png"))
        }

        // 4. Save writes it.
        try browser.click(try #require(try browser.find("button#save")))
        #expect(
            try browser.waitUntil(10, "return document.getElementById('editor').dataset.unsaved === 'false'"),
            "saving did not clear the marker")
        let saved = try EditorAPITests.showJSON(rig, id)
        #expect(saved["name"] as? String == "Coffee Board" && saved["primaryText"] as? String == "Coffee")
        #expect((saved["style"] as? [String: Any])?["background"] as? String == "midnight")

        // 5. Ask for an edit → one undoable step; Undo restores the saved design.
        box.current = (AssistantAPITests.answer(#"[{"field":"style.accent","value":"orange"}]"#), 0)
        before = try EditorBrowserTests.generation(browser)
        // Sent with Ctrl+Enter from the box.
        try browser.sendKeys(try #require(try browser.find("#ask-text")), "make it orange\u{E009}\u{E007}\u{E000}")
        try Self.waitForAnswer(browser, "Ask")
        try EditorBrowserTests.waitForRedraw(browser, after: before, "Ask")
        #expect(try Self.text(browser, "assistant-changes") == "style.accent: blue → orange")
        #expect(
            try browser.execute("return document.querySelector('[data-field=\"style.accent\"] input:checked').value")
                as? String == "orange")
        #expect(try browser.execute("return document.getElementById('editor').dataset.unsaved") as? String == "true")
        #expect(try browser.execute("return document.getElementById('undo').disabled") as? Bool == false)
        before = try EditorBrowserTests.generation(browser)
        try browser.click(try #require(try browser.find("button#undo")))
        try EditorBrowserTests.waitForRedraw(browser, after: before, "Undo")
        #expect(
            try browser.waitUntil(5, "return document.getElementById('editor').dataset.unsaved === 'false'"),
            "Undo did not restore the saved design")
        #expect(
            try browser.execute("return document.querySelector('[data-field=\"style.accent\"] input:checked').value")
                as? String == "blue")
        #expect(try Self.text(browser, "design-title") == "Coffee Board")
        let stored = try EditorAPITests.showJSON(rig, id)
        #expect((stored["style"] as? [String: Any])?["accent"] as? String == "blue", "Ask saved the design")
    }
}
