import Foundation
import TestSupport
import Testing

/// Issue 26 item 4: every option that takes a number (a count, a coordinate, a gain, a duration)
/// takes a value starting with a minus as its value (`--lon -6.26`, `--latency -1s`) and then
/// range-checks it with the usual message. argument-parser took `-6.26` for an option name and
/// said "Missing value for '--lon'". A walk over both tools' commands, as HelpTextTests walks
/// them for the help width.
@Suite struct NumericOptionTests {
    struct OptionUse: CustomStringConvertible {
        var tool: String
        var path: [String]
        var name: String
        var parsing: String
        /// Placeholders for the command's required positional arguments and options.
        var positionals: [String]
        var requiredOptions: [String: String]
        var description: String { "\(tool) \((path + [name]).joined(separator: " "))" }
    }

    /// Options that take a number, a duration or a list of numbers, per tool (by long name; a
    /// name means the same in every command of a tool).
    static let numeric: [String: Set<String>] = [
        "noise": [
            "loudness", "timer", "fade", "seed", "latency", "fade-in", "retry-for", "sample-rate", "channels",
            "duration", "layer", "volume", "colour", "low-cut", "high-cut", "eq-low", "eq-mid", "eq-high",
            "movement-period", "movement-level", "movement-cut", "master", "measured", "crossfade", "density",
            "brightness", "level", "retest", "start-hz", "phon", "start", "renders", "search-seconds", "budget",
        ],
        "weaver": [
            "seed", "count", "save", "scale", "at", "port", "weekend", "by", "timeout", "retries", "lat", "lon",
            "pick", "margin", "monitor", "shell-version",
        ],
    ]
    /// Options whose value is not a number: every option must be in one list or the other, so a
    /// new option is classified when it is added.
    static let notNumeric: [String: Set<String>] = [
        "noise": [
            "preset", "mix", "store", "method", "output", "device", "title", "format", "then", "texture", "link", "png",
            "hearing", "notch", "mode", "against", "name",
        ],
        "weaver": [
            "store", "template", "name", "search", "output", "select", "family", "appearance", "format", "backdrop",
            "var", "now", "tz", "locale", "remix", "base-url", "country", "listen", "method", "anchor", "autostart",
            "into", "weaver", "out", "monitors", "png", "url", "model", "api", "preview",
        ],
    ]
    /// What a command needs before it looks at its numbers (a source to render).
    static let context: [String: [(String, String)]] = ["noise render": [("preset", "pink"), ("duration", "10s")]]
    /// Options for which any number is a value (a change, an amount): -999999 is not out of range.
    static let anyNumber: Set<String> = ["noise master", "weaver by"]

    /// Every option of every command of `tool`, from argument-parser's own description.
    static func options(_ tool: String) throws -> [OptionUse] {
        let dump = try Products.run(tool, ["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var found: [OptionUse] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let positionals = arguments.filter {
                $0["kind"] as? String == "positional" && $0["isOptional"] as? Bool == false
            }
            .map { _ in "x" }
            var required: [String: String] = [:]
            for argument in arguments
            where argument["kind"] as? String == "option" && argument["isOptional"] as? Bool == false {
                if let long = (argument["names"] as? [[String: Any]])?.first(where: { $0["kind"] as? String == "long" }
                )?["name"] as? String {
                    required[long] = long == "output" ? "/dev/null" : "x"
                }
            }
            for argument in arguments where argument["kind"] as? String == "option" {
                guard let preferred = argument["preferredName"] as? [String: Any],
                    let name = preferred["name"] as? String,
                    preferred["kind"] as? String == "long"
                        || (argument["names"] as? [[String: Any]])?.contains(where: { $0["kind"] as? String == "long" })
                            == true
                else { continue }
                let long =
                    (argument["names"] as? [[String: Any]])?.first { $0["kind"] as? String == "long" }?["name"]
                    as? String ?? name
                found.append(
                    OptionUse(
                        tool: tool, path: path, name: long, parsing: argument["parsingStrategy"] as? String ?? "?",
                        positionals: positionals, requiredOptions: required))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return found
    }

    @Test(arguments: ["noise", "weaver"])
    func everyOptionIsClassified(tool: String) throws {
        let all = try Self.options(tool)
        #expect(all.count > 20, "\(all)")
        let unknown = all.filter { !Self.numeric[tool]!.contains($0.name) && !Self.notNumeric[tool]!.contains($0.name) }
        #expect(unknown.isEmpty, "classify these options in NumericOptionTests: \(unknown)")
        // Every listed name still exists (a renamed option must not leave the walk checking nothing).
        let names = Set(all.map(\.name))
        #expect(Self.numeric[tool]!.subtracting(names).isEmpty, "\(Self.numeric[tool]!.subtracting(names))")
    }

    /// Each numeric option is declared with the shared `numeric:` helper (argument-parser reports
    /// it as unconditional), and given -999999 it is refused naming the option, with no "Missing
    /// value" and nothing done (exit 64, the validation status, or a range error).
    @Test(arguments: ["noise", "weaver"])
    func everyNumericOptionTakesANegativeValue(tool: String) throws {
        let store = try TestStore("numeric")
        defer { store.remove() }
        let environment = store.environment([
            "XDG_RUNTIME_DIR": store.path, "PULSE_SERVER": "unix:/nonexistent",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent", "WIDGETWEAVER_OPEN_METEO_URL": "http://127.0.0.1:9",
        ])
        var report: [String] = []
        var walked = 0
        for use in try Self.options(tool) where Self.numeric[tool]!.contains(use.name) {
            walked += 1
            if use.parsing != "unconditional" {
                report.append("\(use): parsed '\(use.parsing)', not with the numeric: helper")
            }
            let others = use.requiredOptions.filter { $0.key != use.name }.sorted { $0.key < $1.key }.flatMap {
                ["--\($0.key)", $0.value]
            }
            let context = (Self.context[([tool] + use.path).joined(separator: " ")] ?? []).filter { $0.0 != use.name }
                .flatMap { ["--\($0.0)", $0.1] }
            let r = try Products.run(
                tool, use.path + use.positionals + others + context + ["--\(use.name)", "-999999"],
                environment: environment)
            let err = r.stderrText
            if err.contains("Missing value") || err.contains("Unknown option") || err.contains("Unexpected argument") {
                report.append("\(use): \(err.prefix(200))")
                continue
            }
            if Self.anyNumber.contains("\(tool) \(use.name)") { continue }
            if r.status == 0 { report.append("\(use): -999999 was accepted") }
            if !err.contains("--\(use.name)") {
                report.append("\(use): the error does not name the option: \(err.prefix(200))")
            }
        }
        #expect(walked >= (tool == "noise" ? 30 : 13), "walked \(walked)")
        #expect(report.isEmpty, "\n\(report.joined(separator: "\n"))")
    }

    /// The issue's examples: values west of Greenwich and south of the equator are values, and
    /// out-of-range ones get the range message.
    @Test func negativeCoordinatesAreValues() throws {
        let store = try Products.temporaryDirectory("coords")
        defer { try? FileManager.default.removeItem(at: store) }
        let env = TestStore(at: store).environment()
        var r = try Products.run(
            "weaver", ["weather", "location", "set", "--lat", "53.35", "--lon", "-6.26"], environment: env)
        #expect(r.status == 0, "\(r.stderrText)")
        // Issue 28 item 13: the coordinates once, not "53.3500, -6.2600 (53.3500, -6.2600)".
        #expect(r.stdoutText.hasPrefix("Location: 53.3500, -6.2600\n"), "\(r.stdoutText)")
        r = try Products.run("weaver", ["weather", "location", "show"], environment: env)
        #expect(r.stdoutText.contains("longitude\t-6.26"), "\(r.stdoutText)")
        r = try Products.run(
            "weaver", ["weather", "location", "set", "Cape Town", "--lat", "-33.9", "--lon", "18.42"], environment: env)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.hasPrefix("Location: Cape Town (-33.9000, 18.4200)\n"), "\(r.stdoutText)")
        r = try Products.run(
            "weaver", ["weather", "location", "set", "--lat", "-91", "--lon", "-6.26"], environment: env)
        #expect(r.status == 64)
        #expect(r.stderrText.contains("Error: '--lat' must be -90…90 degrees; got -91.0"), "\(r.stderrText)")
        r = try Products.run(
            "weaver", ["weather", "location", "set", "--lat", "10", "--lon", "-181"], environment: env)
        #expect(r.stderrText.contains("Error: '--lon' must be -180…180 degrees; got -181.0"), "\(r.stderrText)")
        r = try Products.run("weaver", ["weather", "refresh", "--retries", "-1"], environment: env)
        #expect(r.stderrText.contains("Error: '--retries' must be 0…5; got -1"), "\(r.stderrText)")
        r = try Products.run("weaver", ["render", "--scale", "-2"], environment: env)
        #expect(r.stderrText.contains("Error: '--scale' must be 1, 2 or 3; got -2"), "\(r.stderrText)")
    }

    @Test func negativeDurationsAndGainsAreValues() throws {
        var r = try Products.run("noise", ["play", "--latency", "-1s"])
        #expect(r.status == 64)
        #expect(
            r.stderrText.contains("Error: '--latency': '-1s' is negative; a duration must be positive"),
            "\(r.stderrText)")
        r = try Products.run("noise", ["render", "--preset", "pink", "--duration", "-10s", "-o", "/dev/null"])
        #expect(r.stderrText.contains("'--duration': '-10s' is negative"), "\(r.stderrText)")
        r = try Products.run("noise", ["set", "--layer", "-1", "--volume", "0.5"])
        #expect(r.status == 64 && r.stderrText.contains("--layer"), "\(r.stderrText)")
        r = try Products.run("noise", ["set", "--layer", "1", "--eq-low", "-13"])
        #expect(r.status == 64 && r.stderrText.contains("--eq-low"), "\(r.stderrText)")
        let out = try Products.temporaryDirectory("gain").appendingPathComponent("quiet.wav")
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        r = try Products.run(
            "noise",
            ["render", "--preset", "pink", "--loudness", "-40", "--duration", "1s", "--seed", "1", "-o", out.path])
        #expect(r.status == 0, "\(r.stderrText)")
    }

    /// `noise set`'s texture options are checked against their rows of the mix table, as the mixer
    /// page's are: the message names the option, the table's range and unit.
    @Test func textureOptionsAreCheckedAgainstTheMixTable() throws {
        var r = try Products.run("noise", ["set", "--layer", "1", "--texture", "drops", "--density", "401"])
        #expect(r.status == 64, "\(r.stderrText)")
        #expect(
            r.stderrText.contains("--density: '401' is out of range; allowed: 0.5…400 per second"),
            "\(r.stderrText)")
        r = try Products.run("noise", ["set", "--layer", "1", "--texture", "crackle", "--brightness", "1.5"])
        #expect(r.status == 64, "\(r.stderrText)")
        #expect(r.stderrText.contains("--brightness: '1.5' is out of range; allowed: 0…1"), "\(r.stderrText)")
    }

    /// A negative number as a positional value read as short options ("Missing expected argument
    /// '<steps>'"); now it reaches the command's own check, and values that are fine are taken.
    @Test func negativePositionalValuesReachTheCommandsChecks() throws {
        let store = try Products.temporaryDirectory("negative-positional")
        defer { try? FileManager.default.removeItem(at: store) }
        let env = TestStore(at: store).environment()
        var r = try Products.run("weaver", ["steps", "goal", "-5"], environment: env)
        #expect(r.status == 64)
        #expect(
            r.stderrText.hasPrefix(
                "Error: the goal must be a whole number of steps in 1…200000; got -5\nUsage: weaver steps goal"),
            "\(r.stderrText)")
        // `noise timer -5m` is a change of the running timer (PlayerControlTests.timerMovesByRelativeAmounts).
        r = try Products.run("noise", ["timer", "-5m"], environment: env)
        #expect(r.status != 0 && r.stderrText.contains("no player is running"), "\(r.stderrText)")
        #expect(try Products.run("weaver", ["pro", "unlock"], environment: env).status == 0)
        r = try Products.run("weaver", ["vars", "set", "balance", "-3.5", "--store", store.path])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try Products.run("weaver", ["vars", "get", "balance"], environment: env).stdoutText == "-3.5\n")
        // An argument that is wrong either way keeps argument-parser's first message.
        r = try Products.run("weaver", ["vars", "increment", "balance", "-3"], environment: env)
        #expect(r.stderrText.hasPrefix("Error: Unknown option '-3'"), "\(r.stderrText)")
    }
}
