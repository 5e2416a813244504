import Foundation
import TestSupport
import Testing

/// The mixer page's texture controls (rows of the mix table) in a real headless Chromium against a
/// real player on a private PulseAudio: choosing a texture changes the player's mix, a change made
/// elsewhere moves the page's controls, and the API refuses what the table does not allow.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct MixerTextureBrowserTests {
    static func layer1(_ status: [String: Any]) -> [String: Any]? {
        (status["layers"] as? [[String: Any]])?.first
    }

    @Test func choosingATextureOnThePageChangesThePlayersMix() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let player = try rig.playSleep()
        defer { _ = player.waitForExit(0.1) }
        try rig.startServer()

        let browser = try rig.connectedBrowser()
        defer { browser.quit() }
        let select = #"select[data-layer="1"][data-param="texture"]"#
        let density = #"input[data-layer="1"][data-param="densityPerSecond"]"#
        let brightness = #"input[data-layer="1"][data-param="brightness"]"#
        func disabled(_ css: String) throws -> Bool? {
            try browser.execute("return document.querySelector('\(css)').disabled") as? Bool
        }
        // The sleep preset makes noise: density and brightness do not apply yet.
        #expect(try browser.execute("return document.querySelector('\(select)').value") as? String == "noise")
        #expect(try disabled(density) == true && disabled(brightness) == true)

        // 1. Choosing drops (as a person's choice fires `change`) reaches the player.
        _ = try browser.execute(
            "const s = document.querySelector('\(select)'); s.value = 'drops';"
                + " s.dispatchEvent(new Event('change', { bubbles: true })); return true;")
        let drops = rig.waitForStatus(5) { Self.layer1($0)?["texture"] as? String == "drops" }
        #expect(drops != nil, "layer 1 did not turn to drops: \(rig.status() ?? [:])")
        #expect(try disabled(density) == false && disabled(brightness) == true, "density applies to drops")

        // 2. The density slider, moved with the keyboard, sets the player's density.
        let slider = try #require(try browser.find(density))
        try browser.sendKeys(slider, String(repeating: "\u{E014}", count: 4))  // ArrowRight × 4, step 0.5
        let dense = rig.waitForStatus(5) { ((Self.layer1($0)?["densityPerSecond"] as? Double) ?? 0) == 42 }
        #expect(dense != nil, "density did not follow the slider: \(rig.status().flatMap(Self.layer1) ?? [:])")

        // 3. A change made elsewhere moves the page's select and enables brightness.
        #expect(try rig.noise(["set", "--layer", "1", "--texture", "crackle", "--brightness", "0.7"]).status == 0)
        #expect(
            try browser.waitUntil(5, "return document.querySelector('\(select)').value === 'crackle'"),
            "the texture select did not follow noise set")
        #expect(try browser.waitUntil(5, "return document.querySelector('\(brightness)').value === '0.7'"))
        #expect(try disabled(brightness) == false)
        // A density suits both textures: the player keeps 42, and so does the page.
        #expect(try browser.execute("return document.querySelector('\(density)').value") as? String == "42")

        // 4. The API takes only the table's choices and ranges, naming them.
        let token = try rig.token()
        let bad = try rig.post("/api/mixer", #"{"layer":1,"param":"texture","value":"hail"}"#, token: token)
        #expect(bad.status == 400 && bad.text.contains("noise, drops, crackle"), "\(bad.text)")
        let tooDense = try rig.post("/api/mixer", #"{"layer":1,"param":"densityPerSecond","value":401}"#, token: token)
        #expect(tooDense.status == 400 && tooDense.text.contains("allowed: 0.5…400 per second"), "\(tooDense.text)")
        let noise = try rig.post("/api/mixer", #"{"layer":1,"param":"texture","value":"noise"}"#, token: token)
        #expect(noise.status == 200, "\(noise.text)")
        #expect(
            rig.waitForStatus(5) {
                Self.layer1($0).map { $0["texture"] == nil && $0["densityPerSecond"] == nil } == true
            }
                != nil, "layer 1 did not return to noise")
        #expect(try browser.waitUntil(5, "return document.querySelector('\(select)').value === 'noise'"))
        #expect(try disabled(density) == true && disabled(brightness) == true)
        // Crackle again, now without a density of its own: the page shows crackle's (from the page's
        // data-default-crackle, which the table's defaults wrote).
        let crackle = try rig.post("/api/mixer", #"{"layer":1,"param":"texture","value":"crackle"}"#, token: token)
        #expect(crackle.status == 200, "\(crackle.text)")
        #expect(try browser.waitUntil(5, "return document.querySelector('\(density)').value === '8'"))
        #expect(try disabled(density) == false && disabled(brightness) == false)
        #expect(try rig.noise(["stop"]).status == 0)
    }
}
