import Foundation
import NoiseControl
import TestSupport
import Testing

/// `noise autostart` as a user runs it: the login entries it writes, and that each runs as written.
@Suite struct AutostartCommandTests {
    @Test func enableAndDisableFromTheCLI() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let a = box.autostart()
        var r = try box.noise(["autostart", "enable", "--method", "xdg"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(FileManager.default.fileExists(atPath: a.desktopURL.path))
        let store = LastMixStore(root: box.root)
        #expect(try store.load().lastMix?.resumeOnLaunch == true)
        // The store was chosen by WIDGETWEAVER_HOME, so the login entry carries it.
        #expect(
            try String(contentsOf: a.desktopURL, encoding: .utf8).contains(
                "\"resume\" \"--if-enabled\" \"--store\" \"\(box.store.path)\""))
        r = try box.noise(["autostart", "enable", "--method", "systemd"])
        #expect(FileManager.default.fileExists(atPath: a.unitURL.path))
        // Back to xdg: the unit and its link go, and so does the wants folder they left empty.
        let wants = a.wantsLinkURL.deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: wants.path))
        r = try box.noise(["autostart", "enable", "--method", "xdg"])
        #expect(r.status == 0 && !a.installed().unitFile && a.installed().desktopEntry, "\(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: wants.path), "empty \(wants.path) left behind")
        r = try box.noise(["autostart", "enable", "--method", "systemd"])
        r = try box.noise(["autostart", "status"])
        #expect(r.stdoutText.hasPrefix("Resume at login: on\n"))
        r = try box.noise(["autostart", "disable"])
        #expect(r.status == 0)
        #expect(!a.installed().unitFile && !a.installed().unitEnabled && !a.installed().desktopEntry)
        #expect(try store.load().lastMix?.resumeOnLaunch == false)
        r = try box.noise(["autostart", "status"])
        #expect(r.stdoutText.hasPrefix("Resume at login: off\n"))
        r = try box.noise(["autostart", "enable", "--method", "launchd"])
        #expect(r.status == 64)
    }

    /// Issue 16 (1): with a custom store the entry ran `noise --store DIR resume`, which exits 64.
    /// Here each entry's command line is taken exactly as written (unquoted by the rules of its
    /// file format, not by our quoting code) and run without `WIDGETWEAVER_HOME`, as a login would.
    @Test func theLoginEntryRunsAsWritten() throws {
        let box = try Sandbox()
        defer { box.remove() }
        // A store path that needs every kind of quoting.
        let custom = box.url.appendingPathComponent("my store $HOME \"x\" 100%").path
        var env = box.environment
        env["WIDGETWEAVER_HOME"] = custom
        for method in ["systemd", "xdg"] {
            let r = try Products.run("noise", ["autostart", "enable", "--method", method], environment: env)
            #expect(r.status == 0, "\(r.stderrText)")
            let a = box.autostart()
            let words: [String]
            if method == "systemd" {
                let text = try String(contentsOf: a.unitURL, encoding: .utf8)
                let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
                words = try EntryCommandLine.systemd(String(line.dropFirst("ExecStart=".count)))
            } else {
                let text = try String(contentsOf: a.desktopURL, encoding: .utf8)
                let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") })
                words = try EntryCommandLine.desktop(String(line.dropFirst("Exec=".count)))
            }
            #expect(words.contains(custom), "\(method): \(words)")
            // The Last Mix in the custom store was not playing: a working command says so and
            // exits 0; one that read another store would say there is no Last Mix.
            let login = try ChildProcess(
                words[0], Array(words.dropFirst()),
                environment: [
                    "XDG_RUNTIME_DIR": box.run.path, "XDG_CONFIG_HOME": box.config.path,
                    "WIDGETWEAVER_HOME": "",
                ])
            #expect(login.wait() == 0, "\(method): \(String(decoding: login.stderr, as: UTF8.self))")
            #expect(
                String(decoding: login.stdout, as: UTF8.self).contains("was not playing when the last session ended"),
                "\(method): \(String(decoding: login.stdout, as: UTF8.self))")
        }
    }
}

/// Reads an entry's command line the way its consumer does (written from the specifications,
/// independently of `Autostart`'s quoting).
enum EntryCommandLine {
    struct Bad: Error { var text: String }

    /// systemd.service(5) "Command lines": words split on spaces, double quotes group, C-style
    /// backslash escapes; then specifiers (`%%` → `%`) and `$$` → `$`.
    static func systemd(_ line: String) throws -> [String] {
        var words: [String] = [], word = "", inQuotes = false, started = false
        var chars = Array(line)[...]
        while let c = chars.popFirst() {
            switch c {
            case "\"":
                inQuotes.toggle()
                started = true
            case "\\":
                guard let n = chars.popFirst() else { throw Bad(text: line) }
                word.append(n == "n" ? "\n" : n)
            case " " where !inQuotes:
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            default:
                word.append(c)
                started = true
            }
        }
        if inQuotes { throw Bad(text: line) }
        if started || !word.isEmpty { words.append(word) }
        return words.map { $0.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$") }
    }

    /// Desktop Entry Specification: the value's string escapes (`\\` → `\`) first, then the Exec
    /// rules: double-quoted words where `\"`, `` \` ``, `\$` and `\\` stand for the character;
    /// `%%` is `%`.
    static func desktop(_ value: String) throws -> [String] {
        var unescaped = "", chars = Array(value)[...]
        while let c = chars.popFirst() {
            if c == "\\", let n = chars.popFirst() {
                switch n {
                case "s": unescaped.append(" ")
                case "n": unescaped.append("\n")
                case "t": unescaped.append("\t")
                case "r": unescaped.append("\r")
                default: unescaped.append(n)
                }
            } else {
                unescaped.append(c)
            }
        }
        var words: [String] = [], word = "", inQuotes = false, started = false
        chars = Array(unescaped)[...]
        while let c = chars.popFirst() {
            switch c {
            case "\"":
                inQuotes.toggle()
                started = true
            case "\\" where inQuotes:
                guard let n = chars.popFirst(), "\"`$\\".contains(n) else { throw Bad(text: value) }
                word.append(n)
            case " " where !inQuotes:
                if started { words.append(word) }
                word = ""
                started = false
            case "%":
                guard chars.popFirst() == "%" else { throw Bad(text: value) }
                word.append("%")
                started = true
            default:
                word.append(c)
                started = true
            }
        }
        if inQuotes { throw Bad(text: value) }
        if started { words.append(word) }
        return words
    }
}
