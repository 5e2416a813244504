import Foundation
import TestSupport
import Testing

/// Issue 28, items 9, 11 and 12: bad input gets a message that names the file, the field or the
/// format, from the command that found it, with the usage of that command.
@Suite struct BadInputMessageTests {
    func temp() throws -> URL { try Products.temporaryDirectory("bad-input") }

    /// Item 9: `noise render -o x.mp3` wrote a WAV named .mp3; now refused naming the formats, and
    /// nothing is written.
    @Test func renderRefusesAnExtensionItDoesNotWrite() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["x.mp3", "x.ogg", "x.WAVE"] {
            let out = dir.appendingPathComponent(name).path
            let r = try Products.run("noise", ["render", "--preset", "pink", "--duration", "1s", "-o", out])
            #expect(r.status == 64, "\(name): \(r.stderrText)")
            let ext = (name as NSString).pathExtension.lowercased()
            #expect(
                r.stderrText.contains(
                    """
                    Error: '--output' \(out): .\(ext) is not a format noise writes; use a .wav or .flac name, or \
                    give '--format' s16, s24 or f32 (WAV), flac or flac24 (FLAC)
                    """
                ),
                "\(r.stderrText)")
            #expect(r.stderrText.contains("Usage: noise render"), "\(r.stderrText)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        // Upper-case names of the formats it writes, a name without an extension and an explicit
        // '--format' still work.
        for (name, format) in [("UP.WAV", nil), ("UP.FLAC", nil), ("noext", nil), ("x.raw", "s16")]
            as [(String, String?)]
        {
            let out = dir.appendingPathComponent(name).path
            let r = try Products.run(
                "noise",
                ["render", "--preset", "pink", "--duration", "1s", "-o", out] + (format.map { ["--format", $0] } ?? []))
            #expect(r.status == 0, "\(name): \(r.stderrText)")
        }
    }

    /// Item 11: a binary file given to `weaver import` is "not a JSON file", named, rather than
    /// "JSON nests more than 32 levels deep".
    @Test func importOfABinaryFileSaysItIsNotJSON() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        var generator = SystemRandomNumberGenerator()
        // Random bytes full of brackets (what made the depth scan speak first), and a PNG.
        var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for i in stride(from: 0, to: 200, by: 1) { bytes[i * 3] = UInt8(ascii: "[") }
        bytes[0] = 0x89
        let binary = dir.appendingPathComponent("photo.bin")
        try Data(bytes).write(to: binary)
        let store = dir.appendingPathComponent("store")
        var r = try Products.run(
            "weaver", ["import", binary.path, "--all"], environment: TestStore(at: store).environment())
        #expect(r.status == 1)
        #expect(
            r.stderrText.contains("\(binary.path): not a JSON file (it starts with the bytes 89 "), "\(r.stderrText)")
        #expect(r.stderrText.contains("expected a .wwdesign export package, a JSON array of designs or one design"))
        #expect(!r.stderrText.contains("nests"))
        let empty = dir.appendingPathComponent("empty.wwdesign")
        try Data().write(to: empty)
        r = try Products.run(
            "weaver", ["import", empty.path, "--all"], environment: TestStore(at: store).environment())
        #expect(r.stderrText.contains("\(empty.path): not a JSON file (it is empty)"), "\(r.stderrText)")
        // Deep JSON is still JSON that nests too deep.
        let deep = dir.appendingPathComponent("deep.json")
        try Data((String(repeating: "[", count: 40) + String(repeating: "]", count: 40)).utf8).write(to: deep)
        r = try Products.run("weaver", ["import", deep.path, "--all"], environment: TestStore(at: store).environment())
        #expect(r.stderrText.contains("nests more than 32 levels"), "\(r.stderrText)")
    }

    /// Item 11: one corrupt file, one wording, whichever command finds it (`noise status` said
    /// "could not be read (…); it was moved to", `weaver render` "…: …; moved to").
    @Test func aCorruptStatusFileIsWordedAlikeByBothTools() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = TestStore(at: dir).environment(["XDG_RUNTIME_DIR": dir.path])
        let status = dir.appendingPathComponent("status.json")
        func wording(_ tool: String, _ args: [String]) throws -> String {
            try Data("{\"state\": garbage".utf8).write(to: status)
            let r = try Products.run(tool, args, environment: env)
            let line =
                r.stderrText.split(separator: "\n").first { $0.contains("status.json") }.map(String.init)
                ?? r.stderrText
            // The same file, moved to a name with another time stamp: compare without the stamp.
            return line.replacingOccurrences(
                of: #"corrupt-[0-9TZ-]+"#, with: "corrupt-STAMP", options: .regularExpression)
        }
        let noise = try wording("noise", ["status"])
        let weaver = try wording("weaver", ["render", "--template", "noise-machine", "--format", "txt"])
        #expect(noise.contains("warning: \(status.path) could not be read ("), "\(noise)")
        #expect(noise.contains("); it was moved to \(status.path).corrupt-STAMP"), "\(noise)")
        #expect(noise == weaver, "noise: \(noise)\nweaver: \(weaver)")
    }

    /// Item 11: an error found while a subcommand runs printed "Usage: weaver <subcommand>".
    @Test func errorsFromARunningSubcommandShowItsUsage() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = TestStore(at: dir).environment()
        #expect(try Products.run("weaver", ["designs", "new", "--name", "Morning"], environment: env).status == 0)
        let r = try Products.run("weaver", ["remix", "Morning", "--save", "1"], environment: env)
        #expect(r.status == 64, "\(r.stderrText)")
        #expect(r.stderrText.hasPrefix("Error: '--save' needs '--seed'"), "\(r.stderrText)")
        #expect(r.stderrText.contains("\nUsage: weaver remix <design> [--seed <seed>]"), "\(r.stderrText)")
        #expect(r.stderrText.contains("See 'weaver remix --help' for more information."), "\(r.stderrText)")
        #expect(!r.stderrText.contains("<subcommand>"), "\(r.stderrText)")
    }

    /// Item 13: coordinates without a name were printed twice.
    @Test func coordinatesArePrintedOnce() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Products.run(
            "weaver", ["weather", "location", "set", "--lat", "53.35", "--lon=-6.26"],
            environment: TestStore(at: dir).environment())
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(
            r.stdoutText == "Location: 53.3500, -6.2600\nNext: 'weaver weather refresh' fetches the forecast.\n",
            "\(r.stdoutText)")
    }

    /// Item 12: a steps.json field of the wrong type is named with its file, not shown as "--".
    @Test func badStepsFieldsAreNamed() throws {
        let dir = try temp()
        defer { try? FileManager.default.removeItem(at: dir) }
        let snapshots = dir.appendingPathComponent("snapshots")
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        let steps = snapshots.appendingPathComponent("steps.json")
        try Data(
            #"""
            {"schemaVersion": 1, "goalWeekday": "many", "today": {"date": "2026-01-24", "steps": "lots"}, \#
            "history": [{"date": "2026-01-23", "steps": 9000}, {"date": "x"}]}
            """#
            .utf8
        ).write(to: steps)
        let env = TestStore(at: dir).environment()
        let now = ["--now", "2026-01-24T12:00:00Z", "--tz", "UTC"]
        var r = try Products.run(
            "weaver", ["render", "--template", "steps", "--format", "txt"] + now, environment: env)
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(
            r.stderrText.contains(
                "warning: \(steps.path): 'today.steps' must be a number of steps, 0 or more; got \"lots\" (ignored)"),
            "\(r.stderrText)")
        #expect(
            r.stderrText.contains(
                "warning: \(steps.path): 'goalWeekday' must be a number of steps above 0; got \"many\" (ignored)"),
            "\(r.stderrText)")
        #expect(
            r.stderrText.contains(
                """
                warning: \(steps.path): 1 of the 'history' days lack a date yyyy-MM-dd or a number of steps (the \
                first is history[1])
                """
            ), "\(r.stderrText)")
        r = try Products.run("weaver", ["vars", "render", "{{__steps_today|--}}"] + now, environment: env)
        #expect(r.stdoutText == "--\n")
        #expect(r.stderrText.contains("'today.steps' must be a number of steps"), "\(r.stderrText)")
        // A good file says nothing.
        try Data(#"{"schemaVersion": 1, "today": {"date": "2026-01-24", "steps": 6500}}"#.utf8).write(to: steps)
        r = try Products.run("weaver", ["vars", "render", "{{__steps_today}}"] + now, environment: env)
        #expect(r.stdoutText == "6500\n" && r.stderrText.isEmpty, "\(r.stdoutText) \(r.stderrText)")
    }
}
