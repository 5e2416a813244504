import BoundedJSON
import Foundation
import NoiseControl
import NoiseEngine
import Synchronization
import TestSupport
import Testing

/// The player commands as a person types them: toggle, relative master, mute, messages that quote
/// what was typed, saving over built-in presets, connections during shutdown.
@Suite struct PlayerCommandTests {
    /// 16: toggle, relative master, mute that remembers the level.
    @Test func toggleRelativeMasterAndMute() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let player = FakePlayer()
        let server = try player.served(in: box)
        defer { server.stop() }
        var r = try box.noise(["toggle"])
        #expect(r.stdoutText == "Paused.\n" && player.state.withLock { $0.state } == .paused, "\(r.stderrText)")
        r = try box.noise(["toggle"])
        #expect(r.stdoutText == "Resumed.\n" && player.state.withLock { $0.state } == .playing)
        r = try box.noise(["set", "--master", "+5%"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(player.state.withLock { $0.requests.last } == .adjustMaster(delta: 0.05))
        #expect(r.stdoutText == "master: 75%\n")
        r = try box.noise(["set", "--master", "-10%"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(abs(player.state.withLock { $0.mix.masterVolume } - 0.65) < 1e-9)
        r = try box.noise(["set", "--master=-0.05"])
        #expect(abs(player.state.withLock { $0.mix.masterVolume } - 0.6) < 1e-9, "\(r.stderrText)")
        r = try box.noise(["set", "--mute"])
        #expect(r.stdoutText == "muted (master 60% when unmuted)\n", "\(r.stdoutText) \(r.stderrText)")
        #expect(
            try JSONValue.parse(try box.noise(["status", "--format", "waybar"]).stdout)["class"] == .string("muted"))
        r = try box.noise(["set", "--unmute"])
        #expect(r.stdoutText == "unmuted\n")
        #expect(
            player.state.withLock { $0.requests.filter { $0 != .status }.suffix(2) } == [.mute(true), .mute(false)])
        r = try box.noise(["set", "--master", "++5%"])
        #expect(r.status == 64 && r.stderrText.contains("'--master' '++5%' is not a change"))
    }

    @Test func theMasterLevelRulesOfTheEngineController() throws {
        // The real controller (not the fake): relative changes clamp to 0…1 and unmute; muting
        // keeps the level; the status says muted.
        let player = LivePlayer(mix: sleepMix, seed: 1)
        let controller = PlayerController(
            player: player, mix: sleepMix, presetID: "sleep",
            output: .init(backend: "null", device: ""), saver: nil)
        guard case .ok(let muted?) = controller.handle(.mute(true)) else {
            Issue.record("mute")
            return
        }
        #expect(muted.muted && muted.masterVolume == 0.7)
        guard case .ok(let up?) = controller.handle(.adjustMaster(delta: 0.5)) else {
            Issue.record("adjust")
            return
        }
        #expect(!up.muted && up.masterVolume == 1)
        guard case .ok(let down?) = controller.handle(.adjustMaster(delta: -0.25)) else {
            Issue.record("adjust")
            return
        }
        #expect(down.masterVolume == 0.75)
        guard case .ok(let paused?) = controller.handle(.toggle) else {
            Issue.record("toggle")
            return
        }
        #expect(paused.state == .paused)
        guard case .ok(let playing?) = controller.handle(.toggle) else {
            Issue.record("toggle")
            return
        }
        #expect(playing.state == .playing)
        for request in [ControlRequest.toggle, .adjustMaster(delta: -0.05), .mute(true), .mute(false)] {
            #expect(try ControlRequest.decode(request.encoded()) == request)
        }
        #expect(throws: ProtocolError.self) {
            try ControlRequest.decode(Data(#"{"command":"adjustMaster","delta":2}"#.utf8))
        }
    }

    /// 16 (11), (17): messages quote what was typed and point at the right form.
    @Test func messagesQuoteWhatWasTyped() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let cases: [([String], String)] = [
            (["set", "--layer", "1", "--volume", "120%"], "--volume: '120%' is out of range; allowed: 0…1 or 0%…100%"),
            (["set", "--master", "70"], "--master: '70' is out of range; allowed: 0…1 or 0%…100% (did you mean 70%?)"),
            (["set", "--layer", "1", "--volume", "1.2"], "--volume: '1.2' is out of range; allowed: 0…1 or 0%…100%\n"),
            (["set", "--layer", "1", "--color", "1"], "Unknown option '--color'. Did you mean '--colour'?"),
            (["set", "--layer", "1"], "'--layer' needs a change"),
            (["set", "--mute", "--unmute"], "give either '--mute' or '--unmute'"),
        ]
        for (args, message) in cases {
            let r = try box.noise(args)
            #expect(r.status == 64, "\(args)")
            #expect(r.stderrText.contains(message), "\(args): \(r.stderrText)")
        }
        let r = try box.noise(["set", "--mute"])
        #expect(r.status == 1 && r.stderrText.contains("no player is running; '--mute' applies to a playing player"))
    }

    /// 16 (15): saving over a built-in preset needs --force and says so; yours can be deleted.
    @Test func savingOverABuiltInPresetAndDeleting() throws {
        let box = try Sandbox()
        defer { box.remove() }
        try LastMixStore(root: box.root).save(LastMix(mix: sleepMix))
        var r = try box.noise(["presets", "save", "sleep"])
        #expect(r.status == 1)
        #expect(r.stderrText.contains("'sleep' is a built-in preset; add '--force'"), "\(r.stderrText)")
        let mine = box.config.appendingPathComponent("widgetweaver/presets/sleep.json")
        #expect(!FileManager.default.fileExists(atPath: mine.path))
        r = try box.noise(["presets", "save", "sleep", "--force"])
        #expect(r.status == 0 && r.stderrText.contains("now plays instead of the built-in 'sleep'"))
        #expect(try box.noise(["presets"]).stdoutText.contains("(yours)"))
        r = try box.noise(["presets", "delete", "sleep"])
        #expect(r.status == 0 && r.stdoutText.contains("The built-in 'sleep' plays again."))
        #expect(!FileManager.default.fileExists(atPath: mine.path))
        r = try box.noise(["presets", "delete", "sleep"])
        #expect(r.status == 1 && r.stderrText.contains("built-in presets cannot be deleted"))
        r = try box.noise(["presets", "delete", "nosuch"])
        #expect(r.status == 1 && r.stderrText.contains("no preset of yours is named 'nosuch'"))
    }

    /// 16 (7): connections that arrive while the player stops were told "too many connections".
    @Test func aConnectionDuringShutdownIsNotToldTooMany() throws {
        for round in 0..<5 {
            let box = try Sandbox()
            defer { box.remove() }
            let player = FakePlayer()
            let server = try player.served(in: box)
            let socket = box.socket
            let errors = Mutex<[String]>([])
            let stopNow = Atomic<Bool>(false)
            var threads: [Thread] = []
            for _ in 0..<3 {
                let t = Thread {
                    while !stopNow.load(ordering: .relaxed) {
                        do {
                            try ControlClient(socketPath: socket).subscribe { _ in true }
                        } catch ControlError.notRunning {
                            usleep(1000)  // a client retrying as fast as a real one would is the load tested
                        } catch {
                            errors.withLock { $0.append("\(error)") }
                        }
                    }
                }
                t.start()
                threads.append(t)
            }
            #expect(eventually { server.subscriberCount == 3 })
            server.stop()
            usleep(50_000)  // clients keep reconnecting to a stopped server for a while: the scenario
            stopNow.store(true, ordering: .relaxed)
            for t in threads { _ = eventually(5) { t.isFinished } }
            #expect(
                !errors.withLock { $0 }.contains { $0.contains("too many connections") },
                "round \(round): \(errors.withLock { $0 })")
        }
    }
}
