import Foundation
import TestSupport
import Testing
import WidgetRender

/// The Editor's per-size tools in a real headless Chromium against a real `weaver serve`: a crop
/// rectangle dragged over the photo, a matched set's small-only text, texts redrawn while typed,
/// light widgets with their swatches, and the Actions group said to need Pro.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct EditorSizesBrowserTests {
    typealias B = EditorBrowserTests

    static func open(_ rig: ServeRig, _ browser: WebDriver, _ id: String) throws {
        try browser.setWindowSize(width: 1280, height: 800)
        try browser.navigate(rig.url + "editor/" + id)
        #expect(
            try browser.waitUntil(
                15,
                """
                return document.getElementById('editor').dataset.ready === 'true' && \
                Number(document.querySelector('.dock').dataset.generation || 0) > 0
                """
            ), "the editor did not open")
    }

    /// A running `weaver serve` with Pro unlocked and a design named "Sizes", and a browser (the size
    /// tools' set-up, here and in LayoutBrowserTests). The caller stops the rig and quits the browser.
    static func proDesignAndBrowser() throws -> (rig: ServeRig, id: String, browser: WebDriver) {
        let rig = try ServeRig()
        do {
            #expect(try rig.weaver(["pro", "unlock"]).status == 0)
            let id = try EditorAPITests.makeDesign(rig, name: "Sizes")
            try rig.startServer()
            return (rig, id, try WebDriver())
        } catch {
            rig.stop()
            throw error
        }
    }

    static func pixelScale(_ browser: WebDriver) throws -> String {
        try browser.execute("return String(Math.min(3, Math.max(1, Math.round(window.devicePixelRatio || 1))))")
            as? String ?? "1"
    }

    /// `weaver render` of the saved design at the dock's density.
    static func rendered(_ rig: ServeRig, _ id: String, _ family: String, scale: String, _ extra: [String] = [])
        throws -> Data
    {
        let out = rig.store.deletingLastPathComponent().appendingPathComponent("\(family).png")
        let r = try rig.weaver(["render", id, "--family", family, "--scale", scale, "-o", out.path] + extra)
        #expect(r.status == 0, "\(r.stderrText)")
        return try Data(contentsOf: out)
    }

    @Test func dragTheMediumCropAndOnlyTheMediumPreviewChanges() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Photo")
        let photo = rig.store.deletingLastPathComponent().appendingPathComponent("photo.jpg")
        try Data(try EditorSizesAPITests.photo()).write(to: photo)
        // The medium crop starts as the photo's top-left quarter, set as `weaver designs set` sets it.
        let set = try rig.weaver([
            "designs", "set", id, "image=\(photo.path)", "image.crop.medium.width=0.5", "image.crop.medium.height=0.5",
        ])
        #expect(set.status == 0, "\(set.stderrText)")
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try Self.open(rig, browser, id)

        // Without Pro the Actions group is shown, marked Pro, with the reason beside its controls,
        // which cannot be used; the matched set (none here) is not shown.
        #expect(
            try browser.execute(
                """
                const g = document.querySelector('fieldset.group[data-group="Actions"]');
                const r = g.querySelector('[data-pro-reason]');
                return !g.hidden && !!g.querySelector('legend .pro') && !r.hidden && /need Pro/.test(r.textContent)
                  && g.querySelector('[data-field="actions[0].kind"]').disabled;
                """) as? Bool == true, "the Actions group does not say it needs Pro")
        #expect(
            try browser.execute("return document.querySelector('fieldset.group[data-group=\"Matched set\"]').hidden")
                as? Bool == true)

        let rect = try #require(try browser.find(#"[data-crop-rect="medium"]"#))
        #expect(
            try browser.waitUntil(
                5, "return document.querySelector('.crop-editor[data-crop-family=\"medium\"] img').naturalWidth > 0"),
            "the photo is not shown under the crop rectangle")
        let smallBefore = try B.dockPicture(browser, "small")
        let mediumBefore = try B.dockPicture(browser, "medium")
        let before = try B.generation(browser)
        let frameWidth =
            try browser.execute(
                "return document.querySelector('.crop-editor[data-crop-family=\"medium\"] .crop-frame').clientWidth")
            as? Int ?? 0
        #expect(frameWidth > 100)
        try browser.drag(rect, dx: frameWidth / 4, dy: frameWidth / 8)
        try B.waitForRedraw(browser, after: before, "dragging the medium crop")
        let x = Double(try B.value(browser, "image.crop.medium.x")) ?? 0
        #expect(abs(x - 0.25) < 0.03, "the crop's x after dragging a quarter of the photo's width: \(x)")
        #expect(try B.value(browser, "image.crop.medium.width") == "0.5", "dragging resized the rectangle")
        #expect(try B.dockPicture(browser, "medium") != mediumBefore, "the medium preview did not change")
        #expect(try B.dockPicture(browser, "small") == smallBefore, "the small preview changed")

        // The keyboard moves it too (one edit once the keys stop).
        let yBefore = Double(try B.value(browser, "image.crop.medium.y")) ?? -1
        let beforeKeys = try B.generation(browser)
        _ = try browser.execute("document.querySelector('[data-crop-rect=\"medium\"]').focus(); return true;")
        try browser.press(["\u{E015}"])  // ArrowDown
        try browser.press(["\u{E015}"])
        try B.waitForRedraw(browser, after: beforeKeys, "moving the crop with the keyboard")
        let yAfter = Double(try B.value(browser, "image.crop.medium.y")) ?? -1
        #expect(abs(yAfter - yBefore - 0.02) < 1e-6, "two ArrowDown keys moved the crop from \(yBefore) to \(yAfter)")

        // A picture of the crop tools for docs/editor.md.
        if let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] {
            _ = try browser.execute(
                """
                document.querySelector('.crop-editor[data-crop-family=\"medium\"] .crop-frame').scrollIntoView({ \
                block: 'center' }); return true;
                """
            )
            _ = try browser.waitUntil(5, EditorBrowserTests.twoFramesPainted)
            try browser.screenshotPNG().write(to: URL(fileURLWithPath: dir).appendingPathComponent("editor-crop.png"))
        }

        // Saved, `weaver render` draws the dock's pictures.
        try browser.click(try #require(try browser.find("button#save")))
        #expect(try browser.waitUntil(10, "return document.getElementById('editor').dataset.unsaved === 'false'"))
        let scale = try Self.pixelScale(browser)
        #expect(try B.dockPicture(browser, "medium") == Self.rendered(rig, id, "medium", scale: scale))
        #expect(try B.dockPicture(browser, "small") == Self.rendered(rig, id, "small", scale: scale))

        // Light widgets: the dock draws them as `weaver render --appearance light`, and the
        // swatches are painted in the light palette.
        let darkFace =
            try browser.execute(
                """
                return \
                document.querySelector('[data-swatch-for=\"style.background\"][data-swatch=\"plain\"]').style.background
                """
            )
            as? String ?? ""
        let beforeLight = try B.generation(browser)
        try browser.click(try #require(try browser.find("#light-widgets")))
        try B.waitForRedraw(browser, after: beforeLight, "switching to light widgets")
        #expect(
            try browser.waitUntil(5, "return document.getElementById('controls').dataset.swatchAppearance === 'light'"))
        let lightFace =
            try browser.execute(
                """
                return \
                document.querySelector('[data-swatch-for=\"style.background\"][data-swatch=\"plain\"]').style.background
                """
            )
            as? String ?? ""
        #expect(!lightFace.isEmpty && lightFace != darkFace, "the swatch stayed \(darkFace)")
        #expect(
            try B.dockPicture(browser, "medium")
                == Self.rendered(rig, id, "medium", scale: scale, ["--appearance", "light"]),
            "the light dock is not weaver render's light picture")
    }

    @Test func aSmallOnlyTextAndTypingRedrawTheDock() throws {
        let (rig, id, browser) = try Self.proDesignAndBrowser()
        defer { rig.stop() }
        defer { browser.quit() }
        try Self.open(rig, browser, id)

        // Typing: the dock redraws while the focus stays in the field, and ends with the text typed.
        let text = try #require(try browser.find(#"[data-field="primaryText"]"#))
        try browser.sendKeys(text, "\u{E009}a\u{E000}\u{E003}")
        let typed = "Typed one key at a time"
        let start = try B.generation(browser)
        for ch in typed {
            try browser.sendKeys(text, String(ch))
            usleep(40_000)  // a sleep on purpose: a person's typing pace is what this test drives
        }
        #expect(
            try browser.waitUntil(
                10,
                """
                return document.activeElement.dataset.field === 'primaryText' && \
                Number(document.querySelector('.dock').dataset.generation) > \(start)
                """
            ), "the dock did not redraw while typing")
        // Settled: the draft holds the whole text and the dock shows the draft's picture.
        #expect(
            try browser.waitUntil(
                10,
                """
                return fetch('/api/drafts/\(id)').then((r) => r.json()).then((d) => d.design.primaryText === \
                '\(typed)')
                """
            ),
            "the draft does not hold the typed text")
        let scale = try Self.pixelScale(browser)
        let fresh =
            try browser.execute(
                """
                return \
                fetch('/api/drafts/\(id)/render?family=medium&format=png&scale=\(scale)&data=live&appearance=dark',
                  { method: 'POST', headers: { 'X-WidgetWeaver-Token': \
                document.querySelector('meta[name="widgetweaver-token"]').content } })
                  .then((r) => r.arrayBuffer()).then((b) => { const u = new Uint8Array(b); let s = ''; for (const c of \
                u) s += String.fromCharCode(c); return btoa(s); });
                """) as? String ?? ""
        // The last redraw may still be arriving: wait for the dock to show the draft's picture.
        var shown = Data()
        _ = Wait.until(10, interval: 0.1) { () -> Bool? in
            shown = (try? B.dockPicture(browser, "medium")) ?? shown
            return shown == Data(base64Encoded: fresh) ? true : nil
        }
        #expect(shown.count > 1000 && shown == Data(base64Encoded: fresh), "the dock does not show the last text")

        // Matched set (Pro): a small-only primary text, drawn only in the small preview.
        #expect(
            try browser.execute("return document.querySelector('fieldset.group[data-group=\"Matched set\"]').hidden")
                as? Bool == false, "no Matched set group with Pro")
        let mediumBefore = try B.dockPicture(browser, "medium")
        let smallBefore = try B.dockPicture(browser, "small")
        var before = try B.generation(browser)
        try browser.click(try #require(try browser.find(#"[data-field="matchedSet.small"]"#)))
        try B.waitForRedraw(browser, after: before, "making a small variant")
        #expect(
            try browser.waitUntil(
                5, "return !document.querySelector('[data-field-row=\"matchedSet.small.primaryText\"]').hidden"))
        before = try B.generation(browser)
        let smallText = try #require(try browser.find(#"[data-field="matchedSet.small.primaryText"]"#))
        try browser.sendKeys(smallText, "\u{E009}a\u{E000}\u{E003}Small only\u{E004}")
        try B.waitForRedraw(browser, after: before, "typing the small text")
        #expect(
            try browser.waitUntil(
                10,
                """
                return fetch('/api/drafts/\(id)').then((r) => r.json()).then((d) => \
                d.design.matchedSet.small.primaryText === 'Small only')
                """
            ))
        // One redraw draws every size: once the small preview shows the variant, the medium one is final too.
        _ = Wait.until(10, interval: 0.1) { (try? B.dockPicture(browser, "small")) != smallBefore ? true : nil }
        #expect(try B.dockPicture(browser, "small") != smallBefore, "the small preview did not change")
        #expect(try B.dockPicture(browser, "medium") == mediumBefore, "the medium preview changed")
        try browser.click(try #require(try browser.find("button#save")))
        #expect(try browser.waitUntil(10, "return document.getElementById('editor').dataset.unsaved === 'false'"))
        #expect(try B.dockPicture(browser, "small") == Self.rendered(rig, id, "small", scale: scale))
        #expect(try B.dockPicture(browser, "medium") == Self.rendered(rig, id, "medium", scale: scale))
        let layout = try rig.weaver(["render", id, "--family", "small", "--format", "json"])
        #expect(layout.stdoutText.contains("Small only"), "weaver render --family small does not draw the small text")
        let mediumLayout = try rig.weaver(["render", id, "--family", "medium", "--format", "json"])
        #expect(mediumLayout.status == 0 && !mediumLayout.stdoutText.contains("Small only"))
    }
}
