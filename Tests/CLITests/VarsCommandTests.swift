import Foundation
import TestSupport
import Testing

/// `weaver vars` and `weaver pro`, run as a user would, each against its own empty store.
@Suite("weaver vars / weaver pro command line")
struct VarsCommandTests {
    let home: URL

    init() throws { home = try Products.temporaryDirectory("vars-cli") }

    @discardableResult
    func weaver(_ arguments: String...) throws -> Products.Result {
        try Products.run("weaver", arguments, environment: TestStore(at: home).environment(["TZ": "UTC"]))
    }

    /// The text of the copy a corrupt store file `name` was set aside as (`name.corrupt-…`).
    func setAsideText(of name: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        let aside = try #require(names.first { $0.hasPrefix("\(name).corrupt-") })
        return try String(contentsOf: home.appendingPathComponent(aside), encoding: .utf8)
    }

    static let pinned = ["--now", "2026-01-24T09:30:00Z", "--tz", "Europe/London", "--locale", "en_US"]

    @Test func renderPrintsResolvedTextAndOneNewline() throws {
        let r = try Products.run(
            "weaver",
            ["vars", "render"] + Self.pinned + [
                "{{__weekday}} {{__time}} {{__today}} {{=2^10|0|number}} {{missing|--}}"
            ],
            environment: TestStore(at: home).environment())
        #expect(r.status == 0)
        #expect(r.stdoutText == "Sat 09:30 2026-01-24 1,024 --\n")
        #expect(r.stderrText.isEmpty)
    }

    @Test func timeZoneChangesTheLocalDate() throws {
        let r = try weaver(
            "vars", "render", "--now", "2026-01-24T03:00:00Z", "--tz", "America/Los_Angeles",
            "--locale", "en_US", "{{__today}} {{__time}} {{__weekday}} {{__now}}")
        #expect(r.stdoutText == "2026-01-23 19:00 Fri 2026-01-24T03:00:00.000Z\n")
    }

    @Test func nowWithoutOffsetIsLocalToTz() throws {
        let r = try weaver("vars", "render", "--now", "2026-01-24T09:30", "--tz", "Asia/Tokyo", "{{__now}}")
        #expect(r.stdoutText == "2026-01-24T00:30:00.000Z\n")
    }

    @Test func adHocVariablesArePro() throws {
        let locked = try weaver("vars", "render", "--var", "name=Ada", "{{name|locked}}")
        #expect(locked.stdoutText == "locked\n")
        let unlocked = try weaver("vars", "render", "--pro", "--var", "name=Ada", "--var", "a=b=c", "{{name}} {{a}}")
        #expect(unlocked.stdoutText == "Ada b=c\n")
    }

    @Test func storedVariablesLifecycle() throws {
        let refused = try weaver("vars", "set", "streak", "4")
        #expect(refused.status == 1)
        #expect(refused.stderrText.contains("weaver pro unlock"))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("variables.json").path))

        #expect(try weaver("pro", "status").stdoutText == "locked\n")
        #expect(try weaver("pro", "unlock").status == 0)
        #expect(try weaver("pro").stdoutText == "unlocked\n")

        #expect(try weaver("vars", "set", "Last Done", "yesterday").status == 0)
        #expect(try weaver("vars", "set", "streak", "4").status == 0)
        #expect(try weaver("vars", "get", "last_done").stdoutText == "yesterday\n")
        #expect(try weaver("vars", "increment", "streak").stdoutText == "5\n")
        #expect(try weaver("vars", "increment", "streak", "--by", "-2.5").stdoutText == "2.5\n")
        #expect(try weaver("vars", "increment", "cups").stdoutText == "1\n")
        #expect(
            try weaver("vars", "set-now", "stamp", "--now", "2026-01-24T09:30:00Z").stdoutText
                == "2026-01-24T09:30:00.000Z\n")
        #expect(
            try weaver("vars", "set-now", "ms", "--format", "unixms", "--now", "2026-01-24T09:30:00Z").stdoutText
                == "1769247000000\n")
        #expect(
            try weaver(
                "vars", "set-now", "day", "--format", "date", "--tz", "Pacific/Kiritimati",
                "--now", "2026-01-24T12:00:00Z"
            ).stdoutText == "2026-01-25\n")
        #expect(
            try weaver("vars", "list").stdoutText
                == """
                cups\t1\nday\t2026-01-25\nlast \
                done\tyesterday\nms\t1769247000000\nstamp\t2026-01-24T09:30:00.000Z\nstreak\t2.5\n
                """
        )
        let json = try weaver("vars", "list", "--json").stdout
        let decoded = try JSONSerialization.jsonObject(with: json) as? [String: String]
        #expect(decoded?["last done"] == "yesterday")
        #expect(decoded?.count == 6)

        let rendered = try weaver(
            "vars", "render", "--now", "2026-01-24T11:30:00Z", "--tz", "UTC", "--locale", "en_US",
            "{{last_done}} {{=streak*2}} {{ms||sincehours}}h {{stamp||relative}}")
        #expect(rendered.stdoutText == "yesterday 5 2h 2 hours ago\n")

        #expect(try weaver("vars", "delete", "LAST DONE").status == 0)
        let gone = try weaver("vars", "get", "last done")
        #expect(gone.status == 1)
        #expect(gone.stderrText.contains("no stored variable 'last done'"))
        #expect(try weaver("vars", "delete", "last done").status == 1)

        // Locking Pro keeps the data but stops it resolving; delete still works.
        #expect(try weaver("pro", "lock").stdoutText == "locked\n")
        #expect(try weaver("vars", "render", "{{streak|locked}}").stdoutText == "locked\n")
        #expect(try weaver("vars", "get", "streak").stdoutText == "2.5\n")
        #expect(try weaver("vars", "delete", "streak").status == 0)
    }

    @Test func incrementRefusesTextAndKeepsIt() throws {
        try weaver("pro", "unlock")
        try weaver("vars", "set", "name", "Ada")
        let r = try weaver("vars", "increment", "name")
        #expect(r.status == 1)
        #expect(r.stderrText.contains("not a number"))
        #expect(try weaver("vars", "get", "name").stdoutText == "Ada\n")
    }

    @Test(arguments: [
        (["vars", "render", "--tz", "Mars/Olympus", "x"], "'--tz'"),
        (["vars", "render", "--now", "yesterday", "x"], "'--now'"),
        (["vars", "render", "--now", "2026-02-30T00:00:00Z", "x"], "'--now'"),
        (["vars", "render", "--locale", "xx_YY", "x"], "'--locale'"),
        (["vars", "render", "--var", "novalue", "x"], "'--var'"),
        (["vars", "render", "--var", "__time=1", "x"], "reserved"),
        (["vars", "set", "__now", "1"], "reserved"),
        (["vars", "set", "  ", "1"], "empty"),
        (["vars", "set-now", "k", "--format", "weekly"], "--format"),
        (["vars", "increment", "k", "--by", "1e20"], "'--by'"),
        (["vars", "increment", "k", "--by", "nan"], "'--by'"),
    ])
    func badInputIsAUsageError(_ arguments: [String], _ mentions: String) throws {
        let r = try Products.run("weaver", arguments, environment: TestStore(at: home).environment())
        #expect(r.status == 64)
        #expect(r.stderrText.contains(mentions))
        #expect(r.stdout.isEmpty)
    }

    @Test func corruptVariablesFileIsSetAsideWithAWarning() throws {
        try weaver("pro", "unlock")
        let file = home.appendingPathComponent("variables.json")
        try Data("{broken".utf8).write(to: file)
        let r = try weaver("vars", "render", "{{x|fallback}}")
        #expect(r.status == 0)
        #expect(r.stdoutText == "fallback\n")
        // Issue 16 (12): the warning names the file, not its folder.
        #expect(r.stderrText.contains("warning: \(file.path) could not be read"), "\(r.stderrText)")
        #expect(try setAsideText(of: "variables.json") == "{broken")
    }

    /// Issue 16 (12): a corrupt pro.json is set aside with a warning, like every other store file.
    @Test func corruptProFileIsSetAsideWithAWarning() throws {
        let file = home.appendingPathComponent("pro.json")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("{\"unlocked\": ".utf8).write(to: file)
        let r = try weaver("pro", "status")
        #expect(r.status == 0)
        #expect(r.stdoutText == "locked\n")
        #expect(r.stderrText.contains("warning: \(file.path) could not be read"), "\(r.stderrText)")
        #expect(try setAsideText(of: "pro.json") == "{\"unlocked\": ")
    }

    @Test func keysListsBuiltInsWithNoiseStatus() throws {
        try Data(
            """
            {"schemaVersion":1,"state":"playing","presetName":"Rain","masterVolume":0.55,
             "layers":[{"enabled":true,"volume":0.5}],"timerRemainingSeconds":null,"updatedAt":"2026-01-24T09:29:58Z",\
            "pid":1}
            """.utf8
        ).write(to: home.appendingPathComponent("status.json"))
        let r = try weaver("vars", "keys", "--now", "2026-01-24T09:30:00Z", "--tz", "UTC", "--locale", "en_US")
        #expect(r.status == 0)
        #expect(
            r.stdoutText == """
                __noise_layers_on\t1
                __noise_playing\ttrue
                __noise_preset\tRain
                __noise_state\tplaying
                __noise_volume\t55
                __now\t2026-01-24T09:30:00.000Z
                __now_unix\t1769247000
                __second\t00
                __time\t09:30
                __time_12h\t9:30 AM
                __time_24h\t09:30
                __time_seconds\t09:30:00
                __today\t2026-01-24
                __weekday\tSat

                """)
        let json = try weaver("vars", "keys", "--json", "--now", "2026-01-24T09:30:00Z")
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: String]
        #expect(object?["__noise_state"] == "playing")
        #expect(object?["__now_unix"] == "1769247000")
    }

    @Test func storeFlagOverridesTheEnvironment() throws {
        let other = try Products.temporaryDirectory("vars-cli-store")
        #expect(try weaver("pro", "unlock", "--store", other.path).status == 0)
        #expect(try weaver("pro", "status").stdoutText == "locked\n")
        #expect(try weaver("pro", "status", "--store", other.path).stdoutText == "unlocked\n")
    }
}
