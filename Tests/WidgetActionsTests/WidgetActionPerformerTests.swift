import Foundation
import NoiseControl
import SharedStore
import Synchronization
import TestSupport
import Testing
import WidgetActions
import WidgetDataKeys
import WidgetDesign
import WidgetRender

/// Widget buttons against real parts: a real player on a private PulseAudio server, the real
/// store files, login entries in a scratch config folder.
@Suite(.serialized) struct WidgetActionPerformerTests {
    struct Rig: StoreBackedRig {
        let server: PulseServer
        let env: [String: String]
        let store: URL
        let performer: WidgetActionPerformer

        init() throws {
            server = try PulseServer()
            store = server.directory.appendingPathComponent("store")
            let extra = TestStore(at: store).environment(
                server.environment.merging([
                    "XDG_CONFIG_HOME": server.directory.appendingPathComponent("config").path
                ]) { $1 })
            env = extra
            performer = WidgetActionPerformer(
                store: StoreRoot(url: store), storeDirectory: store.path,
                environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
                noiseExecutable: Products.url("noise"),
                now: { Date(timeIntervalSince1970: 1_795_000_000) },
                timeZone: TimeZone(identifier: "Europe/Dublin")!, autostartMethod: .xdg)
        }

        func noise(_ args: [String]) throws -> Products.Result { try Products.run("noise", args, environment: env) }

        func lastMix() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(contentsOf: store.appendingPathComponent("last-mix.json")))
                as! [String: Any]
        }

        func layersEnabled(_ s: [String: Any]) -> [Bool] {
            ((s["layers"] as? [[String: Any]]) ?? []).map { ($0["enabled"] as? Bool) ?? true }
        }
    }

    static func isAlive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

    /// The Noise widget's ±15 buttons while a sleep timer runs: drawn in medium (with their minutes in
    /// the layout JSON), and `weaver tap` on "+15" gives the running player's timer 15 minutes more, as
    /// `noise timer +15m` does; "−15" on a timer of less than 15 minutes is refused in the CLI's words.
    @Test func timerButtonsMoveTheRunningPlayersTimer() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned(
            "noise", ["play", "--preset", "sleep", "--fade-in", "0", "--timer", "20m"], environment: rig.env)
        #expect(player.waitForStderr(8) { $0.contains("Playing") }, "\(player.stderrText)")
        defer { _ = try? rig.noise(["stop"]) }
        _ = rig.waitForStatus(8) { $0["timerRemainingSeconds"] as? Double != nil }
        let widget = ["--template", "noise-machine", "--family", "medium"]
        let json = try Products.run("weaver", ["render"] + widget + ["--format", "json"], environment: rig.env)
        let layout = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any], "\(json.stderrText)")
        let actions = (layout["actions"] as? [[String: Any]]) ?? []
        let plus = try #require(actions.first { $0["id"] as? String == "noise.timer.plus15" }, "\(actions)")
        let minus = try #require(actions.first { $0["id"] as? String == "noise.timer.minus15" }, "\(actions)")
        #expect(plus["kind"] as? String == "adjustTimer" && plus["minutes"] as? Int == 15)
        #expect(minus["minutes"] as? Int == -15)
        func centre(_ a: [String: Any]) -> String {
            let r = (a["rect"] as? [String: Double]) ?? [:]
            return "\((r["x"] ?? 0) + (r["width"] ?? 0) / 2),\((r["y"] ?? 0) + (r["height"] ?? 0) / 2)"
        }
        let before = try #require(rig.waitForStatus(2) { _ in true }?["timerRemainingSeconds"] as? Double)
        let tapped = try Products.run("weaver", ["tap"] + widget + ["--at", centre(plus)], environment: rig.env)
        #expect(tapped.status == 0, "\(tapped.stderrText)")
        #expect(tapped.stdoutText.hasPrefix("Timer +15m: stops in "), "\(tapped.stdoutText)")
        let after = try #require(
            rig.waitForStatus(4) { ($0["timerRemainingSeconds"] as? Double ?? 0) > before + 800 }?[
                "timerRemainingSeconds"] as? Double, "\(tapped.stdoutText)")
        // 15 minutes more, less the seconds the tap took.
        #expect(abs(after - (before + 900)) < 10, "before \(before) s, after \(after) s")

        // Back to 5 minutes left through the CLI, then "−15" is refused as 'noise timer -15m' is.
        #expect(try rig.noise(["timer", "5m"]).status == 0)
        _ = rig.waitForStatus(4) { ($0["timerRemainingSeconds"] as? Double ?? 999) <= 300 }
        let refused = try Products.run("weaver", ["tap"] + widget + ["--at", centre(minus)], environment: rig.env)
        #expect(refused.status != 0)
        #expect(refused.stderrText.contains("would end it now; use 'noise stop' to stop"), "\(refused.stderrText)")
        let cli = try rig.noise(["timer", "-15m"])
        #expect(cli.stderrText.contains("would end it now; use 'noise stop' to stop"), "\(cli.stderrText)")
    }

    @Test func buttonsDriveTheRunningPlayer() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let player = try Spawned("noise", ["play", "--preset", "sleep", "--fade-in", "0"], environment: rig.env)
        #expect(player.waitForStderr(8) { $0.contains("Playing") }, "\(player.stderrText)")

        let paused = try rig.performer.perform(.togglePlayPause)
        #expect(paused.message == "Paused Sleep.")
        #expect(rig.waitForStatus { $0["state"] as? String == "paused" } != nil)
        let resumed = try rig.performer.perform(.togglePlayPause)
        #expect(resumed.message == "Resumed Sleep.")
        #expect(rig.waitForStatus { $0["state"] as? String == "playing" } != nil)

        // Sleep has two layers, both on: layer 2 goes off, then on again; layer 4 (absent) comes on.
        #expect(try rig.performer.perform(.toggleLayer(2)).message == "Layer 2 off.")
        #expect(rig.waitForStatus { rig.layersEnabled($0).count >= 2 && rig.layersEnabled($0)[1] == false } != nil)
        #expect(try rig.performer.perform(.toggleLayer(2)).message == "Layer 2 on.")
        #expect(rig.waitForStatus { rig.layersEnabled($0).count >= 2 && rig.layersEnabled($0)[1] == true } != nil)
        #expect(try rig.performer.perform(.toggleLayer(4)).message == "Layer 4 on.")
        #expect(rig.waitForStatus { rig.layersEnabled($0).count == 4 && rig.layersEnabled($0)[3] } != nil)
        #expect(throws: WidgetActionError.self) { try rig.performer.perform(.toggleLayer(5)) }

        #expect(try rig.performer.perform(.stop).message == "Stopped Sleep.")
        #expect(player.waitForExit(10) == 0)
        #expect(rig.waitForStatus { $0["state"] as? String == "stopped" } != nil)
        // The change made by the button outlives the player: the Last Mix has layer 4 on.
        let layers = try #require(try rig.lastMix()["mix"] as? [String: Any])["layers"] as? [[String: Any]]
        #expect(layers?.count == 4 && layers?[3]["enabled"] as? Bool == true)
        #expect(try rig.performer.perform(.stop).message == "No player is running.")
    }

    @Test func playWithNoPlayerStartsTheLastMix() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        // `noise preset` with no player makes Rain the Last Mix.
        #expect(try rig.noise(["preset", "rain"]).status == 0)
        let pressed = ContinuousClock.now
        let started = try rig.performer.perform(.togglePlayPause)
        print(
            """
            WidgetActions: togglePlayPause with no player returned after \(pressed.duration(to: .now)) (player \
            started)
            """
        )
        #expect(started.message.hasPrefix("Started Rain from the Last Mix"), "\(started)")
        let s = try #require(
            rig.waitForStatus(8) { $0["state"] as? String == "playing" && $0["presetID"] as? String == "rain" })
        let pid = try #require(s["pid"] as? Int).asInt32
        #expect(started.message.contains("pid \(pid)"))
        // It is an ordinary player: the next press pauses it, stop ends it.
        #expect(try rig.performer.perform(.togglePlayPause).message == "Paused Rain.")
        #expect(rig.waitForStatus { $0["state"] as? String == "paused" } != nil)
        #expect(try rig.performer.perform(.stop).message == "Stopped Rain.")
        _ = eventually(10) { !Self.isAlive(pid) }
        #expect(!Self.isAlive(pid), "the started player exits when stopped")
    }

    /// A fresh store (no Last Mix, no player): the widget shows the default mix, "Pink" at master
    /// 70 %, and `weaver tap` on its play button (the command in the docs) starts that mix through
    /// `noise resume`, saying so. It used to refuse: "there is no Last Mix yet".
    @Test func playWithNoLastMixStartsTheMixTheWidgetShows() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        let widget = ["--template", "noise-machine", "--family", "small"]
        let drawn = try Products.run("weaver", ["render"] + widget + ["--format", "txt"], environment: rig.env)
        #expect(drawn.stdoutText.contains("Pink") && drawn.stdoutText.contains("70%"), "\(drawn.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: rig.store.appendingPathComponent("last-mix.json").path))

        let tapped = try Products.run("weaver", ["tap"] + widget + ["--at", "36,36"], environment: rig.env)
        // Stop whatever started, even when an expectation below fails.
        defer { _ = try? rig.noise(["stop"]) }
        #expect(tapped.status == 0, "\(tapped.stderrText)")
        let s = try #require(
            rig.waitForStatus(8) { $0["state"] as? String == "playing" }, "\(tapped.stdoutText) \(tapped.stderrText)")
        let pid = try #require(s["pid"] as? Int).asInt32
        #expect(
            tapped.stdoutText
                == """
                No Last Mix yet: started the default mix, Pink at master 70% (player pid \(pid)); it is the Last \
                Mix now.\n
                """,
            "\(tapped.stdoutText)")
        // The player plays what the widget showed: LastMix.defaultMix, one pink layer at 0.8.
        #expect(s["presetName"] as? String == "Pink" && s["masterVolume"] as? Double == 0.7, "\(s)")
        let layers = (s["layers"] as? [[String: Any]]) ?? []
        #expect(
            layers.count == 1 && layers.first?["enabled"] as? Bool == true
                && layers.first?["volume"] as? Double == 0.8 && layers.first?["colour"] as? Double == 1, "\(layers)")
        #expect((try rig.lastMix()["mix"] as? [String: Any])?["name"] as? String == "Pink")
        let playing = try Products.run("weaver", ["render"] + widget + ["--format", "txt"], environment: rig.env)
        #expect(playing.stdoutText.contains("Playing") && playing.stdoutText.contains("Pink"), "\(playing.stdoutText)")

        #expect(try rig.noise(["stop"]).status == 0)
        _ = eventually(10) { !Self.isAlive(pid) }
        #expect(!Self.isAlive(pid), "the started player exits when stopped")
    }

    /// The same launcher behind `noise resume --detach` (status-bar clicks): the command returns
    /// while the player it started keeps playing.
    @Test func resumeDetachReturnsWhileThePlayerPlays() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        #expect(try rig.noise(["preset", "ocean"]).status == 0)
        let r = try rig.noise(["resume", "--detach"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.contains("in the background"))
        let s = try #require(
            rig.waitForStatus(8) { $0["state"] as? String == "playing" && $0["presetID"] as? String == "ocean" })
        let pid = try #require(s["pid"] as? Int).asInt32
        #expect(Self.isAlive(pid))
        #expect(try rig.noise(["stop"]).status == 0)
        _ = eventually(10) { !Self.isAlive(pid) }
        #expect(!Self.isAlive(pid))
    }

    @Test func layerButtonsEditTheLastMixWithoutAPlayer() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        #expect(try rig.noise(["preset", "pink"]).status == 0)
        let on = try rig.performer.perform(.toggleLayer(3))
        #expect(on.message == "Layer 3 on in the Last Mix (no player is running).")
        var layers = (try rig.lastMix()["mix"] as? [String: Any])?["layers"] as? [[String: Any]] ?? []
        #expect(layers.count == 3 && layers[2]["enabled"] as? Bool == true)
        #expect(
            try rig.performer.perform(.toggleLayer(3)).message == "Layer 3 off in the Last Mix (no player is running).")
        layers = (try rig.lastMix()["mix"] as? [String: Any])?["layers"] as? [[String: Any]] ?? []
        #expect(layers[2]["enabled"] as? Bool == false)
        #expect(layers[0]["enabled"] as? Bool ?? true, "layer 1 untouched")
    }

    @Test func actionBarButtonsNeedProAndFollowTheSeedRules() throws {
        let dir = try Products.temporaryDirectory("actions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = StoreRoot(url: dir)
        let performer = WidgetActionPerformer(
            store: root, now: { Date(timeIntervalSince1970: 1_795_000_000) },
            timeZone: TimeZone(identifier: "America/New_York")!)
        let plusOne = WidgetAction(
            ActionSpec(title: "+1", kind: .incrementVariable, variableKey: "Coffee_Count", incrementAmount: 1))
        #expect(plusOne == .incrementVariable(key: "Coffee_Count", amount: 1))
        // A refusal names the button by the title it shows: its own, or a blank one's ("+1", "Done").
        let free = #expect(throws: WidgetActionError.self) { try performer.perform(plusOne) }
        #expect(free?.description.hasPrefix("the '+1' button needs Pro") == true, "\(String(describing: free))")
        let coffee = #expect(throws: WidgetActionError.self) { try performer.perform(plusOne, title: "Coffee") }
        #expect(coffee?.description.hasPrefix("the 'Coffee' button needs Pro") == true, "\(String(describing: coffee))")
        let done = #expect(throws: WidgetActionError.self) {
            try performer.perform(.setVariableToNow(key: "done", format: .iso8601))
        }
        #expect(done?.description.hasPrefix("the 'Done' button needs Pro") == true, "\(String(describing: done))")
        #expect(!FileManager.default.fileExists(atPath: root.variables.path), "nothing written without Pro")

        // Pro for these presses only ('weaver tap --pro'): performed, and the store stays locked.
        var once = performer
        once.isPro = true
        #expect(try once.perform(plusOne, title: "Coffee").message == "coffee count is now 1 (+1).")
        #expect(
            !ProEntitlement.isUnlocked(root).isUnlocked
                && !FileManager.default.fileExists(atPath: root.entitlement.path))
        #expect(try VariableStore(root: root).delete("coffee count"))

        try ProEntitlement.set(true, root: root)
        #expect(try performer.perform(plusOne).message == "coffee count is now 1 (+1).")
        #expect(
            try performer.perform(.incrementVariable(key: "coffee count", amount: 0)).message
                == "coffee count is now 2 (+1).")
        #expect(
            try performer.perform(.incrementVariable(key: "coffee count", amount: -5)).message
                == "coffee count is now -3 (-5).")
        #expect(throws: WidgetActionError.self) { try performer.perform(.incrementVariable(key: "x", amount: 100)) }
        // Text that is not a number is left alone (the seed would have reset it to 0).
        try VariableStore(root: root).set("mood", to: "sunny")
        let nan = #expect(throws: WidgetActionError.self) {
            try performer.perform(.incrementVariable(key: "mood", amount: 1))
        }
        #expect(nan?.description.contains("not a number") == true)
        #expect(try VariableStore(root: root).load()["mood"] == "sunny")

        #expect(
            try performer.perform(.setVariableToNow(key: "Last Done", format: .unixSeconds)).message
                == "last done set to 1795000000.")
        #expect(
            try performer.perform(.setVariableToNow(key: "day", format: .dateOnly)).message == "day set to 2026-11-18.")
        #expect(
            try performer.perform(.setVariableToNow(key: "time", format: .timeOnly)).message == "time set to 06:06.")
        #expect(
            try performer.perform(.setVariableToNow(key: "at", format: .iso8601)).message
                == "at set to 2026-11-18T11:06:40.000Z.")
        #expect(try VariableStore(root: root).load()["last done"] == "1795000000")

        // Reset to the design's value; the value is validated as `weaver vars set` validates it.
        #expect(
            try performer.perform(.resetVariable(key: "Coffee Count", value: "0"), title: "Reset").message
                == "coffee count reset to 0.")
        #expect(try VariableStore(root: root).load()["coffee count"] == "0")
        #expect(
            try performer.perform(.resetVariable(key: "coffee count", value: "12")).message
                == "coffee count reset to 12.")
        #expect(throws: WidgetActionError.self) { try performer.perform(.resetVariable(key: "", value: "1")) }

        #expect(
            WidgetActionKind.allCases.map(\.rawValue) == [
                "incrementVariable", "setVariableToNow", "togglePlayPause", "stop",
                "toggleLayer", "toggleResumeOnLaunch", "resetVariable", "openURL", "completeReminder", "adjustTimer",
                "playPreset",
            ])
    }

    @Test func resumeButtonTogglesTheLoginEntry() throws {
        let rig = try Rig()
        defer { rig.server.stop() }
        #expect(try rig.noise(["preset", "ocean"]).status == 0)
        let desktop = rig.server.directory.appendingPathComponent("config/autostart/widgetweaver-noise.desktop")
        let on = try rig.performer.perform(.toggleResumeOnLaunch)
        #expect(on.message == "Resume at login is on (\(desktop.path)).")
        let entry = try String(contentsOf: desktop, encoding: .utf8)
        #expect(entry.contains(Products.url("noise").path) && entry.contains("\"resume\" \"--if-enabled\""))
        #expect(entry.contains("--store"))
        #expect(try rig.lastMix()["resumeOnLaunch"] as? Bool == true)
        // The entry's command line works as written: run it (the mix was not playing, so it exits 0).
        let exec = try #require(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        let words = exec.dropFirst(5).split(separator: " ").map { String($0).replacingOccurrences(of: "\"", with: "") }
        #expect(words.contains("--store"))
        let login = try ChildProcess(words[0], Array(words.dropFirst()), environment: rig.env)
        #expect(login.wait() == 0, "\(String(decoding: login.stderr, as: UTF8.self))")
        #expect(String(decoding: login.stdout, as: UTF8.self).contains("was not playing"))
        // The command line agrees with the button.
        #expect(try rig.noise(["autostart", "status"]).stdoutText.contains("Resume at login: on"))

        #expect(try rig.performer.perform(.toggleResumeOnLaunch).message == "Resume at login is off.")
        #expect(!FileManager.default.fileExists(atPath: desktop.path))
        #expect(try rig.lastMix()["resumeOnLaunch"] as? Bool == false)
        #expect(try rig.noise(["autostart", "status"]).stdoutText.contains("Resume at login: off"))

        // Turned on by the command, off by the button; the systemd kind is removed as well.
        #expect(try rig.noise(["autostart", "enable", "--method", "systemd"]).status == 0)
        let unit = rig.server.directory.appendingPathComponent("config/systemd/user/widgetweaver-noise.service")
        #expect(FileManager.default.fileExists(atPath: unit.path))
        #expect(try rig.performer.perform(.toggleResumeOnLaunch).message == "Resume at login is off.")
        #expect(!FileManager.default.fileExists(atPath: unit.path))
        let config = rig.server.directory.appendingPathComponent("config")
        let left =
            FileManager.default.enumerator(atPath: config.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".desktop") || $0.hasSuffix(".service") } ?? []
        #expect(left.isEmpty, "\(left)")
    }

    /// `openURL` opens http(s) and weaver: links only, checked again at the press (a laid-out
    /// button may come from anywhere), and needs no Pro (it writes nothing).
    @Test func openURLOpensOnlyHTTPAndWeaverLinks() throws {
        let dir = try Products.temporaryDirectory("open-url")
        defer { try? FileManager.default.removeItem(at: dir) }
        let opened = Mutex<[String]>([])
        var performer = WidgetActionPerformer(store: StoreRoot(url: dir))
        performer.openLink = { link in opened.withLock { $0.append(link) } }
        for bad in [
            "file:///etc/passwd", "javascript:alert(1)", "sh -c reboot", "", "HTTPS://", "data:,x", "weaver:--help",
        ] {
            let e = #expect(throws: WidgetActionError.self) { try performer.perform(.openURL(bad), title: "Go") }
            #expect(
                e?.description.hasPrefix("the 'Go' button's link was not opened: ") == true,
                "\(bad): \(String(describing: e))")
        }
        #expect(opened.withLock { $0 }.isEmpty)
        #expect(
            try performer.perform(.openURL("https://example.com/x?y=1")).message == "Opened https://example.com/x?y=1.")
        #expect(try performer.perform(.openURL("weaver:editor/ABC")).message == "Opened weaver:editor/ABC.")
        #expect(opened.withLock { $0 } == ["https://example.com/x?y=1", "weaver:editor/ABC"])
        // Without xdg-open on PATH the press says what to install.
        var bare = WidgetActionPerformer(store: StoreRoot(url: dir))
        bare.openLink = { try LinkOpener.xdgOpen($0, environment: ["PATH": dir.path]) }
        let missing = #expect(throws: WidgetActionError.self) { try bare.perform(.openURL("https://example.com")) }
        #expect(missing?.description.contains("xdg-open is not installed") == true)
        // An xdg-open that cannot open the link (no handler: exit 3) is reported with its status.
        let failing = dir.appendingPathComponent("xdg-open")
        try Data("#!/bin/sh\nexit 3\n".utf8).write(to: failing)
        chmod(failing.path, 0o755)
        let refused = #expect(throws: WidgetActionError.self) { try bare.perform(.openURL("weaver:editor/ABC")) }
        #expect(
            refused?.description == "xdg-open could not open weaver:editor/ABC (exit status 3)",
            "\(String(describing: refused))")
    }
}

extension Int {
    var asInt32: Int32 { Int32(self) }

}
