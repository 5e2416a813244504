import Foundation
import TestSupport
import Testing

/// The Noise page's night routes (`/api/night…`) against a real `weaver serve`, a real player on a
/// private PulseAudio, and the CLI run as a process to read back what they did: the timer with its
/// fade and end, `+15 min`, the schedules (units in a scratch `$XDG_CONFIG_HOME`; no systemd runs
/// here, as in ScheduleCLITests), the CLI's refusals, and 400s naming the field and its range.
@Suite(.serialized)
struct NightAPITests {
    /// A `ServeRig` with its own config folder (the schedules' units) and extra environment (a
    /// stand-in logind's bus, or none) for the server, the player and the CLI alike.
    final class Rig: @unchecked Sendable {
        let serve: ServeRig
        let config: URL
        let extra: [String: String]

        init(extra: [String: String] = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]) throws {
            serve = try ServeRig()
            config = serve.pulse.directory.appendingPathComponent("config")
            self.extra = extra.merging(["XDG_CONFIG_HOME": config.path, "TZ": "UTC"]) { $1 }
        }

        var env: [String: String] { serve.env.merging(extra) { $1 } }
        var units: URL { config.appendingPathComponent("systemd/user") }

        func start() throws { try serve.startServer(environment: extra) }
        func noise(_ args: [String]) throws -> Products.Result { try Products.run("noise", args, environment: env) }

        func play() throws -> Spawned {
            let player = try Spawned(
                "noise", ["play", "--preset", "sleep", "--fade-in", "0", "--no-mpris"], environment: env)
            #expect(player.waitForStderr(10) { $0.contains("Playing") }, "\(player.stderrText)")
            #expect(serve.waitForStatus { $0["state"] as? String == "playing" } != nil)
            return player
        }

        /// `noise status --json`, run as a process.
        func status() throws -> [String: Any] {
            let r = try noise(["status", "--json"])
            #expect(r.status == 0, "\(r.stderrText)")
            return (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
        }

        func post(_ path: String, _ json: String) throws -> RawHTTP.Reply {
            try serve.post(path, json, token: try serve.token())
        }

        func stop() {
            _ = try? noise(["stop"])
            serve.stop()
        }
    }

    @Test func theTimerTakesItsFadeAndEndAndRefusesBadInput() throws {
        let rig = try Rig()
        defer { rig.stop() }
        try rig.start()
        // No player yet: the CLI's words.
        var r = try rig.post("/api/night/timer", #"{"seconds":1800}"#)
        #expect(r.status == 409 && r.text.contains("no player is running; start one first"), "\(r.text)")

        let player = try rig.play()
        defer { _ = player.waitForExit(0.1) }
        r = try rig.post("/api/night/timer", #"{"seconds":1800,"fadeSeconds":300}"#)
        #expect(r.status == 200, "\(r.text)")
        var s = try rig.status()
        #expect((1790...1800).contains(s["timerRemainingSeconds"] as? Double ?? 0), "\(s)")
        #expect(s["timerFadeSeconds"] as? Double == 300 && s["timerThen"] as? String == "stop", "\(s)")

        // No logind on this bus: suspend is refused in the player's words, the timer stays.
        r = try rig.post("/api/night/timer", #"{"seconds":1200,"fadeSeconds":60,"then":"suspend"}"#)
        #expect(r.status == 422, "\(r.text)")
        #expect(r.text.contains("the timer is set, but its end is not"), "\(r.text)")
        #expect(r.text.contains("suspend at the timer's end needs systemd-logind, which did not answer"), "\(r.text)")
        s = try rig.status()
        #expect(s["timerThen"] as? String == "stop" && s["timerFadeSeconds"] as? Double == 60, "\(s)")

        // +15 min keeps the fade (as `noise timer +15m` does).
        r = try rig.post("/api/night/timer/add", #"{"seconds":900}"#)
        #expect(r.status == 200 && r.text.contains("Timer +15m"), "\(r.text)")
        s = try rig.status()
        #expect((2090...2100).contains(s["timerRemainingSeconds"] as? Double ?? 0), "\(s)")
        #expect(s["timerFadeSeconds"] as? Double == 60, "\(s)")
        let state = try #require(try RawHTTP.send(port: rig.serve.port, path: "/api/night").json())
        let timer = try #require(state["timer"] as? [String: Any], "\(state)")
        #expect(timer["fadeSeconds"] as? Double == 60 && timer["then"] as? String == "stop", "\(timer)")
        #expect((timer["summary"] as? String ?? "").contains("fading out over 1m"), "\(timer)")

        // The mixer's Sleep timer dropdown sets a length only: the fade stays (it reset to 30 s).
        r = try rig.serve.post("/api/mixer", #"{"timerSeconds":2700}"#, token: try rig.serve.token())
        #expect(r.status == 200, "\(r.text)")
        s = try rig.status()
        #expect((2690...2700).contains(s["timerRemainingSeconds"] as? Double ?? 0), "\(s)")
        #expect(s["timerFadeSeconds"] as? Double == 60, "the mixer's timer changed the fade: \(s)")

        // Bad input: 400 naming the field and what it allows.
        for (body, words) in [
            (#"{"seconds":0}"#, "'seconds' 0 is outside 1…86400"),
            (#"{"seconds":600,"fadeSeconds":900}"#, "'fadeSeconds' 900 is outside 0…600"),
            (#"{"seconds":600,"then":"hibernate"}"#, "allowed stop, suspend or poweroff"),
            (#"{"seconds":600,"colour":1}"#, "'colour' not a known field"),
            (#"{"seconds":"30m"}"#, "'seconds' expected a number, found string"),
            (#"{"fadeSeconds":60}"#, "'seconds' missing"),
            (#"{"seconds":null,"then":"stop"}"#, "'then' makes no sense when the timer is switched off"),
            ("[1]", "expected an object"),
        ] {
            let bad = try rig.post("/api/night/timer", body)
            #expect(bad.status == 400 && bad.text.contains(words), "\(body): \(bad.status) \(bad.text)")
        }
        let badAdd = try rig.post("/api/night/timer/add", #"{"seconds":100000}"#)
        #expect(badAdd.status == 400 && badAdd.text.contains("'seconds' 100000 is outside 1…86400"), "\(badAdd.text)")
        // Writes need the page's token and origin (AccessMiddleware).
        let noToken = try rig.serve.post("/api/night/timer", #"{"seconds":null}"#, token: nil)
        #expect(noToken.status == 403, "\(noToken.text)")
        let otherOrigin = try rig.serve.post(
            "/api/night/timer", #"{"seconds":null}"#, token: try rig.serve.token(), origin: "http://evil.example")
        #expect(otherOrigin.status == 403, "\(otherOrigin.text)")

        r = try rig.post("/api/night/timer", #"{"seconds":null}"#)
        #expect(r.status == 200 && r.text.contains("Timer off."), "\(r.text)")
        s = try rig.status()
        #expect(s["timerRemainingSeconds"] is NSNull && s["timerThen"] is NSNull, "\(s)")
    }

    @Test func schedulesAreAddedDisabledAndRemovedAsTheCLIDoes() throws {
        let rig = try Rig()
        defer { rig.stop() }
        try rig.start()
        let empty = try #require(try RawHTTP.send(port: rig.serve.port, path: "/api/night").json())
        #expect((empty["schedules"] as? [Any])?.isEmpty == true)
        // This container runs no systemd: the page says so in the CLI's words and writes nothing.
        let systemd = try #require(empty["systemd"] as? String, "\(empty)")
        #expect(systemd.contains("no systemd user session") || systemd.contains("systemd does not run"), "\(systemd)")
        var r = try rig.post("/api/night/schedules", #"{"time":"22:30","preset":"rain","fadeSeconds":600}"#)
        #expect(r.status == 409, "\(r.text)")
        #expect(r.text.contains("a schedule would never run here. Nothing was written."), "\(r.text)")
        #expect(!FileManager.default.fileExists(atPath: rig.units.path))

        // As `--without-systemd-session`.
        r = try rig.post(
            "/api/night/schedules",
            #"{"time":"22:30","preset":"rain","fadeSeconds":600,"timerSeconds":3600,"withoutSystemdSession":true}"#)
        #expect(r.status == 200 && r.text.contains("Scheduled 2230-rain"), "\(r.text)")
        var list = try rig.noise(["schedule", "list"])
        #expect(list.status == 0, "\(list.stderrText)")
        #expect(
            list.stdoutText.hasPrefix("2230-rain  22:30 daily  preset rain  fade 10m00s  timer 1h00m00s  next"),
            "\(list.stdoutText)")
        // The unit runs the same `noise` with the server's store.
        let service = try String(
            contentsOf: rig.units.appendingPathComponent("widgetweaver-noise-at-2230-rain.service"), encoding: .utf8)
        #expect(service.contains("\"--store\" \"\(rig.serve.store.path)\""), "\(service)")

        r = try rig.post("/api/night/schedules/2230-rain/enabled", #"{"enabled":false}"#)
        #expect(r.status == 200 && r.text.contains("Disabled 2230-rain."), "\(r.text)")
        list = try rig.noise(["schedule", "list"])
        #expect(list.stdoutText.contains("timer 1h00m00s  disabled"), "\(list.stdoutText)")
        let state = try #require(try RawHTTP.send(port: rig.serve.port, path: "/api/night").json())
        let row = try #require((state["schedules"] as? [[String: Any]])?.first)
        #expect(row["enabled"] as? Bool == false && row["id"] as? String == "2230-rain", "\(row)")
        r = try rig.post("/api/night/schedules/2230-rain/enabled", #"{"enabled":true}"#)
        #expect(r.status == 200, "\(r.text)")
        #expect(try rig.noise(["schedule", "list"]).stdoutText.contains("timer 1h00m00s  next"))

        for (path, body, status, words) in [
            ("/api/night/schedules", #"{"time":"25:00","preset":"rain"}"#, 400, "'time' 25:00 is out of range"),
            (
                "/api/night/schedules", #"{"time":"22:30","preset":"nope","withoutSystemdSession":true}"#, 400,
                "'preset': no preset named 'nope'"
            ),
            (
                "/api/night/schedules", #"{"time":"22:30","preset":"rain","fadeSeconds":4000}"#, 400,
                "'fadeSeconds' 4000 is outside 0…1800"
            ),
            ("/api/night/schedules", #"{"time":"22:30","preset":"Rain!"}"#, 400, "is not a preset id"),
            ("/api/night/schedules/2230-rain/enabled", #"{"enabled":"yes"}"#, 400, "'enabled' expected true or false"),
            ("/api/night/schedules/0600-none/remove", "{}", 404, "no schedule '0600-none'"),
        ] {
            let bad = try rig.post(path, body)
            #expect(bad.status == status && bad.text.contains(words), "\(body): \(bad.status) \(bad.text)")
        }

        r = try rig.post("/api/night/schedules/2230-rain/remove", "{}")
        #expect(r.status == 200 && r.text.contains("Removed 2230-rain."), "\(r.text)")
        list = try rig.noise(["schedule", "list"])
        #expect(list.stdoutText.contains("No schedules"), "\(list.stdoutText)")
    }
}
