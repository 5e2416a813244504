import Foundation
import NoiseEngine
import TestSupport
import Testing

/// The Noise page's board of sounds in a real headless Chromium against a real `weaver serve` and a real
/// player (started from the page) on a private PulseAudio: what a person does, checked in the page, in
/// `noise status --json` and in `noise presets`. Photographed (light, dark, phone) when
/// `WIDGETWEAVER_SCREENSHOT_DIR` is set (docs/noise-board-*.png; docs/noise-shared-link.png is the
/// shared-link shot, noise-shared-link-dark.png, renamed).
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct SoundBoardBrowserTests {
    static func card(_ id: String) -> String { #".sound-card[data-sound="\#(id)"]"# }

    static func pressed(_ browser: WebDriver) throws -> [String] {
        try browser.execute(
            """
            return [...document.querySelectorAll('.sound-card')].filter((c) => \
            c.querySelector('.sound-toggle').getAttribute('aria-pressed') === 'true').map((c) => c.dataset.sound)
            """
        ) as? [String] ?? []
    }

    static func tap(_ browser: WebDriver, _ id: String) throws {
        let button = try #require(try browser.find(card(id) + " .sound-toggle"), "no card \(id)")
        try browser.click(button)
    }

    static func waitForPressed(_ browser: WebDriver, _ ids: Set<String>) throws -> Bool {
        let list = ids.sorted().map { "'\($0)'" }.joined(separator: ",")
        return try browser.waitUntil(
            10,
            """
            const p = [...document.querySelectorAll('.sound-toggle[aria-pressed="true"]')]
              .map((b) => b.closest('.sound-card').dataset.sound).sort();
            return JSON.stringify(p) === JSON.stringify([\(list)]);
            """)
    }

    /// The player's layers that play, as mix layers.
    static func playingLayers(_ status: [String: Any]) throws -> [Mix.Layer] {
        let layers = (status["layers"] as? [[String: Any]] ?? []).filter { $0["enabled"] as? Bool == true }
        return try layers.map {
            try JSONDecoder().decode(Mix.Layer.self, from: JSONSerialization.data(withJSONObject: $0))
        }
    }

    static func key(_ layer: Mix.Layer) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(layer), as: UTF8.self)
    }

    @Test func aMixBuiltOnTheBoardIsSavedAsAPresetAndIsWhatThePlayerPlays() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.startServer()
        let browser = try rig.connectedBrowser("noise")
        defer { browser.quit() }
        #expect(try browser.waitUntil(10, "return document.documentElement.dataset.board === 'ready'"))
        // An empty store: the default mix, one pink layer, and no player.
        #expect(try Self.pressed(browser) == ["pink"])
        #expect(try browser.execute("return document.getElementById('advanced').open") as? Bool == false)

        // 1. A tap with no player edits the Last Mix; Play starts a player with it.
        try Self.tap(browser, "drops")
        #expect(try Self.waitForPressed(browser, ["pink", "drops"]))
        try browser.click(try #require(try browser.find("#board-play")))
        let started = rig.waitForStatus(15) { $0["state"] as? String == "playing" }
        #expect(started != nil, "no player started: \(rig.status() ?? [:])")
        #expect(try browser.waitUntil(10, "return document.getElementById('board-play').textContent === 'Pause'"))

        // 2. Two more taps go to the running player: one with the keyboard (Space on the card's button).
        try browser.sendKeys(try #require(try browser.find(Self.card("brown") + " .sound-toggle")), " ")
        try Self.tap(browser, "crackle")
        #expect(try Self.waitForPressed(browser, ["pink", "drops", "brown", "crackle"]))
        #expect(
            rig.waitForStatus(5) { ((try? Self.playingLayers($0)) ?? []).count == 4 } != nil,
            "the player has not four layers: \(rig.status() ?? [:])")

        // 3. A fifth asks which to replace; the one chosen goes.
        try Self.tap(browser, "white")
        #expect(try browser.waitUntil(5, "return !document.getElementById('replace').hidden"))
        let choices =
            try browser.execute(
                "return [...document.querySelectorAll('#replace-choices button')].map((b) => b.textContent)")
            as? [String]
        #expect(choices?.count == 4 && choices?.first?.hasPrefix("Replace Pink") == true, "\(choices ?? [])")
        #expect(try browser.execute("return document.activeElement.dataset.replaceLayer") as? String == "1")
        try Self.shootOne(browser, "noise-board-replace")
        try browser.click(try #require(try browser.find(#"#replace-choices button[data-replace-layer="1"]"#)))
        #expect(try Self.waitForPressed(browser, ["white", "drops", "brown", "crackle"]))
        #expect(try browser.waitUntil(5, "return document.getElementById('replace').hidden"))

        // 4. One slider, moved with the keyboard (ArrowLeft × 10, step 0.01): drops from 80% to 70%.
        let slider = try #require(try browser.find(Self.card("drops") + " .sound-volume"))
        try browser.sendKeys(slider, String(repeating: "\u{E012}", count: 10))
        let quieter = rig.waitForStatus(5) { s in
            ((try? Self.playingLayers(s)) ?? []).contains { $0.texture == .drops && abs($0.volume - 0.7) < 0.001 }
        }
        #expect(quieter != nil, "drops did not follow its slider: \(rig.status() ?? [:])")

        // 5. Save as preset.
        let name = try #require(try browser.find("#preset-name"))
        try browser.sendKeys(name, "Night Board")
        try browser.click(try #require(try browser.find(#"#save-preset button[type="submit"]"#)))
        #expect(try browser.waitUntil(5, #"return !!document.querySelector('[data-preset="night-board"]')"#))

        // 6. Reload: the preset is there (and is the mix's), the board shows the same mix.
        try browser.navigate(rig.url + "noise")
        #expect(try browser.waitUntil(10, "return document.documentElement.dataset.board === 'ready'"))
        #expect(
            try browser.execute(#"return document.querySelector('[data-preset="night-board"]').textContent"#)
                as? String == "Night Board")
        #expect(
            try browser.execute(
                #"return document.querySelector('[data-preset="night-board"]').getAttribute('aria-pressed')"#)
                as? String == "true")
        #expect(try Self.waitForPressed(browser, ["white", "drops", "brown", "crackle"]))
        let presets = try rig.noise(["presets"])
        #expect(presets.stdoutText.contains("night-board") && presets.stdoutText.contains("Night Board (yours)"))

        // 7. The player plays what the board shows: each pressed card's sound at its slider's volume.
        let sounds = try #require(
            try RawHTTP.send(port: rig.port, path: "/api/board").json()?["sounds"] as? [[String: Any]])
        var expected: [String] = []
        for id in try Self.pressed(browser) {
            let definition = try #require(sounds.first { $0["id"] as? String == id }?["layer"])
            var layer = try JSONDecoder().decode(
                Mix.Layer.self, from: JSONSerialization.data(withJSONObject: definition))
            let value = try browser.execute("return document.querySelector('\(Self.card(id)) .sound-volume').value")
            layer.volume = Double(value as? String ?? "") ?? -1
            expected.append(try Self.key(layer))
        }
        let status = try rig.noise(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
        let playing = try Self.playingLayers(object).map(Self.key)
        #expect(playing.sorted() == expected.sorted(), "noise status: \(playing)\nboard: \(expected)")

        try shoot(browser)
        #expect(try rig.noise(["stop"]).status == 0)
    }

    /// No CSS transition is running (a change of colour scheme starts the icons' 0.15 s ones; asking
    /// for the animations brings the styles up to date first, so a transition just set off is seen).
    static let transitionsDone =
        "return document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState === 'finished')"

    /// The window as it is, in dark, when `WIDGETWEAVER_SCREENSHOT_DIR` is set.
    static func shootOne(_ browser: WebDriver, _ name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] else { return }
        try browser.devTools(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
        _ = try browser.waitUntil(5, Self.transitionsDone)  // the icons' 0.15 s colour transition
        _ = try browser.waitUntil(5, EditorBrowserTests.twoFramesPainted)
        try browser.screenshotPNG().write(to: URL(fileURLWithPath: dir).appendingPathComponent("\(name)-dark.png"))
    }

    /// docs/noise-board-{light,dark}.png at 1280 wide and docs/noise-board-phone-{light,dark}.png at 390.
    func shoot(_ browser: WebDriver) throws {
        guard let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] else { return }
        _ = try browser.execute("window.scrollTo(0, 0); document.activeElement.blur(); return true;")
        for (scheme, width, height, suffix) in [
            ("light", 1280, 1250, ""), ("dark", 1280, 1250, ""), ("light", 390, 1700, "-phone"),
            ("dark", 390, 1700, "-phone"),
        ] {
            try browser.devTools(
                "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
            try browser.setWindowSize(width: width, height: height)
            _ = try browser.waitUntil(5, "return window.outerWidth === \(width)")
            _ = try browser.waitUntil(5, Self.transitionsDone)  // the icons' 0.15 s colour transition, as above
            _ = try browser.waitUntil(5, EditorBrowserTests.twoFramesPainted)
            try browser.screenshotPNG().write(
                to: URL(fileURLWithPath: dir).appendingPathComponent("noise-board\(suffix)-\(scheme).png"))
        }
    }

    @Test func aLinkFromNoiseShareOpensShowsTheMixAndPlaysItOnlyWhenAsked() throws {
        // The link is made from another store, as a friend would send it.
        let other = try Products.temporaryDirectory("other-store")
        defer { try? FileManager.default.removeItem(at: other) }
        let made = try Products.run(
            "noise", ["share", "--preset", "rain", "--no-qr"], environment: ["WIDGETWEAVER_HOME": other.path])
        #expect(made.status == 0, "\(made.stderrText)")
        let link = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let fragment = String(try #require(link.split(separator: "#", maxSplits: 1).last))

        let rig = try ServeRig()
        defer { rig.stop() }
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try browser.navigate(rig.url + "noise#" + fragment)
        #expect(try browser.waitUntil(10, "return !document.getElementById('shared-mix').hidden"))
        #expect(try browser.execute("return document.getElementById('shared-name').textContent") as? String == "Rain")
        let listed =
            try browser.execute(
                "return document.querySelectorAll('#shared-layers li').length") as? Int
        #expect(listed == 1)  // rain: one statistical texture (its patter, taps and rings)
        try Self.shootOne(browser, "noise-shared-link")
        // Shown, not played.
        // That it does not play is the check: a quiet window has to pass.
        #expect(
            throughout(1) { rig.status()?["state"] as? String != "playing" }, "the link played before it was asked to")

        try browser.click(try #require(try browser.find("#shared-play")))
        let playing = rig.waitForStatus(15) { $0["state"] as? String == "playing" }
        #expect(playing != nil, "the shared mix did not play")
        // The same mix after the round trip: the preset file's, layer for layer, and its master.
        let preset = try Mix.load(
            path: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Presets/rain.json").path)
        let status = try rig.noise(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
        let layers = try Self.playingLayers(object)
        #expect(try layers.map(Self.key) == preset.layers.map(Self.key), "\(status.stdoutText)")
        #expect(object["masterVolume"] as? Double == preset.masterVolume, "\(status.stdoutText)")

        // A link altered on its way (one character of the payload) is refused with ShareLinks' words.
        var tampered = Array(fragment)
        tampered[12] = tampered[12] == "A" ? "B" : "A"
        try browser.navigate(rig.url + "noise#" + String(tampered))
        #expect(try browser.waitUntil(10, "return !document.getElementById('shared-error').hidden"))
        let error = try browser.execute("return document.getElementById('shared-error').textContent") as? String ?? ""
        #expect(error.contains("the link is damaged"), "\(error)")
        #expect(try browser.execute("return document.getElementById('shared-mix').hidden") as? Bool == true)
        // Pasted: one too long is refused by its length.
        let input = try #require(try browser.find("#link-input"))
        _ = try browser.execute(
            "document.getElementById('link-input').value = arguments[0]; return true;",
            [link + String(repeating: "A", count: 2001 - link.count)])
        try browser.click(try #require(try browser.find(#"#open-link button[type="submit"]"#)))
        #expect(
            try browser.waitUntil(
                5, "return /a share link is at most 2000/.test(document.getElementById('shared-error').textContent)"))
        _ = input
        #expect(try rig.noise(["stop"]).status == 0)
    }
}
