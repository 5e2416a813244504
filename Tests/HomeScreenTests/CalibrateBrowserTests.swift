import Foundation
import TestSupport
import Testing

/// Noise → Calibrate in a real headless Chromium against `weaver serve` and a real player on a private
/// PulseAudio null sink: a calibration run by mouse (stopped and resumed on the way) and one by keyboard
/// alone each write the output's profile, which `noise play --hearing auto` then applies; two sinks keep
/// two profiles; the API refuses bad input naming the field and its range.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct CalibrateBrowserTests {
    /// Bands 63 Hz–12.5 kHz (HearingCalibration.standardCentresHz).
    static let bandCount = 24
    static let retest = 2

    static func shoot(_ browser: WebDriver, _ name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["WIDGETWEAVER_SCREENSHOT_DIR"] else { return }
        try browser.devTools(
            "Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "light"]]])
        _ = try browser.waitUntil(10, "return [...document.images].every(i => i.complete)")
        try browser.screenshotPNG().write(to: URL(fileURLWithPath: dir).appendingPathComponent("\(name).png"))
    }

    /// The number of presses a band gets: a pattern the profile must show (0 at 1 kHz, the reference).
    static func presses(_ hz: Double) -> Int {
        hz == 1000 ? 0 : [-3, -1, 2, 4, 1][Int(log2(hz / 63) * 3) % 5]
    }

    static func profile(_ rig: ServeRig, device: String) -> [String: Any]? {
        let url = rig.store.appendingPathComponent("hearing/\(device).json")
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    static func step(_ browser: WebDriver) throws -> (hz: Double, pass: Int)? {
        let s = try browser.execute("const r = document.getElementById('run'); return r.hidden ? '' : r.dataset.step")
        let p = try browser.execute("return document.getElementById('run').dataset.pass")
        guard let text = s as? String, let hz = Double(text) else { return nil }
        return (hz, Int(p as? String ?? "") ?? 0)
    }

    /// Waits until the page shows a step other than `previous` (or the run ended: nil).
    static func nextStep(_ browser: WebDriver, after previous: (hz: Double, pass: Int)) throws -> (
        hz: Double, pass: Int
    )? {
        let moved = try browser.waitUntil(
            10,
            """
            const r = document.getElementById('run');
            return r.hidden || r.dataset.step !== '\(number(previous.hz))' || r.dataset.pass !== '\(previous.pass)';
            """)
        #expect(moved, "the page stayed on \(previous)")
        return try step(browser)
    }

    /// The gain the page shows, in whole dB.
    static func gain(_ browser: WebDriver) throws -> Int {
        let text = try browser.execute("return document.getElementById('run-gain').textContent") as? String ?? ""
        return Int(text.replacingOccurrences(of: "\u{2212}", with: "-").split(separator: " ").first ?? "") ?? 0
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// Gains the first pass answered by `presses`, checked against the stored profile: bands answered
    /// once equal their presses exactly; retested ones average the two answers.
    static func checkProfile(_ rig: ServeRig, device: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let p = profile(rig, device: device) else {
            Issue.record("no profile of \(device)", sourceLocation: sourceLocation)
            return
        }
        #expect(p["complete"] as? Bool == true, "\(p)", sourceLocation: sourceLocation)
        let centres = p["centresHz"] as? [Double] ?? []
        let gains = p["gainsDb"] as? [Double] ?? []
        #expect(centres.count == bandCount && gains.count == bandCount, "\(p)", sourceLocation: sourceLocation)
        #expect(p["retestSpreadDb"] is Double, "a retest pass reports its spread: \(p)", sourceLocation: sourceLocation)
        var exact = 0
        for (hz, g) in zip(centres, gains) where g == Double(presses(hz)) { exact += 1 }
        // Retested bands (`retest` of them) may differ: they average the two passes.
        #expect(exact >= bandCount - retest, "gains \(gains) for \(centres)", sourceLocation: sourceLocation)
        #expect(gains[centres.firstIndex(of: 1000) ?? 0] == 0, sourceLocation: sourceLocation)
    }

    /// `noise play --hearing auto` on `device` applies the profile: the status feed and the player's log say so.
    static func checkPlayerUses(_ rig: ServeRig, device: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        _ = try rig.noise(["stop"])
        _ = rig.waitForStatus(5) { $0["state"] as? String == "stopped" }
        let player = try Spawned(
            "noise", ["play", "--preset", "sleep", "--fade-in", "0", "--hearing", "auto", "--device", device],
            environment: rig.env)
        defer {
            _ = try? rig.noise(["stop"])
            _ = player.waitForExit(5)
        }
        #expect(
            player.waitForStderr(10) { $0.contains("Playing") }, "\(player.stderrText)", sourceLocation: sourceLocation)
        #expect(
            player.stderrText.contains("Hearing correction: the profile of \(device) (\(bandCount) bands)"),
            "\(player.stderrText)", sourceLocation: sourceLocation)
        let status = rig.waitForStatus(5) { $0["hearing"] as? String == "the profile of \(device)" }
        #expect(status != nil, "status: \(rig.status() ?? [:])", sourceLocation: sourceLocation)
        let json = try rig.noise(["status", "--json"])
        #expect(
            json.stdoutText.contains("\"hearing\" : \"the profile of \(device)\"")
                || json.stdoutText.contains("\"hearing\":\"the profile of \(device)\""), "\(json.stdoutText)",
            sourceLocation: sourceLocation)
    }

    @Test func aCalibrationByMouseStopsResumesAndWritesTheProfileThePlayerUses() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let player = try rig.playSleep()
        defer { _ = player.waitForExit(0.1) }
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try browser.setWindowSize(width: 900, height: 1500)
        try browser.navigate(rig.origin + "/noise/calibrate")
        // The output in use (the player's null sink) is chosen.
        #expect(try browser.waitUntil(10, "return document.getElementById('calibrate-device').value === 'test'"))
        _ = try browser.execute("document.getElementById('calibrate-retest').value = '\(Self.retest)'; return true")
        try browser.click(try #require(try browser.find("#calibrate-go")))
        #expect(try browser.waitUntil(10, "return !document.getElementById('run').hidden"))
        // The player's noise is paused while the bands play.
        #expect(rig.waitForStatus(5) { $0["state"] as? String == "paused" } != nil, "\(rig.status() ?? [:])")
        // The bands play through PulseAudio, the player's noise paused: the null sink's monitor is not silent
        // (a third-octave band at the reference's level and master 0.6 measures about -66 dBFS RMS here).
        let recorder = try rig.pulse.record(to: rig.pulse.directory.appendingPathComponent("bands.wav"))
        recorder.waitForAudio(1.5)  // the recording's length: 1.5 s of the bands
        let wav = try recorder.stop()
        let samples = wav.channels.first ?? []
        let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(samples.count, 1))).squareRoot()
        #expect(samples.count > 24000 && rms > 1e-4, "\(samples.count) frames, RMS \(rms)")

        var current = try #require(try Self.step(browser))
        /// Clicks the band from where it starts (0, or off centre on the second pass) to its pattern's gain.
        func answer() throws {
            let delta = Self.presses(current.hz) - (try Self.gain(browser))
            let button = try #require(try browser.find(delta < 0 ? "#run-softer" : "#run-louder"))
            for _ in 0..<abs(delta) { try browser.click(button) }
            try browser.click(try #require(try browser.find("#run-same")))
        }
        // Five answers, then "Save and stop": an unfinished profile of five bands.
        for _ in 0..<5 {
            try answer()
            current = try #require(try Self.nextStep(browser, after: current))
        }
        try browser.click(try #require(try browser.find("#run-stop")))
        #expect(try browser.waitUntil(10, "return document.getElementById('run').hidden"))
        let partial = try #require(Self.profile(rig, device: "test"))
        #expect(partial["complete"] as? Bool == false && (partial["centresHz"] as? [Double])?.count == 5, "\(partial)")
        #expect(rig.waitForStatus(5) { $0["state"] as? String == "playing" } != nil, "the player resumes")
        try Self.shoot(browser, "hearing-calibrate-unfinished")

        // A reload and Start resume where it stopped.
        try browser.navigate(rig.origin + "/noise/calibrate")
        #expect(try browser.waitUntil(10, "return document.getElementById('calibrate-device').value === 'test'"))
        _ = try browser.execute("document.getElementById('calibrate-retest').value = '\(Self.retest)'; return true")
        try browser.click(try #require(try browser.find("#calibrate-go")))
        #expect(try browser.waitUntil(10, "return !document.getElementById('run').hidden"))
        #expect(
            try browser.waitUntil(
                5, "return document.getElementById('calibrate-message').textContent.includes('Resuming')"))
        current = try #require(try Self.step(browser))
        try Self.shoot(browser, "hearing-calibrate")
        var answers = 5
        while true {
            try answer()
            answers += 1
            guard let next = try Self.nextStep(browser, after: current) else { break }
            current = next
            #expect(answers < 40, "the run does not end")
            if answers >= 40 { return }
        }
        #expect(answers == Self.bandCount + Self.retest)
        let message = try browser.execute("return document.getElementById('calibrate-message').textContent") as? String
        #expect(message?.contains("Test-retest spread") == true, "\(message ?? "")")
        Self.checkProfile(rig, device: "test")
        // The chart of the saved profile.
        #expect(
            try browser.waitUntil(
                10,
                "const c = document.getElementById('profile-chart');"
                    + " return !c.hidden && c.complete && c.naturalWidth > 0"
            ))
        try Self.shoot(browser, "hearing-profile")
        let svg = try RawHTTP.send(port: rig.port, path: "/noise/calibrate/chart.svg?device=test")
        #expect(svg.status == 200 && svg.text.contains("<polyline") && svg.text.contains("Hearing profile of test"))

        try Self.checkPlayerUses(rig, device: "test")
    }

    @Test func aCalibrationByKeyboardAloneOnASecondSinkKeepsTwoProfiles() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let loaded = try rig.pulse.run(
            "/usr/bin/pactl", ["load-module", "module-null-sink", "sink_name=second", "rate=48000"])
        #expect(loaded.status == 0, "\(loaded.stderrText)")
        // A profile of the first sink already stored: the second sink's calibration must leave it alone.
        let first = """
            {"schemaVersion":1,"device":"test","mode":"loudness","complete":true,\
            "centresHz":[63,1000,12500],"gainsDb":[6,0,-3]}
            """
        let folder = rig.store.appendingPathComponent("hearing")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(first.utf8).write(to: folder.appendingPathComponent("test.json"))
        let browser = try rig.startServerAndBrowser()
        defer { browser.quit() }
        try browser.navigate(rig.origin + "/noise/calibrate")
        #expect(try browser.waitUntil(10, "return document.getElementById('calibrate-device').options.length === 2"))
        // Keyboard alone: Tab to the output list, pick the second sink, Tab on to the retest count, type it,
        // Tab to Start, Enter.
        func tabTo(_ id: String) throws {
            for _ in 0..<60 {
                if try browser.execute("return document.activeElement.id") as? String == id { return }
                try browser.press(["\u{E004}"])
            }
            Issue.record("Tab never reached #\(id)")
        }
        try tabTo("calibrate-device")
        for _ in 0..<2 where try browser.execute("return document.activeElement.value") as? String != "second" {
            try browser.press(["\u{E015}"])  // ArrowDown
        }
        #expect(try browser.execute("return document.activeElement.value") as? String == "second")
        try tabTo("calibrate-retest")
        try browser.press(["\u{E003}"])  // Backspace over "6"
        try browser.press(["\(Self.retest)"])
        try tabTo("calibrate-go")
        try browser.press(["\u{E007}"])  // Enter
        #expect(try browser.waitUntil(10, "return !document.getElementById('run').hidden"))
        #expect(try browser.execute("return document.getElementById('run-device').textContent") as? String == "second")

        var current = try #require(try Self.step(browser))
        var answers = 0
        while answers < 40 {
            let start = try Self.gain(browser)
            let target = Self.presses(current.hz)
            let delta = target - start
            // Up and Right louder, Down and Left softer: both pairs used.
            let key =
                delta > 0 ? (answers % 2 == 0 ? "\u{E013}" : "\u{E014}") : (answers % 2 == 0 ? "\u{E015}" : "\u{E012}")
            for _ in 0..<abs(delta) { try browser.press([key]) }
            #expect(
                try browser.waitUntil(
                    5,
                    "return parseInt(document.getElementById('run-gain').textContent.replace('\u{2212}', '-'))"
                        + " === \(target)"
                ),
                "the gain did not reach \(target) at \(current)")
            try browser.press(["\u{E007}"])
            answers += 1
            guard let next = try Self.nextStep(browser, after: current) else { break }
            current = next
        }
        #expect(answers == Self.bandCount + Self.retest)
        // The second pass: keys from an off-centre start reach the same answers, so the spread is 0.
        let second = try #require(Self.profile(rig, device: "second"))
        #expect(second["retestSpreadDb"] as? Double == 0, "\(second)")
        Self.checkProfile(rig, device: "second")
        // The first sink's profile is untouched: two sinks, two profiles.
        let kept = try #require(Self.profile(rig, device: "test"))
        #expect(kept["gainsDb"] as? [Double] == [6, 0, -3], "\(kept)")

        // The API names the field and the range.
        let token = try rig.token()
        let loud = try rig.post(
            "/api/hearing/calibration/start", #"{"device":"second","level":0.95}"#, token: token)
        #expect(loud.status == 400 && loud.text.contains("'level'") && loud.text.contains("0.1…0.9"), "\(loud.text)")
        let nowhere = try rig.post("/api/hearing/calibration/start", #"{"device":"nowhere"}"#, token: token)
        #expect(nowhere.status == 400 && nowhere.text.contains("test, second"), "\(nowhere.text)")
        let idle = try rig.post("/api/hearing/calibration/gain", #"{"gainDb":3}"#, token: token)
        #expect(idle.status == 409, "\(idle.text)")
        let started = try rig.post(
            "/api/hearing/calibration/start", #"{"device":"second","restart":true,"retest":0}"#, token: token)
        #expect(started.status == 200, "\(started.text)")
        let tooLoud = try rig.post("/api/hearing/calibration/gain", #"{"gainDb":13}"#, token: token)
        #expect(tooLoud.status == 400 && tooLoud.text.contains("allowed -40…12 dB"), "\(tooLoud.text)")
        let noToken = try rig.post("/api/hearing/calibration/stop", "{}", token: nil)
        #expect(noToken.status == 403, "\(noToken.text)")
        let stopped = try rig.post("/api/hearing/calibration/stop", "{}", token: token)
        #expect(stopped.status == 200, "\(stopped.text)")

        try Self.checkPlayerUses(rig, device: "second")
    }
}
