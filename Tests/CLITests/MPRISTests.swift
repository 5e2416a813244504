import Foundation
import TestSupport
import Testing

/// `noise play` as an MPRIS player: a private session bus per test, the player on a private
/// PulseAudio, driven by real clients (playerctl, gdbus) and watched with dbus-monitor.
@Suite(.serialized) struct MPRISTests {
    static let player = "org.mpris.MediaPlayer2.Player"

    struct Rig {
        let pulse: PulseServer
        let bus: SessionBus
        let store: URL
        let env: [String: String]

        /// `desktopFile`: put widgetweaver-noise.desktop where XDG_DATA_DIRS points.
        init(desktopFile: Bool = true) throws {
            pulse = try PulseServer()
            bus = try SessionBus()
            store = pulse.directory.appendingPathComponent("store")
            let data = pulse.directory.appendingPathComponent("share")
            let applications = data.appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            if desktopFile {
                try FileManager.default.copyItem(
                    at: Self.packageRoot.appendingPathComponent("Resources/desktop/widgetweaver-noise.desktop"),
                    to: applications.appendingPathComponent("widgetweaver-noise.desktop"))
            }
            env = TestStore(at: store).environment(
                pulse.environment.merging(bus.environment) { $1 }.merging([
                    "XDG_DATA_DIRS": data.path,
                    "XDG_DATA_HOME": pulse.directory.appendingPathComponent("home/.local/share").path,
                ]) { $1 })
        }

        static var packageRoot: URL {
            var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                dir = dir.deletingLastPathComponent()
            }
            return dir
        }

        func stop() {
            bus.stop()
            pulse.stop()
        }

        func play(_ args: [String], extra: [String: String] = [:]) throws -> Spawned {
            try Spawned("noise", ["play", "--fade-in", "0"] + args, environment: env.merging(extra) { $1 })
        }

        /// Ends a player a failed expectation left running (SIGTERM, then SIGKILL).
        func reap(_ player: Spawned) {
            player.signal(SIGTERM)
            _ = player.waitForExit(5)
        }

        func noise(_ args: [String]) throws -> Products.Result { try Products.run("noise", args, environment: env) }

        /// `playerctl -p widgetweaver ARGS`, stdout trimmed.
        @discardableResult
        func playerctl(_ args: [String]) throws -> String {
            let r = try bus.run("/usr/bin/playerctl", ["-p", "widgetweaver"] + args)
            // playerctl prints object paths quoted.
            return r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
                in: CharacterSet(charactersIn: "'"))
        }

        func gdbus(_ method: String, _ args: [String], name: String = "org.mpris.MediaPlayer2.widgetweaver") throws
            -> Products.Result
        {
            try bus.run(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", name, "--object-path", "/org/mpris/MediaPlayer2",
                    "--method", method,
                ] + args)
        }

        func names() throws -> String {
            try bus.run(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                    "--method", "org.freedesktop.DBus.ListNames",
                ]
            ).stdoutText
        }

        func waitForName(_ name: String = "org.mpris.MediaPlayer2.widgetweaver'", _ seconds: Double = 20) -> Bool {
            eventually(seconds) { (try? names())?.contains(name) == true }
        }

        func json(_ file: String) -> [String: Any]? {
            guard let data = try? Data(contentsOf: store.appendingPathComponent(file)) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }

        /// Waits until `file` in the store satisfies `predicate`.
        func waitFor(_ file: String, _ seconds: Double = 3, _ predicate: ([String: Any]) -> Bool) -> Bool {
            eventually(seconds) { json(file).map(predicate) == true }
        }

        func waitUntil(_ seconds: Double = 3, _ predicate: () throws -> Bool) -> Bool {
            eventually(seconds) { (try? predicate()) == true }
        }

        /// Sends one request line on the control socket (as `noise set` does) and returns when the
        /// reply arrives. Returns the wall-clock time just before the request was written.
        func control(_ line: String) throws -> Double {
            let path = pulse.directory.appendingPathComponent("run/widgetweaver/noise.sock").path
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #expect(fd >= 0)
            defer { close(fd) }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
            }
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            #expect(connected == 0, "connect \(path): \(errno)")
            let start = Date().timeIntervalSince1970
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            var reply = [UInt8]()
            while !reply.contains(UInt8(ascii: "\n")) {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                reply += buffer[0..<n]
            }
            #expect(
                String(decoding: reply, as: UTF8.self).contains("\"ok\""), "\(String(decoding: reply, as: UTF8.self))")
            return start
        }
    }

    static func presetOrder(_ rig: Rig) throws -> [String] {
        let r = try rig.noise(["presets", "--json"])
        let list = try JSONSerialization.jsonObject(with: r.stdout) as! [[String: Any]]
        return list.compactMap { $0["id"] as? String }
    }

    /// The PropertiesChanged signals dbus-monitor saw after `time` carrying `text`.
    static func changed(
        _ monitor: SessionBus.Monitor, after time: Double, containing text: String, within seconds: Double = 3
    ) -> SessionBus.Monitor.Message? {
        monitor.waitFor(seconds) { $0.member == "PropertiesChanged" && $0.time >= time && $0.body.contains(text) }
    }

    @Test func playerctlAndGdbusDriveThePlayerAndTheFeedFollows() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let monitor = try rig.bus.monitor(["type='signal',interface='org.freedesktop.DBus.Properties'"])
        defer { monitor.stop() }
        let player = try rig.play(["--preset", "sleep", "--timer", "10m"])
        defer { rig.reap(player) }
        #expect(player.waitForStderr(20) { $0.contains("Playing") }, "\(player.stderrText)")
        #expect(rig.waitForName(), "\(player.stderrText)")
        #expect(!player.stderrText.contains("MPRIS"), "\(player.stderrText)")

        // What shells read first.
        #expect(try rig.playerctl(["status"]) == "Playing")
        #expect(try rig.playerctl(["metadata", "xesam:title"]) == "Sleep")
        #expect(try rig.playerctl(["metadata", "xesam:artist"]) == "WidgetWeaver")
        #expect(try rig.playerctl(["metadata", "mpris:trackid"]) == "/org/widgetweaver/noise/preset/sleep")
        #expect(try rig.playerctl(["metadata", "mpris:length"]) == "600000000")
        #expect(try rig.playerctl(["volume"]).hasPrefix("0.9"))
        // Cover art: the Noise Machine widget drawn for this status, a PNG that exists.
        let art = try rig.playerctl(["metadata", "mpris:artUrl"])
        #expect(art.hasPrefix("file:///"), "\(art)")
        let artPath = URL(string: art)?.path ?? ""
        let artBytes = FileManager.default.contents(atPath: artPath) ?? Data()
        #expect(artBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(artPath): \(artBytes.count) bytes")
        let position = Double(try rig.playerctl(["position"])) ?? -1
        #expect(position > 0 && position < 10, "position \(position)")
        let root = try rig.gdbus("org.freedesktop.DBus.Properties.GetAll", ["org.mpris.MediaPlayer2"]).stdoutText
        for expected in [
            "'Identity': <'WidgetWeaver Noise'>", "'DesktopEntry': <'widgetweaver-noise'>", "'CanQuit': <true>",
            "'CanRaise': <false>", "'HasTrackList': <false>",
        ] {
            #expect(root.contains(expected), "\(root)")
        }
        let props = try rig.gdbus("org.freedesktop.DBus.Properties.GetAll", [Self.player]).stdoutText
        for expected in [
            "'Rate': <1.0>", "'MinimumRate': <1.0>", "'MaximumRate': <1.0>",
            // A 10-minute timer runs: Seek moves its end (seekMovesTheSleepTimersEnd).
            "'CanSeek': <true>",
            "'CanGoNext': <true>", "'CanGoPrevious': <true>", "'CanControl': <true>",
        ] {
            #expect(props.contains(expected), "\(props)")
        }
        let introspection = try rig.gdbus("org.freedesktop.DBus.Introspectable.Introspect", []).stdoutText
        #expect(introspection.contains("org.mpris.MediaPlayer2.Player"))

        // Pause, play, toggle: MPRIS, the status feed and the signals agree.
        var t = Date().timeIntervalSince1970
        try rig.playerctl(["pause"])
        #expect(try rig.playerctl(["status"]) == "Paused")
        #expect(rig.waitFor("status.json") { $0["state"] as? String == "paused" })
        #expect(Self.changed(monitor, after: t, containing: "\"Paused\"") != nil, "\(monitor.text.suffix(2000))")
        // The picture shows the pause: a new file (shells cache art by URL); the old one is gone.
        let pausedArt = try rig.playerctl(["metadata", "mpris:artUrl"])
        #expect(pausedArt != art && pausedArt.hasPrefix("file:///"), "\(pausedArt)")
        #expect(FileManager.default.fileExists(atPath: URL(string: pausedArt)?.path ?? ""))
        #expect(!FileManager.default.fileExists(atPath: artPath))
        t = Date().timeIntervalSince1970
        try rig.playerctl(["play"])
        #expect(try rig.playerctl(["status"]) == "Playing")
        #expect(rig.waitFor("status.json") { $0["state"] as? String == "playing" })
        #expect(Self.changed(monitor, after: t, containing: "\"Playing\"") != nil)
        try rig.playerctl(["play-pause"])
        #expect(try rig.playerctl(["status"]) == "Paused")
        try rig.playerctl(["play-pause"])
        #expect(try rig.playerctl(["status"]) == "Playing")

        // Next / Previous walk the presets in `noise presets` order, wrapping around.
        let order = try Self.presetOrder(rig)
        let sleep = try #require(order.firstIndex(of: "sleep"))
        let next = order[(sleep + 1) % order.count], previous = order[(sleep - 1 + order.count) % order.count]
        t = Date().timeIntervalSince1970
        try rig.playerctl(["next"])
        #expect(
            try rig.playerctl(["metadata", "mpris:trackid"])
                == "/org/widgetweaver/noise/preset/\(next.replacingOccurrences(of: "-", with: "_2d"))")
        #expect(rig.waitFor("status.json") { $0["presetID"] as? String == next })
        #expect(rig.waitFor("last-mix.json") { ($0["presetID"] as? String) == next })
        #expect(
            Self.changed(monitor, after: t, containing: "preset/\(next.replacingOccurrences(of: "-", with: "_2d"))")
                != nil)
        try rig.playerctl(["previous"])
        try rig.playerctl(["previous"])
        #expect(rig.waitFor("status.json") { $0["presetID"] as? String == previous })
        #expect(rig.waitFor("last-mix.json") { ($0["presetID"] as? String) == previous })
        let title = try rig.playerctl(["metadata", "xesam:title"])
        #expect(title == (rig.json("status.json")?["presetName"] as? String))

        // Volume both ways: MPRIS → master slider, and a socket change → MPRIS.
        t = Date().timeIntervalSince1970
        try rig.playerctl(["volume", "0.35"])
        #expect(rig.waitFor("status.json") { $0["masterVolume"] as? Double == 0.35 })
        #expect(
            rig.waitFor("last-mix.json") {
                (($0["mix"] as? [String: Any])?["masterVolume"] as? Double ?? $0["masterVolume"] as? Double) == 0.35
            },
            "\(String(describing: rig.json("last-mix.json")))")
        #expect(Self.changed(monitor, after: t, containing: "double 0.35") != nil)
        t = Date().timeIntervalSince1970
        #expect(try rig.noise(["set", "--master", "0.55"]).status == 0)
        #expect(try rig.playerctl(["volume"]).hasPrefix("0.55"))
        #expect(Self.changed(monitor, after: t, containing: "double 0.55") != nil)
        // Clamped above 1; NaN and infinity refused with InvalidArgs.
        #expect(try rig.gdbus("org.freedesktop.DBus.Properties.Set", [Self.player, "Volume", "<1.7>"]).status == 0)
        #expect(try rig.playerctl(["volume"]).hasPrefix("1.0"))
        #expect(rig.waitFor("status.json") { $0["masterVolume"] as? Double == 1 })
        let inf = try rig.gdbus("org.freedesktop.DBus.Properties.Set", [Self.player, "Volume", "<inf>"])
        #expect(inf.status != 0 && inf.stderrText.contains("InvalidArgs"), "\(inf.stderrText)")
        let readOnly = try rig.gdbus("org.freedesktop.DBus.Properties.Set", [Self.player, "Rate", "<0.5>"])
        #expect(readOnly.status != 0 && readOnly.stderrText.contains("PropertyReadOnly"), "\(readOnly.stderrText)")

        // A timer set over the socket becomes the track length.
        t = Date().timeIntervalSince1970
        _ = try rig.control(#"{"command":"timer","seconds":1800,"fadeSeconds":60}"#)
        #expect(try rig.playerctl(["metadata", "mpris:length"]) == "1800000000")
        #expect(Self.changed(monitor, after: t, containing: "int64 1800000000") != nil)

        // Stop ends the player like `noise stop`: "Stopped" is announced, the name goes away.
        t = Date().timeIntervalSince1970
        try rig.playerctl(["stop"])
        #expect(player.waitForExit(10) == 0)
        #expect(Self.changed(monitor, after: t, containing: "\"Stopped\"") != nil)
        #expect(rig.waitFor("status.json") { $0["state"] as? String == "stopped" })
        #expect(rig.waitFor("last-mix.json") { $0["wasPlaying"] as? Bool == false })
        #expect(try !rig.names().contains("widgetweaver"))
    }

    /// ±15 minutes on the sleep timer from media controls: `playerctl position 900+` (MPRIS
    /// Seek) moves the timer's end later, `900-` earlier, as `noise timer +15m/-15m` do; CanSeek is
    /// true only while a timer runs, and a Seek without one changes nothing.
    @Test func seekMovesTheSleepTimersEnd() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let player = try rig.play(["--preset", "pink"])
        defer { rig.reap(player) }
        #expect(player.waitForStderr(20) { $0.contains("Playing") }, "\(player.stderrText)")
        #expect(rig.waitForName(), "\(player.stderrText)")
        func remaining() -> Double? { rig.json("status.json")?["timerRemainingSeconds"] as? Double }
        let canSeek = {
            try rig.bus.run(
                "/usr/bin/busctl",
                [
                    "--user", "get-property", "org.mpris.MediaPlayer2.widgetweaver", "/org/mpris/MediaPlayer2",
                    Self.player, "CanSeek",
                ]
            ).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try canSeek() == "b false")
        try rig.playerctl(["position", "900+"])
        // That no timer starts is the check: a quiet window, failed at the first poll that sees one.
        #expect(throughout(0.5) { remaining() == nil }, "a Seek without a timer started one")

        _ = try rig.control(#"{"command":"timer","seconds":600}"#)
        #expect(rig.waitFor("status.json") { ($0["timerRemainingSeconds"] as? Double ?? 0) > 590 })
        #expect(rig.waitUntil { try canSeek() == "b true" })
        let monitor = try rig.bus.monitor(["type='signal',interface='\(Self.player)',member='Seeked'"])
        defer { monitor.stop() }
        try rig.playerctl(["position", "900+"])
        #expect(
            rig.waitFor("status.json") { ($0["timerRemainingSeconds"] as? Double ?? 0) > 1490 },
            "\(String(describing: remaining()))")
        let afterPlus = remaining() ?? 0
        print("after Seek +900 s: \(afterPlus) s left; length \(try rig.playerctl(["metadata", "mpris:length"]))")
        #expect(afterPlus > 1490 && afterPlus <= 1500)
        #expect(rig.waitUntil { try rig.playerctl(["metadata", "mpris:length"]) == "1500000000" })
        #expect(monitor.waitFor(3) { $0.member == "Seeked" } != nil, "\(monitor.text)")

        // busctl straight: Seek(x -900000000) is 15 minutes less.
        let r = try rig.bus.run(
            "/usr/bin/busctl",
            [
                "--user", "--", "call", "org.mpris.MediaPlayer2.widgetweaver", "/org/mpris/MediaPlayer2", Self.player,
                "Seek",
                "x", "-900000000",
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(rig.waitFor("status.json") { ($0["timerRemainingSeconds"] as? Double ?? 9999) < 601 })
        let afterMinus = remaining() ?? 0
        #expect(afterMinus > 590 && afterMinus <= 600, "\(afterMinus)")

        // Past the end: a second is left (the timer then ends with its fade), never a negative timer.
        try rig.playerctl(["position", "3600-"])
        #expect(player.waitForExit(15) == 0, "\(player.stderrText)")
    }

    /// PropertiesChanged follows every change within 100 ms, whoever made it. The times are the
    /// bus's own: dbus-monitor stamps the method call and the signal on receipt; for socket
    /// requests the start is taken just before the request is written.
    @Test func propertiesChangedWithin100ms() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let monitor = try rig.bus.monitor([
            "type='signal',interface='org.freedesktop.DBus.Properties'",
            "type='method_call',interface='org.mpris.MediaPlayer2.Player'",
            "type='method_call',interface='org.freedesktop.DBus.Properties',member='Set'",
        ])
        defer { monitor.stop() }
        let player = try rig.play(["--preset", "pink"])
        defer { rig.reap(player) }
        #expect(player.waitForStderr(20) { $0.contains("Playing") }, "\(player.stderrText)")
        #expect(rig.waitForName(), "\(player.stderrText)")
        var latencies: [(String, Double)] = []

        // MPRIS commands: method call → signal, both as the monitor saw them.
        for (command, expected) in [
            (["pause"], "\"Paused\""), (["play-pause"], "\"Playing\""), (["next"], "mpris:trackid"),
            (["volume", "0.25"], "double 0.25"),
        ] {
            let t = Date().timeIntervalSince1970
            try rig.playerctl(command)
            let call = try #require(
                monitor.waitFor(3) {
                    $0.kind == "method call" && $0.time >= t
                        && ["Pause", "PlayPause", "Next", "Set"].contains($0.member)
                })
            let signal = try #require(
                Self.changed(monitor, after: call.time, containing: expected),
                "\(command): \(monitor.text.suffix(1500))")
            latencies.append(("mpris " + command.joined(separator: " "), signal.time - call.time))
        }
        // Socket requests (what `noise set/pause/preset/timer` send).
        for (request, expected) in [
            (#"{"command":"setMaster","volume":0.6}"#, "double 0.6"),
            (#"{"command":"pause"}"#, "\"Paused\""), (#"{"command":"resume"}"#, "\"Playing\""),
            (#"{"command":"preset","id":"ocean","crossfadeSeconds":2}"#, "preset/ocean"),
            (#"{"command":"timer","seconds":120,"fadeSeconds":10}"#, "int64 120000000"),
            (#"{"command":"timer","seconds":null}"#, "xesam:title"),
        ] {
            let t = try rig.control(request)
            let signal = try #require(
                Self.changed(monitor, after: t, containing: expected), "\(request): \(monitor.text.suffix(1500))")
            latencies.append(("socket " + request, signal.time - t))
        }
        for (what, seconds) in latencies {
            print("PropertiesChanged after \(what): \(String(format: "%.1f", seconds * 1000)) ms")
        }
        let worst = latencies.map(\.1).max() ?? 1
        print(
            """
            PropertiesChanged worst latency: \(String(format: "%.1f", worst * 1000)) ms over \(latencies.count) \
            changes
            """
        )
        #expect(worst < 0.1, "\(latencies)")
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }

    @Test func noBusPlaysUnchangedWithOneInfoLine() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let player = try rig.play(
            ["--preset", "brown"], extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(rig.pulse.directory.path)/no-bus"])
        defer { rig.reap(player) }
        #expect(player.waitForStderr(20) { $0.contains("MPRIS: no session bus") }, "\(player.stderrText) \(rig.env)")
        #expect(
            rig.waitFor("status.json") {
                $0["state"] as? String == "playing" && ($0["levelDbfs"] as? Double ?? -120) > -60
            })
        #expect(try rig.noise(["pause"]).status == 0)
        #expect(rig.waitFor("status.json") { $0["state"] as? String == "paused" })
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
        #expect(player.stderrText.components(separatedBy: "MPRIS").count == 2, "\(player.stderrText)")
    }

    @Test func noMprisStaysOffTheBus() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let player = try rig.play(["--preset", "brown", "--no-mpris"])
        defer { rig.reap(player) }
        #expect(player.waitForStderr(20) { $0.contains("Playing") })
        #expect(rig.waitFor("status.json") { $0["state"] as? String == "playing" })
        // That no MPRIS name appears is the check: a quiet window, failed at the first poll that sees one.
        #expect(throughout(0.5) { (try? rig.names())?.contains("mpris") == false })
        #expect(!player.stderrText.contains("MPRIS"))
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }

    /// The name is taken (another player on the same bus): this one owns `….instance<pid>`, and
    /// without the desktop file installed it reports no DesktopEntry.
    @Test func takenNameFallsBackToInstancePid() throws {
        let rig = try Rig(desktopFile: false)
        defer { rig.stop() }
        let first = try rig.play(["--preset", "sleep"])
        defer { rig.reap(first) }
        #expect(rig.waitForName(), "\(first.stderrText)")
        // A second user session's player on the same bus: its own socket and store.
        let other = rig.pulse.directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(
            at: other.appendingPathComponent("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let second = try rig.play(
            ["--preset", "ocean"],
            extra: TestStore(at: other.appendingPathComponent("store")).environment([
                "XDG_RUNTIME_DIR": other.appendingPathComponent("run").path,
                "PULSE_SERVER": "unix:\(rig.pulse.directory.path)/run/pulse/native",
            ]))
        defer { rig.reap(second) }
        let instance = "org.mpris.MediaPlayer2.widgetweaver.instance\(second.processIdentifier)"
        #expect(rig.waitForName(instance + "'"), "\(second.stderrText)")
        let title = try rig.bus.run(
            "/usr/bin/playerctl", ["-p", "widgetweaver.instance\(second.processIdentifier)", "metadata", "xesam:title"])
        #expect(title.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "Ocean")
        let entry = try rig.gdbus(
            "org.freedesktop.DBus.Properties.Get", ["org.mpris.MediaPlayer2", "DesktopEntry"], name: instance)
        #expect(
            entry.status != 0 && entry.stderrText.contains("UnknownProperty"), "\(entry.stdoutText) \(entry.stderrText)"
        )
        // Quit stops like `noise stop`.
        #expect(try rig.gdbus("org.mpris.MediaPlayer2.Quit", [], name: instance).status == 0)
        #expect(second.waitForExit(10) == 0)
        #expect(try rig.playerctl(["status"]) == "Playing")
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(first.waitForExit(10) == 0)
    }

    @Test func busGoingAwayMidPlayKeepsPlaying() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let player = try rig.play(["--preset", "pink"])
        defer { rig.reap(player) }
        #expect(rig.waitForName(), "\(player.stderrText)")
        rig.bus.stop()
        #expect(player.waitForStderr(20) { $0.contains("MPRIS: lost the session bus") }, "\(player.stderrText)")
        let recorder = try rig.pulse.record(to: rig.pulse.directory.appendingPathComponent("after.wav"))
        recorder.waitForAudio(1)  // the recording's length: a second of what plays
        let rec = try recorder.stop()
        #expect(TestRender.rms(rec.channels[0][...]) > 0.005, "no sound after the bus went away")
        #expect(try rig.noise(["set", "--master", "0.4"]).status == 0)
        #expect(
            rig.waitFor("status.json") { $0["state"] as? String == "playing" && $0["masterVolume"] as? Double == 0.4 })
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }
}

extension MPRISTests {
    /// Issue 28 item 23: the session bus restarts mid-play (a new dbus-daemon on the same socket):
    /// the player rejoins it within a few seconds, and playerctl and busctl drive it again.
    @Test func rejoinsTheSessionBusWhenItRestarts() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let player = try rig.play(["--preset", "pink"])
        defer { rig.reap(player) }
        #expect(rig.waitForName(), "\(player.stderrText)")
        try rig.bus.restart()
        #expect(player.waitForStderr(20) { $0.contains("MPRIS: lost the session bus") }, "\(player.stderrText)")
        let start = Date()
        #expect(rig.waitForName(), "not back on the restarted bus: \(player.stderrText)")
        print("rejoined the restarted bus after \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
        #expect(
            player.waitForStderr(5) {
                $0.contains("MPRIS: back on the session bus as org.mpris.MediaPlayer2.widgetweaver.")
            },
            "\(player.stderrText)")
        #expect(try rig.playerctl(["status"]) == "Playing")
        try rig.playerctl(["pause"])
        #expect(rig.waitFor("status.json") { $0["state"] as? String == "paused" })
        let volume = try rig.bus.run(
            "/usr/bin/busctl",
            [
                "--user", "set-property", "org.mpris.MediaPlayer2.widgetweaver", "/org/mpris/MediaPlayer2",
                Self.player, "Volume", "d", "0.4",
            ])
        #expect(volume.status == 0, "\(volume.stderrText)")
        #expect(rig.waitFor("status.json") { $0["masterVolume"] as? Double == 0.4 })
        let read = try rig.bus.run(
            "/usr/bin/busctl",
            [
                "--user", "get-property", "org.mpris.MediaPlayer2.widgetweaver", "/org/mpris/MediaPlayer2", Self.player,
                "PlaybackStatus",
            ])
        #expect(read.stdoutText.contains("\"Paused\""), "\(read.stdoutText) \(read.stderrText)")
        // A second restart is survived as well.
        try rig.bus.restart()
        #expect(
            player.waitForStderr(20) { $0.components(separatedBy: "MPRIS: back on the session bus").count == 3 },
            "\(player.stderrText)")
        #expect(try rig.playerctl(["status"]) == "Paused")
        #expect(try rig.noise(["stop"]).status == 0)
        #expect(player.waitForExit(10) == 0)
    }

    /// A sleep timer is the track: length = the timer, Position = time elapsed, and when it ends
    /// "Stopped" is announced before the name goes away.
    @Test func sleepTimerIsTheTrackLengthAndItsEndIsAnnounced() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let monitor = try rig.bus.monitor(["type='signal',interface='org.freedesktop.DBus.Properties'"])
        defer { monitor.stop() }
        let player = try rig.play(["--preset", "white", "--timer", "4s", "--fade", "1s"])
        defer { rig.reap(player) }
        #expect(rig.waitForName(), "\(player.stderrText)")
        #expect(try rig.playerctl(["metadata", "mpris:length"]) == "4000000")
        let p1 = Double(try rig.playerctl(["position"])) ?? -1
        // The position moves with the clock: the next reading past the first.
        let p2 =
            Wait.until(3, interval: 0.1) { () -> Double? in
                let p = Double((try? rig.playerctl(["position"])) ?? "") ?? -1
                return p > p1 ? p : nil
            } ?? -1
        #expect(p1 >= 0 && p2 > p1 && p2 <= 4, "positions \(p1), \(p2)")
        #expect(player.waitForExit(15) == 0, "\(player.stderrText)")
        #expect(player.stderrText.contains("Sleep timer ended."))
        #expect(
            monitor.waitFor(2) { $0.member == "PropertiesChanged" && $0.body.contains("\"Stopped\"") } != nil,
            "\(monitor.text.suffix(1500))")
        #expect(try !rig.names().contains("widgetweaver"))
    }
}
