import Foundation
import TestSupport
import Testing

/// `noise schedule add/list/remove` (issue 29 item 3): systemd user timers whose service runs
/// `noise play` with the same store; the units checked by `systemd-analyze verify`, the service's
/// command run by hand against a private PulseAudio.
@Suite(.serialized) struct ScheduleCLITests {
    struct Rig {
        let root: URL
        var config: URL { root.appendingPathComponent("config") }
        var store: URL { root.appendingPathComponent("store") }
        var units: URL { config.appendingPathComponent("systemd/user") }
        var environment: [String: String] {
            // No user manager to tell in a test: the files are the result (UserSystemd skips
            // systemctl when /run/systemd/system is absent, and says so otherwise).
            TestStore(at: store).environment([
                "XDG_CONFIG_HOME": config.path, "TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
            ])
        }

        init() throws { root = try Products.temporaryDirectory("schedule") }

        /// `add` writes its units only where a systemd user session runs; this machine (a container)
        /// has none, so the tests that check the units ask for them anyway.
        func noise(_ arguments: [String], extra: [String: String] = [:]) throws -> Products.Result {
            let anyway = arguments.first == "add" ? ["--without-systemd-session"] : []
            return try Products.run(
                "noise", ["schedule"] + arguments + anyway, environment: environment.merging(extra) { $1 })
        }

        func text(_ name: String) throws -> String {
            try String(contentsOf: units.appendingPathComponent(name), encoding: .utf8)
        }
    }

    /// Runs a system tool (an absolute path) and waits.
    static func tool(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, stdoutText: String, stderrText: String)
    {
        let child = try ChildProcess(path, arguments, environment: environment)
        let status = child.wait()
        return (status, String(decoding: child.stdout, as: UTF8.self), String(decoding: child.stderr, as: UTF8.self))
    }

    /// The words of the service's ExecStart (each written as one double-quoted systemd word).
    static func execStart(_ service: String) throws -> [String] {
        let line = try #require(service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for c in line.dropFirst("ExecStart=".count) {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "\"" {
                inQuotes.toggle()
            } else if c == " " && !inQuotes {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$") }
    }

    @Test func addWritesATimerAndAServiceThatSystemdAccepts() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(at: rig.root) }
        let r = try rig.noise(["add", "23:00", "--preset", "sleep", "--fade", "10m", "--timer", "8h"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.contains("Scheduled 2300-sleep"), "\(r.stdoutText)")
        let timer = try rig.text("widgetweaver-noise-at-2300-sleep.timer")
        let service = try rig.text("widgetweaver-noise-at-2300-sleep.service")
        #expect(timer.contains("OnCalendar=*-*-* 23:00:00"), "\(timer)")
        #expect(!timer.contains("Persistent=true"))
        let words = try Self.execStart(service)
        #expect(URL(fileURLWithPath: words[0]).lastPathComponent == "noise")
        #expect(
            Array(words.dropFirst())
                == ["play", "--preset", "sleep", "--fade-in", "600s", "--timer", "28800s", "--store", rig.store.path],
            "\(words)")
        let link = rig.units.appendingPathComponent("timers.target.wants/widgetweaver-noise-at-2300-sleep.timer")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
                == "../widgetweaver-noise-at-2300-sleep.timer")

        // systemd's own checker on both units (it loads the service through the timer's Unit=).
        let verify = try Self.tool(
            "/usr/bin/systemd-analyze",
            [
                "verify", "--man=no", rig.units.appendingPathComponent("widgetweaver-noise-at-2300-sleep.timer").path,
                rig.units.appendingPathComponent("widgetweaver-noise-at-2300-sleep.service").path,
            ], environment: rig.environment.merging(["SYSTEMD_LOG_LEVEL": "warning"]) { $1 })
        print("systemd-analyze verify: status \(verify.status) \(verify.stderrText)")
        #expect(verify.status == 0, "\(verify.stderrText)")
        #expect(!verify.stderrText.contains("widgetweaver-noise-at"), "\(verify.stderrText)")
    }

    /// `list` shows every schedule with the next run time systemd itself computes for the same
    /// OnCalendar expression; `remove` by time and by id; unknown ones are refused.
    @Test func listShowsTheNextRunAndRemoveTakesIDOrTime() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(at: rig.root) }
        var r = try rig.noise(["list"])
        #expect(r.status == 0 && r.stdoutText.contains("No schedules"), "\(r.stdoutText)")
        #expect(try rig.noise(["add", "23:00", "--preset", "sleep", "--fade", "10m"]).status == 0)
        #expect(try rig.noise(["add", "6:45", "--preset", "rain"]).status == 0)
        #expect(try rig.noise(["add", "23:00", "--preset", "ocean", "--timer", "1h"]).status == 0)
        r = try rig.noise(["list"])
        #expect(r.status == 0, "\(r.stderrText)")
        let lines = r.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix(10)) } == ["0645-rain ", "2300-ocean", "2300-sleep"], "\(lines)")
        #expect(lines[2].contains("fade 10m") && lines[2].contains("timer none"), "\(lines[2])")
        #expect(lines[1].contains("timer 1h"), "\(lines[1])")
        let calendar = try Self.tool(
            "/usr/bin/systemd-analyze", ["calendar", "*-*-* 23:00:00"], environment: ["TZ": "UTC"])
        let nextLine = try #require(
            calendar.stdoutText.split(separator: "\n").first { $0.contains("Next elapse:") }, "\(calendar.stdoutText)")
        let systemdNext = nextLine.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        print("list: \(lines[2]); systemd-analyze calendar: \(systemdNext)")
        #expect(lines[2].hasSuffix("next \(systemdNext)"), "\(lines[2]) vs \(systemdNext)")

        r = try rig.noise(["remove", "23:00"])
        #expect(r.status == 0 && r.stdoutText.contains("Removed 2300-ocean, 2300-sleep."), "\(r.stdoutText)")
        r = try rig.noise(["remove", "0645-rain"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.units.path).isEmpty)
        r = try rig.noise(["remove", "0645-rain"])
        #expect(r.status != 0 && r.stderrText.contains("no schedule '0645-rain'"), "\(r.stderrText)")
    }

    /// Without a systemd user session (this container: no /run/systemd/system) a schedule would
    /// never fire: `add` refuses naming what is missing and writes nothing. A second schedule at a
    /// minute another already has is written with a warning naming the other. Before issue 41 the
    /// refusal was a "next run" line and the second schedule was silent.
    @Test func addRefusesWithoutASystemdSessionAndWarnsOfASharedMinute() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(at: rig.root) }
        try #require(
            !FileManager.default.fileExists(atPath: "/run/systemd/system"),
            "this test needs a machine without systemd")
        let refused = try Products.run(
            "noise", ["schedule", "add", "23:00", "--preset", "sleep"], environment: rig.environment)
        #expect(refused.status == 1, "\(refused.stdoutText)")
        #expect(
            refused.stderrText.contains("systemd does not run this system (no /run/systemd/system)")
                && refused.stderrText.contains("no systemd user session")
                && refused.stderrText.contains("Nothing was written"), "\(refused.stderrText)")
        #expect(!refused.stdoutText.contains("next run"), "\(refused.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: rig.units.path), "units were written")

        let first = try rig.noise(["add", "23:00", "--preset", "sleep"])
        #expect(first.status == 0 && !first.stderrText.contains("warning"), "\(first.stderrText)")
        let second = try rig.noise(["add", "23:00", "--preset", "ocean"])
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(
            second.stderrText.contains("warning: 2300-sleep also starts at 23:00"), "\(second.stderrText)")
        let other = try rig.noise(["add", "23:01", "--preset", "rain"])
        #expect(other.status == 0 && !other.stderrText.contains("warning"), "\(other.stderrText)")
    }

    /// `disable` removes the timer's wants link and keeps the units (list says disabled);
    /// `enable` makes the link again; an unknown one is refused in `remove`'s words.
    @Test func disableKeepsTheUnitsAndEnableBringsTheLinkBack() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(at: rig.root) }
        #expect(try rig.noise(["add", "23:00", "--preset", "sleep"]).status == 0)
        let link = rig.units.appendingPathComponent("timers.target.wants/widgetweaver-noise-at-2300-sleep.timer")
        var r = try rig.noise(["disable", "2300-sleep"])
        #expect(r.status == 0 && r.stdoutText.contains("Disabled 2300-sleep."), "\(r.stdoutText) \(r.stderrText)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil)
        #expect(
            FileManager.default.fileExists(
                atPath: rig.units.appendingPathComponent("widgetweaver-noise-at-2300-sleep.timer").path))
        r = try rig.noise(["list"])
        #expect(r.stdoutText.contains("timer none  disabled"), "\(r.stdoutText)")
        r = try rig.noise(["enable", "23:00"])
        #expect(r.status == 0 && r.stdoutText.contains("Enabled 2300-sleep."), "\(r.stdoutText)")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
                == "../widgetweaver-noise-at-2300-sleep.timer")
        r = try rig.noise(["disable", "0600-nothing"])
        #expect(r.status != 0 && r.stderrText.contains("no schedule '0600-nothing'"), "\(r.stderrText)")
    }

    /// Bad times and values are refused naming the field and the allowed form; nothing is written.
    @Test func badTimesAreRefused() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(at: rig.root) }
        let cases: [([String], String)] = [
            (["add", "25:00", "--preset", "sleep"], "'TIME' 25:00 is out of range; use HH:MM, 24-hour, 00:00…23:59"),
            (["add", "tomorrow", "--preset", "sleep"], "'TIME' tomorrow is not a time of day; use HH:MM, 24-hour"),
            (["add", "23:60", "--preset", "sleep"], "'TIME' 23:60 is out of range"),
            (["add", "11pm", "--preset", "sleep"], "'TIME' 11pm is not a time of day"),
            (["add", "23:00", "--preset", "sleep", "--fade", "31m"], "'--fade' 31m is out of range; allowed 0s…30m"),
            (["add", "23:00", "--preset", "sleep", "--timer", "25h"], "'--timer' 25h is out of range; allowed 1s…24h"),
            (["add", "23:00", "--preset", "Sleep/../x"], "'--preset' Sleep/../x is not a preset id"),
            (["add", "23:00", "--preset", "no-such-preset"], "'--preset'"),
        ]
        for (arguments, message) in cases {
            let r = try rig.noise(arguments)
            #expect(r.status != 0, "\(arguments) was accepted")
            #expect(r.stderrText.contains(message), "\(arguments): \(r.stderrText)")
        }
        #expect(!FileManager.default.fileExists(atPath: rig.units.path))
    }

    /// The scheduled service's command, run by hand: it plays the preset through a private
    /// PulseAudio null sink, fading in over the schedule's fade (a short one here), in the store
    /// the schedule was made with.
    @Test func theScheduledCommandPlaysThePresetWithTheFade() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(at: rig.root) }
        // A timer long enough that its own fade-out (30 s) stays clear of the recording.
        #expect(try rig.noise(["add", "7:00", "--preset", "pink", "--fade", "4s", "--timer", "2m"]).status == 0)
        let words = try Self.execStart(try rig.text("widgetweaver-noise-at-0700-pink.service"))
        let server = try PulseServer()
        defer { server.stop() }
        let recorder = try server.record(to: server.directory.appendingPathComponent("rec.wav"))
        // The unit's environment is the user manager's, not the test's: no WIDGETWEAVER_HOME, so
        // the store must come from the command itself.
        let decoy = rig.root.appendingPathComponent("decoy-store")
        let env = TestStore(at: decoy).environment(
            server.environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]) { $1 })
        #expect(URL(fileURLWithPath: words[0]).path == Products.url("noise").path)
        let player = try Spawned("noise", Array(words.dropFirst()) + ["--no-mpris", "--no-inhibit"], environment: env)
        #expect(player.waitForStderr(20) { $0.contains("Playing") }, "\(player.stderrText)")
        recorder.waitForAudio(7)  // the recording's length: seven seconds of the scheduled play
        let rec = try recorder.stop()
        #expect(player.terminate() == 0, "\(player.stderrText)")
        #expect(FileManager.default.fileExists(atPath: rig.store.path), "the player did not use the schedule's store")
        #expect(!FileManager.default.fileExists(atPath: decoy.path), "the player used the environment's store")
        let x = rec.channels[0]
        let start = try #require(x.firstIndex { abs($0) > 1e-4 })
        // Level per half second from the first sound: rising over the 4 s fade, flat after it.
        let levels = (0..<12).map { k -> Double in
            let a = start + k * 24000
            return TestRender.db(TestRender.rms(x[min(a, x.count)..<min(a + 24000, x.count)]))
        }
        print(
            "scheduled play, level per 0.5 s from the first sound (dBFS): \(levels.map { String(format: "%.1f", $0) })")
        for k in 1..<8 { #expect(levels[k] > levels[k - 1], "not rising at \(Double(k) / 2) s: \(levels)") }
        #expect(levels[0] < levels[9] - 15, "the first half second is not faded: \(levels)")
        // Within 1.5 dB: the sleep preset's movement swings its level by about 1 dB per half second
        // (seen: -25.5, -24.8, -25.8 after the fade).
        #expect(
            abs(levels[9] - levels[10]) < 1.5 && abs(levels[9] - levels[8]) < 1.5, "not steady after 4 s: \(levels)")
        let steady = (levels[9] + levels[10] + levels[11]) / 3
        #expect(levels[6] < steady - 1, "full level before the 4 s fade ended: \(levels)")
    }
}
