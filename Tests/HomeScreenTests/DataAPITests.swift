import Foundation
import TestSupport
import Testing

/// A calendar with one event tomorrow and one the day after (so Next Up has something to show
/// whenever the test runs).
enum CalendarFixture {
    static func ics(now: Date = Date()) -> Data {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let start1 = f.string(from: now.addingTimeInterval(86_400)),
            end1 = f.string(from: now.addingTimeInterval(86_400 + 3_600))
        let start2 = f.string(from: now.addingTimeInterval(2 * 86_400)),
            end2 = f.string(from: now.addingTimeInterval(2 * 86_400 + 3_600))
        return Data(
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//WidgetWeaver tests//EN\r
            X-WR-CALNAME:Team\r
            BEGIN:VEVENT\r
            UID:one@test\r
            DTSTAMP:\(start1)\r
            DTSTART:\(start1)\r
            DTEND:\(end1)\r
            SUMMARY:Design review\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:two@test\r
            DTSTAMP:\(start2)\r
            DTSTART:\(start2)\r
            DTEND:\(end2)\r
            SUMMARY:Planning\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8)
    }
}

/// Steps for the last `days` days ending yesterday: every third day under the 10,000 default goal,
/// the others over it.
enum StepsFixture {
    static func csv(days: Int = 120, now: Date = Date()) -> Data {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd"
        var text = "date,steps\n"
        for i in stride(from: days, through: 1, by: -1) {
            text +=
                """
                \(f.string(from: now.addingTimeInterval(-Double(i) * 86_400))),\
                \(i % 3 == 0 ? 4_000 + i : 10_500 + i * 10)\n
                """
        }
        return Data(text.utf8)
    }
}

/// The Data API against a real `weaver serve`: each action is checked against what the `weaver`
/// verbs read from the store afterwards, and refusals against the CLI's own messages.
@Suite(.serialized)
struct DataAPITests {
    @Test func weatherByNameWithTheChoicesListedThenRefreshed() throws {
        let meteo = try DataFixtures.openMeteo()
        defer { meteo.stop() }
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI(environment: ["WIDGETWEAVER_OPEN_METEO_URL": meteo.baseURL])

        // An ambiguous name lists the places; a pick chooses one.
        let ambiguous = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/location", #"{"name":"Springfield"}"#, token: token)
        #expect(ambiguous.status == 409, "\(ambiguous.text)")
        let choices = ambiguous.json()?["choices"] as? [[String: Any]] ?? []
        #expect(
            choices.count >= 2 && (choices.first?["label"] as? String ?? "").contains("Missouri"), "\(ambiguous.text)")
        let picked = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/location", #"{"name":"Springfield","pick":2}"#, token: token)
        #expect(picked.status == 200, "\(picked.text)")
        #expect((try rig.weaver(["weather", "location", "show"])).stdoutText.contains("Springfield"))
        let nowhere = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/location", #"{"name":"Qwzxv"}"#, token: token)
        #expect(nowhere.status == 422 && nowhere.json()?["field"] as? String == "name", "\(nowhere.text)")

        let dublin = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/location", #"{"name":"Dublin"}"#, token: token)
        #expect(dublin.status == 200, "\(dublin.text)")
        let refreshed = try LibraryAPITests.send(rig, "POST", "/api/data/weather/refresh", token: token)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(meteo.requests.contains { $0.path == "/v1/forecast" })
        let shown = try rig.weaver(["weather", "show"])
        #expect(shown.stdoutText.contains("Dublin"), "\(shown.stdoutText) \(shown.stderrText)")
        let page = try RawHTTP.send(port: rig.port, path: "/data")
        #expect(page.text.contains("id=\"weather-location\">Dublin<"), "\(page.text.prefix(3000))")
        #expect(page.text.contains("Open-Meteo"))
        // Coordinates out of range are refused with the field and the range.
        let bad = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/location", #"{"latitude":91,"longitude":0}"#, token: token)
        #expect(bad.status == 422 && bad.errorText.contains("-90…90"), "\(bad.text)")
    }

    /// The Data page's auto-refresh switch is `weaver weather autorefresh enable|disable`: the API
    /// writes the units the CLI writes (in a private config folder; no systemd runs here, so the
    /// unit files are what is checked), the page shows the state, and the CLI turns off what
    /// the page turned on.
    @Test func autorefreshSwitchIsTheCLIsEnableAndDisable() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let config = rig.store.deletingLastPathComponent().appendingPathComponent("config")
        let token = try rig.startServerForAPI(environment: ["XDG_CONFIG_HOME": config.path])
        let timer = config.appendingPathComponent("systemd/user/widgetweaver-data.timer")
        let service = config.appendingPathComponent("systemd/user/widgetweaver-data.service")
        let desktop = config.appendingPathComponent("autostart/widgetweaver-data.desktop")
        func page() throws -> String { try RawHTTP.send(port: rig.port, path: "/data").text }
        #expect(try page().contains("id=\"autorefresh-switch\">"), "off: the box is not checked")

        let on = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/autorefresh", #"{"on":true,"method":"systemd"}"#, token: token)
        #expect(on.status == 200, "\(on.text)")
        #expect(on.json()?["on"] as? Bool == true && on.json()?["method"] as? String == "systemd", "\(on.text)")
        #expect((on.json()?["message"] as? String ?? "").contains("every 30 minutes"))
        let unit = try String(contentsOf: service, encoding: .utf8)
        // The units refresh the store this server serves, with the `weaver` beside the server.
        #expect(
            unit.contains("/weaver\" \"weather\" \"refresh\" \"--quiet\" \"--store\" \"\(rig.store.path)\""), "\(unit)")
        #expect(try String(contentsOf: timer, encoding: .utf8).contains("OnUnitActiveSec=30min"))
        let onPage = try page()
        #expect(onPage.contains("id=\"autorefresh-switch\" checked>"), "\(onPage)")
        #expect(onPage.contains("<b>on</b> · systemd timer"))

        // Another method replaces the timer (one refresher only), as the CLI's enable does.
        let xdg = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/autorefresh", #"{"on":true,"method":"xdg"}"#, token: token)
        #expect(xdg.status == 200 && xdg.json()?["method"] as? String == "xdg", "\(xdg.text)")
        #expect(!FileManager.default.fileExists(atPath: timer.path))
        #expect(FileManager.default.fileExists(atPath: desktop.path))

        // Refusals: an unknown method names the field and the allowed words; no token, no change.
        let bad = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/autorefresh", #"{"on":true,"method":"cron"}"#, token: token)
        #expect(bad.status == 422 && bad.json()?["field"] as? String == "method", "\(bad.text)")
        #expect(bad.errorText.contains("auto, systemd or xdg"))
        let noToken = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/autorefresh", #"{"on":false}"#, token: nil)
        #expect(noToken.status == 403, "\(noToken.text)")
        #expect(FileManager.default.fileExists(atPath: desktop.path))
        let malformed = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/autorefresh", #"{"on":"yes"}"#, token: token)
        #expect(malformed.status == 400, "\(malformed.text)")

        // Off from the page, then the CLI finds nothing left; on from the page, off from the CLI.
        let off = try LibraryAPITests.send(rig, "POST", "/api/data/weather/autorefresh", #"{"on":false}"#, token: token)
        #expect(off.status == 200 && off.json()?["on"] as? Bool == false, "\(off.text)")
        #expect(off.json()?["message"] as? String == "Automatic refresh is off.")
        #expect(!FileManager.default.fileExists(atPath: desktop.path))
        #expect(try page().contains("<b>off</b>"))
        let cliEnv = rig.env.merging(["XDG_CONFIG_HOME": config.path]) { $1 }
        let cliOff = try Products.run("weaver", ["weather", "autorefresh", "disable"], environment: cliEnv)
        #expect(cliOff.stdoutText.contains("Automatic refresh was not set up."), "\(cliOff.stdoutText)")
        _ = try LibraryAPITests.send(
            rig, "POST", "/api/data/weather/autorefresh", #"{"on":true,"method":"systemd"}"#, token: token)
        let cliOff2 = try Products.run("weaver", ["weather", "autorefresh", "disable"], environment: cliEnv)
        #expect(
            cliOff2.status == 0 && cliOff2.stdoutText.contains("Automatic refresh is off."), "\(cliOff2.stdoutText)")
        #expect(
            !FileManager.default.fileExists(atPath: timer.path) && !FileManager.default.fileExists(atPath: service.path)
        )
    }

    @Test func calendarsAreAddedListedRefreshedAndRemoved() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let up = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/calendar/upload?name=team.ics", Array(CalendarFixture.ics()),
            token: token, type: "text/calendar")
        #expect(up.status == 201, "\(up.text)")
        let list = try rig.weaver(["calendar", "list"])
        #expect(list.stdoutText.contains("Team"), "\(list.stdoutText) \(list.stderrText)")
        let snapshot = try String(
            contentsOf: rig.store.appendingPathComponent("snapshots/calendar.json"), encoding: .utf8)
        #expect(snapshot.contains("Design review"))
        let page = try RawHTTP.send(port: rig.port, path: "/data")
        #expect(page.text.contains("data-calendar-id=\"team\""), "\(page.text.prefix(3000))")

        // Not a calendar: refused with the parser's words, after the file's name, and nothing kept.
        let junk = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/calendar/upload?name=junk.ics", Array("hello".utf8), token: token,
            type: "text/calendar")
        #expect(junk.status == 422, "\(junk.text)")
        let junkFile = rig.store.deletingLastPathComponent().appendingPathComponent("junk.ics")
        try Data("hello".utf8).write(to: junkFile)
        let cli = try rig.weaver(["calendar", "add", junkFile.path])
        let webMessage = junk.errorText.replacingOccurrences(of: "junk.ics", with: junkFile.path)
        #expect(cli.status != 0 && cli.stderrText.contains(webMessage), "web '\(webMessage)' / cli '\(cli.stderrText)'")
        #expect(
            (try FileManager.default.contentsOfDirectory(
                atPath: rig.store.appendingPathComponent("calendars/uploads").path)) == ["team.ics"])
        // A path typed as an address is refused: no request names a file on this machine.
        let path = try LibraryAPITests.send(rig, "POST", "/api/data/calendar", #"{"url":"/etc/passwd"}"#, token: token)
        #expect(path.status == 422, "\(path.text)")

        #expect(try LibraryAPITests.send(rig, "POST", "/api/data/calendar/refresh", token: token).status == 200)
        let removed = try LibraryAPITests.send(rig, "DELETE", "/api/data/calendar/team", token: token)
        #expect(removed.status == 200, "\(removed.text)")
        #expect(!(try rig.weaver(["calendar", "list"])).stdoutText.contains("Team"))
        #expect(
            (try FileManager.default.contentsOfDirectory(
                atPath: rig.store.appendingPathComponent("calendars/uploads").path)).isEmpty)
    }

    @Test func stepsAreImportedTheGoalSetTheHistoryDrawnAndADayPinned() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let imported = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/steps/import?name=steps.csv", Array(StepsFixture.csv()),
            token: token, type: "text/csv")
        #expect(imported.status == 200, "\(imported.text)")
        #expect((imported.json()?["message"] as? String ?? "").hasPrefix("Imported 120 days"))
        let goal = try LibraryAPITests.send(
            rig, "POST", "/api/data/steps/goal", #"{"weekday":8000,"weekend":8000}"#, token: token)
        #expect(goal.status == 200, "\(goal.text)")
        // The built-in keys as `weaver vars keys` prints them ("key<TAB>value").
        let keys = Dictionary(
            try rig.weaver(["vars", "keys"]).stdoutText.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "\t", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { a, _ in a })
        #expect(keys["__steps_goal_weekday"] == "8000", "\(keys)")
        let badGoal = try LibraryAPITests.send(rig, "POST", "/api/data/steps/goal", #"{"weekday":0}"#, token: token)
        #expect(badGoal.status == 422 && badGoal.errorText.contains("1…200000"), "\(badGoal.text)")

        // A bad row: the CLI's message, naming the file, the line and the field.
        let badCSV = Data("date,steps\n2026-01-01,lots\n".utf8)
        let bad = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/data/steps/import?name=bad.csv", Array(badCSV), token: token, type: "text/csv")
        #expect(bad.status == 422)
        let badFile = rig.store.deletingLastPathComponent().appendingPathComponent("bad.csv")
        try badCSV.write(to: badFile)
        let cli = try rig.weaver(["steps", "import", badFile.path])
        let message = bad.json()?["error"] as? String ?? ""
        #expect(
            !message.isEmpty && cli.status != 0 && cli.stderrText.contains(message),
            "web '\(message)' / cli '\(cli.stderrText)'")

        // History: the charts and the insights, which are the `__steps_*` keys.
        let page = try RawHTTP.send(port: rig.port, path: "/data/steps")
        #expect(page.status == 200)
        for id in ["steps-timeline", "steps-month", "steps-heatmap"] {
            #expect(page.text.contains("id=\"\(id)\""), "\(id)")
        }
        #expect(page.text.components(separatedBy: "class=\"bar").count - 1 == 90)
        // Issue 41.19: the axis reads round values with thousands separated (it read "7995"), and the
        // goal line is labelled.
        let labels = page.text.matches(of: /text-anchor="end">([\d,]+)<\/text>/).map { String($0.1) }
        #expect(labels.count >= 3, "\(labels)")
        for label in labels {
            #expect(label.wholeMatch(of: /\d{1,3}(,\d{3})*/) != nil, "axis value \(label) is not grouped")
            #expect((Int(label.replacingOccurrences(of: ",", with: "")) ?? 1) % 500 == 0, "axis value \(label)")
        }
        #expect(page.text.contains(">goal 8,000</text>"), "the goal line has no label")
        let best = keys["__steps_best_day"] ?? "", streak = keys["__steps_streak"] ?? ""
        // The cards group thousands as the axis does (they read "12345").
        #expect(Int(best) ?? 0 >= 1000, "the fixture's best day \(best) should need a separator")
        let bestShown = try #require(page.text.firstMatch(of: /data-insight="best">Best day<b>([\d,]+) on/)).1
        #expect(
            bestShown.wholeMatch(of: /\d{1,3}(,\d{3})+/) != nil
                && bestShown.replacingOccurrences(of: ",", with: "") == best,
            "best \(best) shown as \(bestShown)")
        let avg7 = try #require(page.text.firstMatch(of: /data-insight="avg7">7-day average<b>([^<]*)</)).1
        #expect(avg7.wholeMatch(of: /\d{1,3}(,\d{3})*/) != nil, "7-day average '\(avg7)' is not grouped")
        #expect(page.text.contains("data-insight=\"streak\">Streak<b>\(streak) day"), "streak \(streak)")

        // Pin this day: a design in the Library showing that day.
        let day = try #require(page.text.firstMatch(of: /<option value="(\d{4}-\d{2}-\d{2})">/)).1
        let pinned = try LibraryAPITests.send(rig, "POST", "/api/data/steps/pin", #"{"date":"\#(day)"}"#, token: token)
        #expect(pinned.status == 201, "\(pinned.text)")
        #expect(try LibraryAPITests.list(rig).contains { $0["name"] as? String == "Steps on \(day)" })
    }

    /// A steps.json with fractional steps (an exporter's sums), which the `__steps_*` keys read:
    /// the Data page, the Steps History and a goal read it through the same tolerant schema
    /// (`StepsFile`), so it is shown, kept and never set aside.
    @Test func aStepsFileWithFractionalStepsIsShownAndKeptByTheDataRoutes() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let snapshots = rig.store.appendingPathComponent("snapshots", isDirectory: true)
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        try Data(
            #"""
            {"schemaVersion": 1, "access": "authorized",
             "history": [{"date": "2026-01-22", "steps": 7000.5}, {"date": "2026-01-23", "steps": 9000.4}]}
            """#.utf8
        ).write(to: snapshots.appendingPathComponent("steps.json"))
        let token = try rig.startServerForAPI()
        let data = try RawHTTP.send(port: rig.port, path: "/data")
        #expect(data.text.contains("2 days recorded (2026-01-22 … 2026-01-23)"), "\(data.text)")
        let history = try RawHTTP.send(port: rig.port, path: "/data/steps?month=2026-01")
        #expect(history.status == 200)
        let goal = try LibraryAPITests.send(rig, "POST", "/api/data/steps/goal", #"{"weekday":8000}"#, token: token)
        #expect(goal.status == 200, "\(goal.text)")
        let names = try FileManager.default.contentsOfDirectory(atPath: snapshots.path)
        #expect(names.filter { $0.hasPrefix("steps") } == ["steps.json"])
        let kept = try String(contentsOf: snapshots.appendingPathComponent("steps.json"), encoding: .utf8)
        #expect(kept.contains("\"2026-01-22\"") && kept.contains("\"goalWeekday\" : 8000"), "\(kept)")
    }
}
