import Foundation
import Synchronization
import TestSupport
import Testing

/// `weaver weather|calendar|steps` run as a user would, against a loopback server.
@Suite("weaver weather / calendar / steps command line")
struct DataCommandTests {
    let home: URL
    let config: URL

    init() throws {
        home = try Products.temporaryDirectory("data-cli")
        config = try Products.temporaryDirectory("data-cli-config")
    }

    func weaver(_ arguments: [String], environment: [String: String] = [:]) throws -> Products.Result {
        try Products.run(
            "weaver", arguments,
            environment: TestStore(at: home).environment([
                "XDG_CONFIG_HOME": config.path, "TZ": "UTC", "WIDGETWEAVER_OPEN_METEO_URL": "",
            ]).merging(environment) { $1 })
    }

    @Test func weatherFromLocationToKeys() throws {
        let failing = Mutex(false)
        let server = try DataFixtures.openMeteo(failingWith: "down") { failing.withLock { $0 } }
        defer { server.stop() }
        let base = ["--base-url", server.baseURL]
        let at = ["--now", "2026-01-24T09:30:00Z"]

        let springfield = try weaver(["weather", "location", "set", "Springfield"] + base)
        #expect(springfield.status == 1)
        #expect(springfield.stderrText.contains("'Springfield' matches 3 places; choose one with --pick N"))
        #expect(
            springfield.stderrText.contains(
                "3. Springfield, Illinois, United States (39.8017, -89.6437), population 116250"))
        #expect(try weaver(["weather", "location", "set", "Springfield", "--pick", "3"] + base).status == 0)
        #expect(try weaver(["weather", "location", "show"]).stdoutText.contains("latitude\t39.80172"))

        let set = try weaver(["weather", "location", "set", "Dublin"] + base)
        #expect(set.status == 0)
        #expect(set.stdoutText.hasPrefix("Location: Dublin, Leinster, Ireland (53.3331, -6.2489)\n"))
        #expect(set.stderrText.contains("also called 'Dublin': Dublin, California, United States"))
        let nowhere = try weaver(["weather", "location", "set", "Qwxyz"] + base)
        #expect(nowhere.status == 1 && nowhere.stderrText.contains("no place called 'Qwxyz'"))

        let refresh = try weaver(["weather", "refresh"] + base + at)
        #expect(refresh.status == 0)
        #expect(refresh.stdoutText.hasPrefix("Dublin: Cloudy, 7°C (H 9° L 3°) · "))
        #expect(refresh.stdoutText.contains("· Rain in 15m · Moderate rain\n"))
        let keys = try weaver([
            "vars", "render", "--locale", "en_GB", "--tz", "Europe/Dublin", "--now", "2026-01-24T09:31:00Z",
            """
            {{__weather_location}}: {{__weather_temp}}° {{__weather_condition}} [{{__weather_symbol}}] H \
            {{__weather_high}} L {{__weather_low}} · {{__weather_humidity}}% · feels {{__weather_feels_f}}°F · \
            {{__weather_nowcast}} at {{__weather_rain_start}}
            """,
        ])
        // Worded at the render's clock (09:31), one minute after the fetch: the start time stays 09:45.
        #expect(
            keys.stdoutText == """
                Dublin: 7° Cloudy [cloud.fill] H 9 L 3 · 82% · feels 39°F · Rain in 14m at 09:45\n
                """)

        // Within 10 minutes: no request, exit 0 (timers call this).
        let count = server.requests.count
        let again = try weaver(["weather", "refresh"] + base + at)
        #expect(again.status == 0 && again.stdoutText.hasPrefix("Not fetched: the last request was 0 min ago"))
        #expect(server.requests.count == count)

        // The environment variable points at the server too; a failure keeps the snapshot and says how old it is.
        failing.withLock { $0 = true }
        let failed = try weaver(
            ["weather", "refresh", "--force", "--retries", "0"] + at,
            environment: ["WIDGETWEAVER_OPEN_METEO_URL": server.baseURL])
        #expect(failed.status == 1)
        #expect(failed.stderrText.contains("answered HTTP 500"))
        #expect(failed.stderrText.contains("Kept the last snapshot, from 0 min ago"))
        #expect(try weaver(["vars", "render", "--locale", "en_GB", "{{__weather_temp_c}}"]).stdoutText == "7\n")

        let badURL = try weaver(["weather", "refresh", "--base-url", "ftp://example.org"])
        #expect(
            badURL.status == 64 && badURL.stderrText.contains("'--base-url' must be an http:// or https:// address"))
    }

    /// The Forecast template from a snapshot the refresh wrote: the days' highs and lows, the
    /// real hourly temperatures as curves, and the stale rules at 4 and 7 hours.
    @Test func forecastTemplateDrawsTheRefreshedSnapshot() throws {
        let server = try DataFixtures.openMeteo()
        defer { server.stop() }
        let base = ["--base-url", server.baseURL]
        #expect(try weaver(["weather", "location", "set", "Dublin"] + base).status == 0)
        #expect(try weaver(["weather", "refresh", "--now", "2026-01-24T09:30:00Z"] + base).status == 0)
        func render(_ now: String, _ format: String) throws -> String {
            let r = try weaver([
                "render", "--template", "forecast", "--family", "medium", "--format", format,
                "--now", now, "--tz", "UTC", "--locale", "en_GB",
            ])
            #expect(r.status == 0, "\(r.stderrText)")
            return r.stdoutText
        }
        let fresh = try render("2026-01-24T09:40:00Z", "txt")
        #expect(fresh.hasPrefix("Dublin\nSat 9°/3° "), "\(fresh)")
        #expect(fresh.contains("Now 7° Cloudy") && fresh.contains("Updated 10 mins ago"), "\(fresh)")
        // The recording has two days: the other two are "?", not 0°.
        #expect(fresh.contains("Mon ?/? ? rain ?"), "\(fresh)")
        let layout = try render("2026-01-24T09:40:00Z", "json")
        #expect(layout.components(separatedBy: "\"kind\": \"line\"").count - 1 >= 2 * 17, "the two days' hourly curves")
        #expect(try render("2026-01-24T13:40:00Z", "txt").contains("Now – Cloudy"))
        let old = try render("2026-01-24T16:40:00Z", "txt")
        #expect(old.contains("Now ? ?") && old.contains("Sat ?/? ? rain ?"), "\(old)")
    }

    /// Issue 26: a refresh that fails is visible on the widget, and a snapshot that cannot be read
    /// costs nothing but itself: the location lives in its own file and the next refresh works.
    @Test func failedRefreshShowsOnTheWidgetAndACorruptSnapshotKeepsTheLocation() throws {
        let failing = Mutex(false)
        let server = try DataFixtures.openMeteo(failingWith: "down") { failing.withLock { $0 } }
        defer { server.stop() }
        let base = ["--base-url", server.baseURL, "--retries", "0"]
        #expect(try weaver(["weather", "location", "set", "Dublin"] + base.prefix(2)).status == 0)
        let locationFile = home.appendingPathComponent("weather-location.json")
        #expect(FileManager.default.fileExists(atPath: locationFile.path))
        #expect(try weaver(["weather", "refresh", "--now", "2026-01-24T09:30:00Z"] + base).status == 0)
        func render(_ family: String, at now: String) throws -> String {
            try weaver([
                "render", "--template", "weather", "--family", family, "--format", "txt", "--now", now, "--tz", "UTC",
            ]).stdoutText
        }
        let fine = try render("medium", at: "2026-01-24T09:44:00Z")
        #expect(fine.contains("Updated 14 mins ago") && !fine.contains("Update failed"))

        // The server answers 500: the snapshot is kept, and the widget says the update failed and
        // how old its data is.
        failing.withLock { $0 = true }
        let failed = try weaver(["weather", "refresh", "--force", "--now", "2026-01-24T09:45:00Z"] + base)
        #expect(failed.status == 1 && failed.stderrText.contains("answered HTTP 500"))
        let medium = try render("medium", at: "2026-01-24T09:46:00Z")
        #expect(medium.contains("Updated 16 mins ago · Update failed"), "\(medium)")
        let small = try render("small", at: "2026-01-24T09:46:00Z")
        #expect(small.contains("Update failed"), "\(small)")
        // Older than three hours: greyed and saying so.
        #expect(try render("medium", at: "2026-01-24T12:40:00Z").contains("Weather data is old"))

        // A corrupt snapshot: the refresh warns naming it and where it went, keeps the location and succeeds.
        failing.withLock { $0 = false }
        let snapshot = home.appendingPathComponent("snapshots/weather.json")
        try Data("{\"schemaVersion\": 1, \"location\": {\"name\": ".utf8).write(to: snapshot)
        let healed = try weaver(["weather", "refresh", "--force", "--now", "2026-01-24T10:00:00Z"] + base)
        #expect(healed.status == 0, "\(healed.stderrText)")
        #expect(
            healed.stderrText.contains("\(snapshot.path) could not be read")
                && healed.stderrText.contains("it was moved to"))
        #expect(healed.stdoutText.hasPrefix("Dublin: Cloudy"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: snapshot.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("weather.json.") }
        #expect(aside.count == 1, "the unreadable file is kept: \(aside)")
        #expect(try render("medium", at: "2026-01-24T10:01:00Z").contains("Dublin"))
    }

    /// A store from before the location had its own file: the first command that reads the
    /// location writes `weather-location.json` from the snapshot's copy.
    @Test func anExistingLocationMovesToItsOwnFile() throws {
        let server = try DataFixtures.openMeteo()
        defer { server.stop() }
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        try Data(
            #"""
            {"schemaVersion": 1, "location": {"name": "Dublin", "latitude": 53.33306, "longitude": -6.24889, \#
            "updatedAt": "2026-01-24T09:00:00Z"}, "refresh": {}, "attribution": {"name": "Open-Meteo", "url": \#
            "https://open-meteo.com/", "licence": "CC BY 4.0"}}
            """#
            .utf8
        )
        .write(to: home.appendingPathComponent("snapshots/weather.json"))
        let refresh = try weaver(["weather", "refresh", "--base-url", server.baseURL, "--now", "2026-01-24T09:30:00Z"])
        #expect(refresh.status == 0, "\(refresh.stderrText)")
        let moved = try String(contentsOf: home.appendingPathComponent("weather-location.json"), encoding: .utf8)
        #expect(moved.contains("\"name\" : \"Dublin\"") && moved.contains("53.33306"))
    }

    @Test func weatherWithoutLocationSaysHowToSetOne() throws {
        let r = try weaver(["weather", "refresh", "--base-url", "http://127.0.0.1:9"])
        #expect(r.status == 1 && r.stderrText.contains("weaver weather location set \"Dublin\""))
    }

    @Test func autorefreshInstallsATimerOrALoginLoop() throws {
        let store = home.appendingPathComponent("my store%1").path
        let on = try weaver(["weather", "autorefresh", "enable", "--method", "systemd", "--store", store])
        #expect(on.status == 0)
        let service = try String(
            contentsOf: config.appendingPathComponent("systemd/user/widgetweaver-data.service"), encoding: .utf8)
        #expect(
            service.contains(
                """
                \" \"weather\" \"refresh\" \"--quiet\" \"--store\" \
                \"\(store.replacingOccurrences(of: "%", with: "%%"))\"
                """
            ))
        let timer = try String(
            contentsOf: config.appendingPathComponent("systemd/user/widgetweaver-data.timer"), encoding: .utf8)
        #expect(timer.contains("OnUnitActiveSec=30min"))
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(
                atPath: config.appendingPathComponent("systemd/user/timers.target.wants/widgetweaver-data.timer").path))
                == "../widgetweaver-data.timer")

        // Switching to XDG removes the systemd files: one refresher only.
        #expect(try weaver(["weather", "autorefresh", "enable", "--method", "xdg"]).status == 0)
        #expect(
            !FileManager.default.fileExists(
                atPath: config.appendingPathComponent("systemd/user/widgetweaver-data.timer").path))
        let desktop = try String(
            contentsOf: config.appendingPathComponent("autostart/widgetweaver-data.desktop"), encoding: .utf8)
        #expect(desktop.contains("Exec=\"/bin/sh\" -c \"while :; do '") && desktop.contains("sleep 1800; done\""))
        let off = try weaver(["weather", "autorefresh", "disable"])
        #expect(off.status == 0 && off.stdoutText.contains("Automatic refresh is off."))
        #expect(
            !FileManager.default.fileExists(
                atPath: config.appendingPathComponent("autostart/widgetweaver-data.desktop").path))
    }

    /// Both tools hand the same store to what they install: with only `$WIDGETWEAVER_HOME` set,
    /// `weaver weather autorefresh` and `noise autostart` write `--store <that folder>` into their
    /// units (the refresh timer used to leave it out and refresh the default store instead).
    @Test func loginEntriesOfBothToolsNameTheStoreFromTheEnvironment() throws {
        #expect(try weaver(["weather", "autorefresh", "enable", "--method", "systemd"]).status == 0)
        let service = try String(
            contentsOf: config.appendingPathComponent("systemd/user/widgetweaver-data.service"), encoding: .utf8)
        let noise = try Products.run(
            "noise", ["autostart", "enable", "--method", "systemd"],
            environment: TestStore(at: home).environment([
                "XDG_CONFIG_HOME": config.path, "XDG_RUNTIME_DIR": home.path,
            ]))
        #expect(noise.status == 0, "\(noise.stderrText)")
        let units = try FileManager.default.contentsOfDirectory(
            atPath: config.appendingPathComponent("systemd/user").path)
        let player = try #require(
            units.first { $0.hasPrefix("widgetweaver-noise") && $0.hasSuffix(".service") }, "\(units)")
        let playerUnit = try String(
            contentsOf: config.appendingPathComponent("systemd/user/\(player)"), encoding: .utf8)
        let word = "\"--store\" \"\(home.standardizedFileURL.path)\""
        #expect(service.contains(word), "\(service)")
        #expect(playerUnit.contains(word), "\(playerUnit)")
    }

    /// `calendar add` shows the first five warnings and counts the rest, as `refresh` does.
    @Test func calendarAddCountsTheWarningsItDoesNotShow() throws {
        let events = (1...7).map { i in
            """
            BEGIN:VEVENT\r\nUID:bad\(i)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260126T1\(i)0000Z\r\nDTEND:nonsense\r\
            \nSUMMARY:Bad \
            \(i)\r\nEND:VEVENT\r\n
            """
        }.joined()
        let file = home.appendingPathComponent("bad-ends.ics")
        try Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ww//test//EN\r\nX-WR-CALNAME:Bad\r\n\(events)END:VCALENDAR\r\n"
                .utf8
        ).write(to: file)
        let add = try weaver(["calendar", "add", file.path])
        #expect(add.status == 0, "\(add.stderrText)")
        let shown = add.stderrText.split(separator: "\n").filter { $0.hasPrefix("warning: Bad: ") }
        #expect(shown.count == 6 && shown.last == "warning: Bad: 2 more warnings", "\(add.stderrText)")
    }

    /// A calendar over the one limit (the CLI's 32 MiB, also the browser upload's and a download's)
    /// is refused in MiB with one decimal, as the issue's user read it. Before issue 41: "file is
    /// 52429162 bytes; the limit is 33554432 bytes" here and 16 MiB in the browser.
    @Test func calendarAddSaysAnOversizedFileInMiB() throws {
        let file = home.appendingPathComponent("huge.ics")
        let header = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ww//test//EN\r\n"
        var bytes = Data(header.utf8)
        bytes.append(Data(repeating: 0x20, count: 52_429_162 - bytes.count))
        try bytes.write(to: file)
        let add = try weaver(["calendar", "add", file.path])
        #expect(add.status == 1, "\(add.stdoutText)")
        #expect(add.stderrText.contains("50.0 MiB; the limit is 32.0 MiB"), "\(add.stderrText)")
        #expect(!add.stderrText.contains("52429162"), "\(add.stderrText)")
        #expect(try weaver(["calendar", "list"]).stdoutText.contains("huge") == false)
    }

    @Test func calendarAndStepsCommands() throws {
        let file = home.appendingPathComponent("work.ics")
        try Data(DataFixtures.workCalendar.utf8).write(to: file)
        let add = try weaver(["calendar", "add", file.path])
        #expect(add.status == 0 && add.stdoutText.hasPrefix("Added 'Work' (id work): 3 events in \(file.path)"))
        #expect(try weaver(["calendar", "list"]).stdoutText.hasPrefix("work\tWork\t3 events\tnever refreshed\t"))
        let refresh = try weaver(["calendar", "refresh", "--now", "2026-01-24T09:30:00Z", "--tz", "Europe/Dublin"])
        #expect(refresh.status == 0)
        #expect(
            refresh.stdoutText.hasPrefix(
                "Next: Stand-up — Mon 26 Jan 10:00 · Room 2\nThen: Design review — Mon 26 Jan 15:00\n"))
        let keys = try weaver([
            "vars", "render", "--now", "2026-01-26T09:50:00Z", "--tz", "Europe/Dublin", "--locale", "en_GB",
            """
            {{__calendar_next_title}} {{__calendar_next_label}} ({{__calendar_next_countdown}}) \
            {{__calendar_next_range}}
            """,
        ])
        #expect(keys.stdoutText == "Stand-up In 10 min (10m) 10:00–10:15\n")
        #expect(try weaver(["calendar", "remove", "work"]).status == 0)
        let empty = try weaver(["calendar", "refresh"])
        #expect(empty.status == 1 && empty.stderrText.contains("no calendars yet"))

        let csv = home.appendingPathComponent("steps.csv")
        try Data("date,steps\n2026-01-23,9000\n2026-01-24,twelve\n".utf8).write(to: csv)
        let bad = try weaver(["steps", "import", csv.path])
        #expect(bad.status == 1)
        #expect(
            bad.stderrText.contains(
                "Error: steps.csv line 3, field 'steps': 'twelve' is not a whole number in 0…200000"))
        try Data("date,steps\n2026-01-23,9000\n2026-01-24,12000\n".utf8).write(to: csv)
        let good = try weaver(["steps", "import", csv.path, "--now", "2026-01-24T20:00:00Z", "--tz", "UTC"])
        #expect(good.status == 0 && good.stdoutText.contains("Today (2026-01-24): 12000 steps"))
        #expect(
            try weaver(["steps", "goal", "8000", "--weekend", "5000"]).stdoutText
                == "Goal: 8000 steps on weekdays, 5000 at weekends\n")
        #expect(try weaver(["steps", "goal", "0"]).status == 64)
        #expect(
            try weaver([
                "vars", "render", "--now", "2026-01-24T20:00:00Z", "--tz", "UTC",
                "{{__steps_today}}/{{__steps_goal_today}} {{__steps_goal_hit_today}} streak {{__steps_streak}}",
            ]).stdoutText
                == "12000/5000 true streak 2\n")
    }

    /// An exporter's steps.json with fractional steps (sums of several sources): the `__steps_*`
    /// keys read it, so `weaver steps goal` keeps it and writes the goal into it (it used to set the
    /// file aside as unreadable and start an empty one).
    @Test func aGoalKeepsAStepsFileWithFractionalSteps() throws {
        let snapshots = home.appendingPathComponent("snapshots", isDirectory: true)
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        let file = snapshots.appendingPathComponent("steps.json")
        try Data(
            """
            {"schemaVersion": 1, "access": "authorized", "today": {"date": "2026-01-24", "steps": 6500.6},
             "history": [{"date": "2026-01-23", "steps": 9000.4}]}
            """.utf8
        ).write(to: file)
        let render = [
            "vars", "render", "--now", "2026-01-24T20:00:00Z", "--tz", "UTC",
            "{{__steps_today}} of {{__steps_goal_today}}",
        ]
        #expect(try weaver(render).stdoutText == "6501 of 10000\n")
        let goal = try weaver(["steps", "goal", "8000"])
        #expect(goal.status == 0 && goal.stdoutText == "Goal: 8000 steps on weekdays, 8000 at weekends\n")
        #expect(goal.stderrText.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: snapshots.path)
        #expect(names.filter { $0.hasPrefix("steps") } == ["steps.json"])
        #expect(try weaver(render).stdoutText == "6501 of 8000\n")
    }

    /// `weaver reminders add/list/refresh/remove`, the `__reminders_*` keys, and a row of the
    /// Reminders widget pressed with `weaver tap`: the todo.txt line is completed, nothing else.
    @Test func remindersCommandsAndATapThatCompletesARow() throws {
        let todo = home.appendingPathComponent("todo.txt")
        try DataFixtures.data("todo.txt").write(to: todo)
        let ics = home.appendingPathComponent("household.ics")
        try DataFixtures.data("tasks-evolution.ics").write(to: ics)
        let add = try weaver(["reminders", "add", todo.path])
        #expect(
            add.status == 0 && add.stdoutText.hasPrefix("Added 'todo' (id todo, todo.txt): 9 tasks in \(todo.path)"),
            "\(add.stderrText)")
        #expect(add.stderrText == "warning: todo: line 10: due:2026-02-30 is not a YYYY-MM-DD date; ignored\n")
        #expect(
            try weaver(["reminders", "add", ics.path]).stdoutText.hasPrefix(
                "Added 'Household' (id household, iCalendar): 3 tasks"))
        let notTasks = try weaver(["reminders", "add", home.appendingPathComponent("nothing.txt").path])
        #expect(notTasks.status == 1 && notTasks.stderrText.contains("nothing.txt: no such file"))
        #expect(
            try weaver(["reminders", "list"]).stdoutText.hasPrefix("todo\ttodo\ttodotxt\t9 tasks\tnever refreshed\t"))
        let refresh = try weaver(["reminders", "refresh", "--now", "2026-01-24T09:30:00Z", "--tz", "Europe/Dublin"])
        #expect(refresh.status == 0, "\(refresh.stderrText)")
        #expect(refresh.stdoutText.hasPrefix("Open: 10 · due today: 3 · overdue: 2\n"), "\(refresh.stdoutText)")
        let keys = try weaver([
            "vars", "render", "--now", "2026-01-24T12:00:00Z", "--tz", "Europe/Dublin",
            """
            {{__reminders_overdue_count}} overdue, {{__reminders_today_count}} today, next \
            {{__reminders_next_title}} ({{__reminders_next_due}}), {{__reminders_progress}}
            """,
        ])
        #expect(
            keys.stdoutText == "2 overdue, 3 today, next Renew car insurance (2026-01-22), 0/5\n", "\(keys.stderrText)")

        // The widget at the real clock (the refresh's own, so the snapshot is fresh): every
        // January task is overdue; the tap completes the row under the point.
        #expect(try weaver(["reminders", "refresh", "--tz", "Europe/Dublin", "--quiet"]).status == 0)
        let json = try weaver([
            "render", "--template", "reminders", "--family", "large", "--format", "json", "--tz", "Europe/Dublin",
        ])
        #expect(json.status == 0, "\(json.stderrText)")
        let tree = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let actions = try #require(tree["actions"] as? [[String: Any]])
        let row = try #require(actions.first { $0["reminderID"] as? String == "todo:2" }, "\(actions)")
        #expect(
            row["kind"] as? String == "completeReminder" && row["title"] as? String == "Complete Renew car insurance")
        let r = try #require(row["rect"] as? [String: Any]).mapValues { ($0 as? NSNumber)?.doubleValue ?? .nan }
        let before = try Data(contentsOf: todo)
        let tap = try weaver([
            "tap", "--template", "reminders", "--family", "large", "--tz", "Europe/Dublin",
            "--at", "\(Int(r["x"]! + r["width"]! / 2)),\(Int(r["y"]! + r["height"]! / 2))",
        ])
        #expect(
            tap.status == 0 && tap.stdoutText.contains("Completed 'Renew car insurance' (line 2)."),
            "\(tap.stdoutText) \(tap.stderrText)")
        let after = String(decoding: try Data(contentsOf: todo), as: UTF8.self).components(separatedBy: "\n")
        let old = String(decoding: before, as: UTF8.self).components(separatedBy: "\n")
        #expect(after.count == old.count && after.indices.filter { after[$0] != old[$0] } == [1])
        #expect(
            after[1].hasPrefix("x 20")
                && after[1].hasSuffix(" Renew car insurance +Car due:2026-01-22 t:2026-01-15 pri:B"))
        // The completed row is no longer an action.
        let again = try weaver([
            "render", "--template", "reminders", "--family", "large", "--format", "json", "--tz", "Europe/Dublin",
        ])
        #expect(!again.stdoutText.contains("\"todo:2\""))

        #expect(try weaver(["reminders", "remove", "household"]).status == 0)
        #expect(try weaver(["reminders", "remove", "household"]).status == 1)
    }
}
