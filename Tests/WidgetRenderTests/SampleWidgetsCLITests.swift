import CivilDates
import Foundation
import SharedStore
import TestSupport
import Testing
import WidgetDataKeys

@testable import WidgetDesign
@testable import WidgetRender

/// The second seed's widgets through the built `weaver`, as a user runs it: a counter with a
/// reset button, an open-a-link button, and a countdown redrawn live by `render --watch`.
@Suite struct SampleWidgetsCLITests {
    func store() throws -> URL { try Products.temporaryDirectory("sample-widgets") }

    func weaver(_ dir: URL, _ args: [String], environment: [String: String] = [:]) throws -> Products.Result {
        try Products.run("weaver", args + ["--store", dir.path], environment: environment)
    }

    /// The centre of the action titled `title` in `design`'s layout (with Pro, which draws the bar).
    func centre(of title: String, design: String, in dir: URL) throws -> String {
        let json = try weaver(dir, ["render", design, "--pro", "--format", "json"])
        #expect(json.status == 0, "\(json.stderrText)")
        let tree = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let actions = try #require(tree["actions"] as? [[String: Any]])
        let a = try #require(actions.first { $0["title"] as? String == title }, "\(actions)")
        let r = try #require(a["rect"] as? [String: Any]).mapValues { ($0 as? NSNumber)?.doubleValue ?? .nan }
        return "\(Int(r["x"]! + r["width"]! / 2)),\(Int(r["y"]! + r["height"]! / 2))"
    }

    /// `action.N=reset:KEY:VALUE:TITLE` beside `increment:…`: the count goes up with "Add" and back
    /// to the design's value with "Reset", through `weaver tap`.
    @Test func resetVariableThroughWeaverTap() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try weaver(dir, ["designs", "new", "--name", "Count"]).status == 0)
        let set = try weaver(
            dir, ["designs", "set", "Count", "action.1=increment:count:2:Add", "action.2=reset:count:5:Reset"])
        #expect(set.status == 0, "\(set.stderrText)")
        let add = try centre(of: "Add", design: "Count", in: dir)
        let reset = try centre(of: "Reset", design: "Count", in: dir)
        let found = try weaver(dir, ["tap", "Count", "--pro", "--at", reset, "--dry-run"])
        #expect(found.stdoutText.hasPrefix("found resetVariable \"Reset\""), "\(found.stdoutText)")
        for expected in ["count is now 2 (+2).", "count is now 4 (+2)."] {
            let r = try weaver(dir, ["tap", "Count", "--pro", "--at", add])
            #expect(r.status == 0 && r.stdoutText == expected + "\n", "\(r.stdoutText) \(r.stderrText)")
        }
        let r = try weaver(dir, ["tap", "Count", "--pro", "--at", reset])
        #expect(r.status == 0 && r.stdoutText == "count reset to 5.\n", "\(r.stdoutText) \(r.stderrText)")
        #expect(try VariableStore(root: StoreRoot(url: dir)).load()["count"] == "5")
        // Without a value the reset is to 0, and like every action-bar button it needs Pro.
        #expect(try weaver(dir, ["designs", "set", "Count", "action.2=reset:count"]).status == 0)
        let zero = try weaver(
            dir, ["tap", "Count", "--pro", "--at", try centre(of: "Reset", design: "Count", in: dir)])
        #expect(zero.stdoutText == "count reset to 0.\n", "\(zero.stdoutText) \(zero.stderrText)")
        #expect(try VariableStore(root: StoreRoot(url: dir)).load()["count"] == "0")
    }

    /// Only http(s) and `weaver:` links are accepted, by the editor, by the decoder (a design file
    /// edited by hand) and at the press; an accepted one is handed to xdg-open as one argument
    /// (no shell: the `$(…)` in it runs nothing).
    @Test func openURLRefusesAnythingButHTTPAndWeaverLinks() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try weaver(dir, ["designs", "new", "--name", "Links"]).status == 0)
        for bad in [
            "file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi", "ftp://example.com/x", "xdg-open",
            "Docs:sh -c 'touch x'", "https://", "weaver:",
        ] {
            let r = try weaver(dir, ["designs", "set", "Links", "action.1=open:\(bad)"])
            #expect(r.status != 0, "\(bad) was accepted")
            #expect(
                r.stderrText.contains("action.1:") && r.stderrText.contains("allowed: an http:// or https:// link"),
                "\(bad): \(r.stderrText)")
        }
        #expect(
            try DesignLibrary(root: StoreRoot(url: dir)).load(
                try DesignLibrary(root: StoreRoot(url: dir)).resolve("Links").id
            ).actionBar == nil)

        // A recording xdg-open on PATH: it writes its arguments, one per line.
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = dir.appendingPathComponent("opened.txt")
        let opener = bin.appendingPathComponent("xdg-open")
        try Data("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '\(record.path)'; done\n".utf8).write(
            to: opener)
        chmod(opener.path, 0o755)
        let env = ["PATH": bin.path + ":/usr/bin:/bin"]
        let link = "https://example.com/a;b?q=$(touch%20pwned)&x=`id`"
        let set = try weaver(
            dir, ["designs", "set", "Links", "action.1=open:Docs:\(link)", "action.2=open:weaver:editor/abc"])
        #expect(set.status == 0, "\(set.stderrText)")
        let r = try weaver(
            dir, ["tap", "Links", "--pro", "--at", try centre(of: "Docs", design: "Links", in: dir)], environment: env)
        #expect(r.status == 0 && r.stdoutText == "Opened \(link).\n", "\(r.stdoutText) \(r.stderrText)")
        let w = try weaver(
            dir, ["tap", "Links", "--pro", "--at", try centre(of: "Open", design: "Links", in: dir)], environment: env)
        #expect(w.status == 0, "\(w.stderrText)")
        #expect(try String(contentsOf: record, encoding: .utf8) == link + "\nweaver:editor/abc\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("pwned").path))

        // A design file whose link was changed by hand to a file: link loses the button, with a warning.
        let lib = DesignLibrary(root: StoreRoot(url: dir))
        let id = try lib.resolve("Links").id
        let file = lib.fileURL(id)
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "weaver:editor/abc", with: "file:///etc/passwd")
        try Data(text.utf8).write(to: file)
        let (decoded, findings) = try WidgetSpec.decode(Data(text.utf8), fallbackDate: Date())
        #expect(decoded.actionBar?.actions.map(\.title) == ["Docs"])
        #expect(
            findings.contains { $0.path.hasSuffix("actions[1].url") && $0.message.contains("scheme 'file'") },
            "\(findings)")
        try? FileManager.default.removeItem(at: record)
        let json = try weaver(dir, ["render", "Links", "--pro", "--format", "json"])
        #expect(!json.stdoutText.contains("passwd"))
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    /// `render --watch` draws a countdown again each second only in its last minute (and once at
    /// "end", then never again), and only at whole-minute crossings before that: the redraw moments
    /// come from the layout (`WidgetLayout.redrawAt`) through the watcher's timerfd.
    @Test func countdownRedrawsEachSecondOnlyInItsLastMinute() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try ProEntitlement.set(true, root: StoreRoot(url: dir), now: Date())
        for name in ["Soon", "Later"] {
            #expect(try weaver(dir, ["templates", "add", "countdown"]).status == 0)
            #expect(try weaver(dir, ["designs", "set", "Countdown", "name=\(name)"]).status == 0)
        }
        let now = Date()
        // Whole seconds (the exchange format's precision): 8 s after the next whole second, room
        // for the commands below to start on a loaded machine.
        let soon = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.up) + 8)
        let later = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.up) + 10 * 60 + 30)
        #expect(try weaver(dir, ["designs", "set", "Soon", "countdown.target=\(ISODate.format(soon))"]).status == 0)
        #expect(try weaver(dir, ["designs", "set", "Later", "countdown.target=\(ISODate.format(later))"]).status == 0)

        let fast = try Spawned("weaver", ["render", "Soon", "--watch", "--format", "txt", "--store", dir.path])
        let slow = try Spawned("weaver", ["render", "Later", "--watch", "--format", "txt", "--store", dir.path])
        // When each countdown text first appeared, by the test's clock.
        var seen: [(text: String, at: Date)] = []
        let end = soon.addingTimeInterval(2.5)
        // Sampling the output every 20 ms until 2.5 s past the target (when each text came is measured, and
        // that nothing comes after "end").
        _ = Wait.until(end.timeIntervalSinceNow + 1, interval: 0.02) { () -> Bool? in
            for line in fast.stdoutText.split(separator: "\n").map(String.init)
            where (line.contains(":") && line.allSatisfy { $0.isNumber || $0 == ":" }) || line == "end" {
                if !seen.contains(where: { $0.text == line }) { seen.append((line, Date())) }
            }
            return Date() >= end ? true : nil
        }
        fast.signal(SIGTERM)
        slow.signal(SIGTERM)
        #expect(fast.waitForExit(5) == 0)
        #expect(slow.waitForExit(5) == 0)
        let texts = seen.map(\.text)
        #expect(texts.suffix(4) == ["0:03", "0:02", "0:01", "end"], "\(texts)")
        // Each came when the remaining time crossed its second (within scheduling slack).
        for (text, at) in seen.suffix(4) {
            let due = text == "end" ? soon : soon.addingTimeInterval(-Double(Int(text.split(separator: ":")[1])!))
            #expect(abs(at.timeIntervalSince(due)) < 0.5, "\(text) at \(at.timeIntervalSince(soon)) s from the target")
        }
        // After "end", nothing more was drawn: one "end" and no second copy of any text.
        let drawn = fast.stdoutText.split(separator: "\n").filter { $0 == "end" }.count
        #expect(drawn == 1, "\(fast.stdoutText)")
        // Ten minutes out, nothing asks for seconds: besides the first drawing, only a whole-minute
        // crossing of the time left (30 s after the target was set) or the wall clock's minute
        // (which live hosts redraw at anyway) draws it again, so at most three in these ~11 s,
        // not one a second.
        let slowTexts = slow.stdoutText.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(!slowTexts.isEmpty && slowTexts.count <= 3, "\(slow.stdoutText)")
    }

    /// `clock.format=24h-seconds`: a file rendered once shows the minute; `--watch` shows the
    /// seconds and draws again each second.
    @Test func secondsOnlyWhereTheHostRedrawsEachSecond() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try weaver(dir, ["templates", "add", "clock"]).status == 0)
        #expect(try weaver(dir, ["designs", "set", "Clock", "clock.format=24h-seconds"]).status == 0)
        let once = try weaver(dir, ["render", "Clock", "--family", "rectangular", "--format", "txt"])
        let first = once.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.wholeMatch(of: /\d\d:\d\d/) != nil, "\(once.stdoutText)")
        let live = try Spawned(
            "weaver", ["render", "Clock", "--family", "rectangular", "--format", "txt", "--watch", "--store", dir.path])
        func distinctTimes() -> Set<Substring> {
            Set(live.stdoutText.split(separator: "\n").filter { $0.wholeMatch(of: /\d\d:\d\d:\d\d/) != nil })
        }
        _ = eventually(5) { distinctTimes().count >= 2 }
        live.signal(SIGTERM)
        #expect(live.waitForExit(5) == 0)
        let times = distinctTimes()
        #expect(times.count >= 2, "\(live.stdoutText)")
    }
}
