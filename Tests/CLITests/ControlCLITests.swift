import BoundedJSON
import Foundation
import NoiseControl
import NoiseEngine
import Synchronization
import TestSupport
import Testing

/// The built `noise` run as a user would, against a fake player served in this process.
@Suite struct ControlCLITests {
    @Test func commandsGoToTheRunningPlayer() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let player = FakePlayer()
        let server = try player.served(in: box)
        defer { server.stop() }

        var r = try box.noise([
            "set", "--layer", "2", "--volume", "30%", "--colour", "0.5", "--low-cut", "off", "--eq-high", "-4", "--off",
        ])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText == "layer 2: off, 30%, colour 0.50 (white to pink), high cut 4000 Hz, EQ 0/0/-4 dB\n")
        #expect(
            player.state.withLock { $0.mix.layers[1] }
                == Mix.Layer(enabled: false, volume: 0.3, colour: 0.5, highCutHz: 4000, eq: Mix.EQ(highDb: -4)))
        r = try box.noise(["set", "--master", "0.55"])
        #expect(r.status == 0)
        #expect(player.state.withLock { $0.mix.masterVolume } == 0.55)
        // With a player running, the Last Mix file is the player's business, not `set`'s.
        #expect(!FileManager.default.fileExists(atPath: box.root.lastMix.path))

        r = try box.noise(["timer", "30m", "--fade", "60s"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.hasPrefix("Timer set: stops in 29m") || r.stdoutText.hasPrefix("Timer set: stops in 30m"))
        #expect(player.state.withLock { $0.fadeSeconds } == 60)
        #expect(try box.noise(["pause"]).status == 0)
        #expect(player.state.withLock { $0.state } == .paused)
        r = try box.noise(["resume"])
        #expect(r.stdoutText == "Resumed.\n")
        #expect(player.state.withLock { $0.state } == .playing)
        r = try box.noise(["preset", "rain", "--crossfade", "4s"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(player.state.withLock { $0.requests.last } == .preset(id: "rain", crossfadeSeconds: 4))

        r = try box.noise(["status", "--json"])
        let doc = try JSONValue.parse(r.stdout)
        #expect(doc["state"] == .string("playing"))
        #expect(doc["presetID"] == .string("rain"))
        #expect(doc["stale"] == .bool(false))
        r = try box.noise(["status", "--format", "waybar"])
        let waybar = try JSONValue.parse(r.stdout)
        #expect(waybar["class"] == .string("playing"))
        #expect(waybar["percentage"] == .number(55))
        r = try box.noise(["status", "--format", "i3blocks"])
        #expect(r.stdoutText.split(separator: "\n").count == 3)
        r = try box.noise(["status"])
        #expect(r.stdoutText.hasPrefix("Playing Sleep (preset rain), master 55%."), "\(r.stdoutText)")

        r = try box.noise(["presets", "save", "my-night", "--title", "My night"])
        #expect(r.status == 0, "\(r.stderrText)")
        let saved = try Mix.load(path: box.config.appendingPathComponent("widgetweaver/presets/my-night.json").path)
        #expect(saved.name == "My night")
        #expect(saved.layers == player.state.withLock { $0.mix.layers })
        #expect(player.state.withLock { $0.savedPresets } == ["my-night"])
        r = try box.noise(["presets", "save", "my-night"])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("add '--force' to replace it"))
        r = try box.noise(["presets", "show", "my-night"])
        #expect(r.stdoutText.hasPrefix("My night (my-night)"))

        r = try box.noise(["stop"])
        #expect(r.stdoutText == "Stopped.\n")
        #expect(player.state.withLock { $0.state } == .stopped)
    }

    @Test func badValuesNameTheFlagAndRange() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let cases: [([String], String)] = [
            (["set", "--layer", "1", "--volume", "1.2"], "--volume: '1.2' is out of range; allowed: 0…1"),
            (["set", "--layer", "1", "--colour", "3"], "--colour: '3' is out of range; allowed: 0…2"),
            (
                ["set", "--layer", "1", "--high-cut", "100"],
                "--high-cut: '100' is out of range; allowed: 500…20000 Hz or off"
            ),
            (["set", "--layer", "1", "--eq-mid", "20"], "--eq-mid: '20' is out of range; allowed: -12…12 dB"),
            (["set", "--layer", "0", "--on"], "--layer: '0' is out of range; allowed: 1…4"),
            (["set", "--volume", "0.5"], "layer changes need '--layer N'"),
            (["set", "--layer", "1"], "'--layer' needs a change"),
            (["set", "--layer", "1", "--on", "--off"], "give either '--on' or '--off'"),
            (["set", "--master", "loud"], "--master: 'loud' is not a number; allowed: a number in 0…1 or 0%…100%"),
            (["timer", "25h"], "DURATION 25h is out of range; allowed 1s…24h"),
            (["timer", "10m", "--fade", "20m"], "'--fade' must not be longer than the timer"),
            (["preset", "sleep", "--crossfade", "31m"], "'--crossfade' 31m is out of range; allowed 0s…30m"),
            (["status", "--format", "xml"], "'--format' xml is not supported"),
            (["presets", "save", "My Mix"], "NAME 'My Mix' is not a preset id"),
        ]
        for (args, message) in cases {
            let r = try box.noise(args)
            #expect(r.status == 64, "\(args)")
            #expect(r.stderrText.contains(message), "\(args): \(r.stderrText)")
        }
        let r = try box.noise(["preset", "nosuch"])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("no preset named 'nosuch'; available:"))
        #expect(!FileManager.default.fileExists(atPath: box.root.lastMix.path))
    }

    @Test func withNoPlayerSetAndPresetEditTheLastMix() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try store.save(LastMix(mix: sleepMix, presetID: "sleep", wasPlaying: true, resumeOnLaunch: true))
        var r = try box.noise(["set", "--layer", "1", "--high-cut", "off", "--eq-low", "3.5"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("No player is running; changed the Last Mix"))
        var last = try #require(try store.load().lastMix)
        #expect(last.mix.layers[0].highCutHz == nil)
        #expect(last.mix.layers[0].eq.lowDb == 3.5)
        #expect(last.wasPlaying && last.resumeOnLaunch)
        r = try box.noise(["set", "--layer", "2", "--low-cut", "5000"])
        #expect(r.status == 64)
        r = try box.noise(["set", "--layer", "2", "--low-cut", "2000", "--high-cut", "1000"])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("layers[1].lowCutHz: 2000 Hz must be below highCutHz (1000 Hz)"))
        r = try box.noise(["preset", "rain"])
        #expect(r.status == 0, "\(r.stderrText)")
        last = try #require(try store.load().lastMix)
        #expect(last.presetID == "rain")
        // The master is the user's: the Last Mix's stays, and the command says so.
        #expect(last.mix.masterVolume == sleepMix.masterVolume)
        #expect(r.stdoutText.contains("master 70% kept"), "\(r.stdoutText)")
        #expect(try box.noise(["pause"]).status == 1)
        #expect(try box.noise(["stop"]).stdoutText == "No player is running.\n")
        r = try box.noise(["presets", "save", "from-last"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(
            try Mix.load(path: box.config.appendingPathComponent("widgetweaver/presets/from-last.json").path).layers
                == last.mix.layers)
    }

    @Test func resumeDecisions() throws {
        let box = try Sandbox()
        defer { box.remove() }
        var r = try box.noise(["resume"])
        #expect(r.status == 0)
        #expect(r.stdoutText.contains("no Last Mix yet"))
        r = try box.noise(["resume", "--if-enabled"])
        #expect(r.status == 0)
        #expect(r.stdoutText.contains("no Last Mix yet"))
        let store = LastMixStore(root: box.root)
        try store.save(LastMix(mix: sleepMix, presetID: "sleep", wasPlaying: true, resumeOnLaunch: false))
        r = try box.noise(["resume", "--if-enabled"])
        #expect(r.status == 0 && r.stdoutText.contains("Resume at login is off"))
        try store.save(LastMix(mix: sleepMix, presetID: "sleep", wasPlaying: false, resumeOnLaunch: true))
        r = try box.noise(["resume", "--if-enabled"])
        #expect(r.status == 0 && r.stdoutText.contains("was not playing"))
        // Everything says start: the launcher is reached (a stub until the engine is wired).
        try store.save(LastMix(mix: sleepMix, presetID: "sleep", wasPlaying: true, resumeOnLaunch: true))
        r = try box.noise(["resume", "--if-enabled"])
        #expect(r.stderrText.contains("Resuming Sleep (sleep)."))
        // With a player running, --if-enabled leaves it alone and plain resume unpauses it.
        let player = FakePlayer()
        player.state.withLock { $0.state = .paused }
        let server = try player.served(in: box)
        defer { server.stop() }
        r = try box.noise(["resume", "--if-enabled"])
        #expect(r.stdoutText == "A player is already running.\n")
        #expect(player.state.withLock { $0.state } == .paused)
        r = try box.noise(["resume"])
        #expect(player.state.withLock { $0.state } == .playing)
    }

    @Test func statusReadsTheFileAndRecognisesADeadPlayer() throws {
        let box = try Sandbox()
        defer { box.remove() }
        var r = try box.noise(["status", "--format", "waybar"])
        #expect(try JSONValue.parse(r.stdout)["class"] == .string("stopped"))
        var s = FakePlayer().status()
        try StatusStore(root: box.root).write(s)
        r = try box.noise(["status", "--json"])
        #expect(try JSONValue.parse(r.stdout)["stale"] == .bool(false))
        s.updatedAt = Date().addingTimeInterval(-30)
        try StatusStore(root: box.root).write(s)
        r = try box.noise(["status", "--json"])
        #expect(try JSONValue.parse(r.stdout)["stale"] == .bool(true))
        r = try box.noise(["status"])
        #expect(r.stdoutText.hasPrefix("Stopped: the player (pid \(getpid())) is gone"))
        try Data("garbage".utf8).write(to: box.root.status)
        r = try box.noise(["status"])
        #expect(r.status == 0)
        #expect(r.stderrText.contains("could not be read"))
        #expect(r.stderrText.contains("status.json.corrupt-"))
    }

    @Test func corruptLastMixIsSetAsideAndTheCommandGoesOn() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        let garbage = Data("{\"mix\": {\"layers\": [".utf8)
        try garbage.write(to: box.root.lastMix)
        let r = try box.noise(["set", "--master", "0.5"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("the Last Mix: \(box.root.lastMix.path) could not be read ("), "\(r.stderrText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: box.store.path)
        let aside = try #require(names.first { $0.hasPrefix("last-mix.json.corrupt-") })
        #expect(r.stderrText.contains(aside))
        #expect(try Data(contentsOf: box.store.appendingPathComponent(aside)) == garbage)
        #expect(try LastMixStore(root: box.root).load().lastMix?.mix.masterVolume == 0.5)
    }

    @Test func followPrintsALinePerChangeFromFileAndSocket() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = StatusStore(root: box.root)
        let p = try ChildProcess(
            Products.url("noise").path, ["status", "--follow", "--format", "waybar"], environment: box.environment)
        let lines = Mutex<[String]>([])
        func refresh() {
            let text = String(decoding: p.stdout, as: UTF8.self)
            lines.withLock { $0 = text.split(separator: "\n").map(String.init) }
        }
        func classes() -> [String] {
            refresh()
            return lines.withLock { $0 }.compactMap { l -> String? in
                if case .string(let c)? = (try? JSONValue.parse(Data(l.utf8)))?["class"] { return c }
                return nil
            }
        }
        #expect(eventually { classes() == ["stopped"] })
        var s = FakePlayer().status()
        try store.write(s)
        #expect(eventually { classes() == ["stopped", "playing"] })
        s.state = .paused
        try store.write(s)
        #expect(eventually { classes() == ["stopped", "playing", "paused"] })
        // A player appears: lines now come from its subscription.
        let player = FakePlayer()
        let server = try player.served(in: box)
        #expect(eventually { server.subscriberCount == 1 })
        #expect(eventually { classes().last == "playing" })
        var t = player.status()
        t.masterVolume = 0.33
        server.broadcast(status: t)
        #expect(
            eventually {
                refresh()
                return lines.withLock { $0.last?.contains("\"percentage\":33") == true }
            })
        server.stop()
        // SIGKILL: a child spawned from a test-runner thread inherits that thread's blocked
        // signals, so SIGTERM may stay pending forever.
        p.signal(SIGKILL)
        p.wait()
        refresh()
        // Every line is a whole waybar document.
        #expect(lines.withLock { $0 }.allSatisfy { (try? JSONValue.parse(Data($0.utf8))) != nil })
    }
}
