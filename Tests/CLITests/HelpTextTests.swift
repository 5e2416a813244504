import Foundation
import TestSupport
import Testing

/// Every command's help, as a user reads it in an 80-column terminal (help written to a pipe is
/// wrapped at 80), and `--version`.
@Suite struct HelpTextTests {
    /// Command paths of a tool, from argument-parser's own description of itself.
    static func commandPaths(_ tool: String) throws -> [[String]] {
        let dump = try Products.run(tool, ["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return paths
    }

    /// What is wrong with one help text, one line per problem.
    static func problems(_ text: String) -> [String] {
        var found: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, line) in lines.enumerated() {
            if line.count > 80 { found.append("line \(i + 1) has \(line.count) columns: \(line)") }
            let next = i + 1 < lines.count ? lines[i + 1] : ""
            if line.isEmpty && next.isEmpty && i + 2 < lines.count { found.append("two blank lines at line \(i + 1)") }
            // A value list too long for a line makes argument-parser emit a blank line and a one-space indent.
            if line.isEmpty && next.hasPrefix(" ") && !next.hasPrefix("  ") {
                found.append("stray blank line before line \(i + 2): \(next)")
            }
            // A sentence broken mid-line: a short prose line whose sentence goes on below.
            if !line.hasPrefix(" "), !line.isEmpty, line.count < 60, !line.hasSuffix(":"),
                let first = next.first, first.isLowercase
            {
                found.append("sentence broken after line \(i + 1): \(line) / \(next)")
            }
        }
        return found
    }

    @Test(arguments: ["noise", "weaver"])
    func everyHelpFitsEightyColumns(tool: String) throws {
        let paths = try Self.commandPaths(tool)
        #expect(paths.count > 5, "\(paths)")
        var report: [String] = []
        for path in paths {
            let r = try Products.run(tool, ["help"] + path, environment: ["COLUMNS": "80"])
            #expect(r.status == 0, "\(tool) help \(path.joined(separator: " ")): \(r.stderrText)")
            let text = r.stdoutText
            #expect(text.contains("USAGE:"))
            for p in Self.problems(text) { report.append("\(tool) help \(path.joined(separator: " ")): \(p)") }
        }
        #expect(report.isEmpty, "\n\(report.joined(separator: "\n"))")
    }

    @Test func theCheckFindsWhatItLooksFor() {
        #expect(Self.problems(String(repeating: "x", count: 81)).count == 1)
        #expect(Self.problems("Starts and plays until the timer, then fades\nout and exits.").count == 1)
        #expect(Self.problems("  style.background:\nplain|aurora\n\n style.overlay: x").count == 1)
        #expect(Self.problems("A paragraph.\n\nAnother one.\n  example --flag\n").isEmpty)
    }

    @Test(arguments: ["noise", "weaver"])
    func versionNamesTheReleaseCommitAndDate(tool: String) throws {
        let r = try Products.run(tool, ["--version"])
        #expect(r.status == 0)
        let line = r.stdoutText.trimmingCharacters(in: .newlines)
        // Extended syntax (whitespace is not matched; a space is written `\ `).
        let pattern =
            #/
            ^(noise|weaver)\ (\d+\.\d+\.\d+)\ \(commit\ ([0-9a-f]{7,40}(-dirty)?|unknown),
            \ built\ (\d{4}-\d{2}-\d{2}|unknown)\)$
            /#
        let match = try #require(line.wholeMatch(of: pattern), "\(line)")
        #expect(String(match.1) == tool)
        // Built by `make`: the stamp it wrote is what the binary says.
        let stamp = Products.directory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/C/CBuildStamp/stamp.generated.h")
        if let header = try? String(contentsOf: stamp, encoding: .utf8) {
            #expect(header.contains("\"\(match.3)\""), "\(header) vs \(line)")
            #expect(header.contains("\"\(match.5)\""))
        }
    }
}
