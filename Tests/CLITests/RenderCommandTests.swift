import Foundation
import SharedStore
import TestSupport
import Testing
import WidgetDataKeys
import WidgetDesign

@testable import WidgetRender

/// `weaver render` and `weaver tap` as a user runs them.
@Suite struct RenderCommandTests {
    func store() throws -> URL { try Products.temporaryDirectory("render-cli") }

    @Test func rendersEveryFormatAtomicallyWithTheFormatFromTheExtension() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = [
            "render", "--store", dir.path, "--template", "noise-machine", "--family", "medium", "--now",
            "2026-01-24T09:30:00Z",
        ]
        for ext in ["png", "svg", "json", "txt"] {
            let out = dir.appendingPathComponent("w.\(ext)").path
            let r = try Products.run("weaver", base + ["-o", out])
            #expect(r.status == 0, "\(r.stderrText)")
            let data = try Data(contentsOf: URL(fileURLWithPath: out))
            switch ext {
            case "png":
                #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                let img = try PixelImage(png: [UInt8](data))
                #expect(img.width == 728 && img.height == 340)
            case "svg": #expect(String(decoding: data, as: UTF8.self).contains("<svg"))
            case "json": #expect(String(decoding: data, as: UTF8.self).contains("\"togglePlayPause\""))
            default: #expect(String(decoding: data, as: UTF8.self).hasPrefix("Noise: Stopped"))
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        let scaled = try Products.run("weaver", base + ["--scale", "3", "--format", "png", "-o", "-"])
        #expect(try PixelImage(png: [UInt8](scaled.stdout)).width == 364 * 3)
        // A folder that does not exist is named, not made.
        let missing = dir.appendingPathComponent("no/such/folder")
        let typo = try Products.run("weaver", base + ["-o", missing.appendingPathComponent("w.png").path])
        #expect(typo.status != 0)
        #expect(typo.stderrText.contains("the folder \(missing.path) does not exist"), "\(typo.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no").path))
    }

    /// `weaver render` reads its plain spellings without argument-parser (`Render.quickParse`, for
    /// start-up time); a trailing `--` always goes through argument-parser. Each command line must do
    /// the same both ways: output, messages and exit status, including the defaults of a bare
    /// `render` and lines the quick reading leaves to argument-parser.
    @Test func theQuickReadingOfRenderDoesWhatArgumentParserDoes() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = ["--store", dir.path]
        let lines: [[String]] = [
            ["render"] + store,
            ["render", "--template", "noise-machine", "--family", "medium", "--format", "json"] + store,
            [
                "render", "--template=classic", "--appearance=light", "--pro", "--now", "2026-01-24T09:30:00Z",
                "--tz", "Europe/London", "--locale", "de_DE", "--scale", "3", "--format=txt",
            ] + store,
            ["render", "--template", "noise-machine", "--backdrop", "#1C1C1E", "--scale", "1", "-o", "-"] + store,
            ["render", "--output=-", "--template", "month", "--family", "large", "--format", "svg"] + store,
            ["render", "Night Board", "--format", "txt"] + store,
            ["render", "--template", "noise-machine", "--family", "huge"] + store,
            ["render", "--template", "noise-machine", "--family", "small", "--family", "medium"] + store,
            ["render", "--template", "noise-machine", "--scale", "-1"] + store,
            ["render", "--template", "noise-machine", "--watch"] + store,
            ["render", "--template", "noise-machine", "--tmplate", "x"] + store,
            ["render", "--template", "noise-machine", "--scale"] + store,
            ["render", "--template", "noise-machine", "--format", "txt", "--now", "2026-13-01T00:00:00Z"] + store,
        ]
        for line in lines {
            let quick = try Products.run("weaver", line)
            let parsed = try Products.run("weaver", line + ["--"])
            #expect(quick.status == parsed.status, "\(line): \(quick.status) vs \(parsed.status)")
            #expect(quick.stdout == parsed.stdout, "\(line)")
            #expect(quick.stderrText == parsed.stderrText, "\(line)")
        }
    }

    /// The quick reading names `render`'s options a second time, beside argument-parser's
    /// declarations: an option added to `Render` and not to it would still work (argument-parser
    /// reads what the quick reading refuses) but lose the speed-up without a sound. So every option
    /// and flag `render` declares (its `--experimental-dump-help`, help and version aside) must be
    /// a name the quick reading's source handles.
    @Test func theQuickReadingKnowsEveryOptionRenderDeclares() throws {
        let dump = try Products.run("weaver", ["render", "--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderrText)")
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        var declared: [String] = []
        for argument in arguments where argument["kind"] as? String != "positional" {
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let spelling = name["name"] as? String, let kind = name["kind"] as? String else { continue }
                declared.append(kind == "long" ? "--" + spelling : "-" + spelling)
            }
        }
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/App/weaver/Subcommands/RenderQuickParse.swift"),
            encoding: .utf8)
        let handled = Set(declared.filter { source.contains("\"\($0)\"") })
        let left = declared.filter { !handled.contains($0) && !["--help", "-h", "--version"].contains($0) }
        #expect(declared.count >= 14, "\(declared)")
        #expect(left.isEmpty, "render declares options the quick reading does not handle: \(left)")
    }

    @Test func badOptionsAreRefusedNamingTheFlag() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (args, flag) in [
            (["--family", "huge"], "--family"), (["--scale", "4"], "--scale"), (["--format", "gif"], "--format"),
            (["-o", "x.gif"], "x.gif"), (["--now", "yesterday"], "--now"), (["--template", "nope"], "--template"),
        ] {
            let r = try Products.run(
                "weaver",
                ["render", "--store", dir.path, "--template", "classic"].filter {
                    args.contains("--template") ? !["--template", "classic"].contains($0) : true
                } + args)
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderrText)")
            #expect(r.stderrText.contains(flag), "\(args): \(r.stderrText)")
        }
        // An empty library draws the Noise Machine widget and says so; a library with designs but
        // no default asks which.
        let empty = try Products.run("weaver", ["render", "--store", dir.path, "--format", "txt", "-o", "-"])
        #expect(
            empty.status == 0 && empty.stdoutText.hasPrefix("Noise: Stopped"), "\(empty.stdoutText)\(empty.stderrText)")
        #expect(empty.stderrText.contains("no designs yet: drawing the Noise Machine widget"), "\(empty.stderrText)")
        #expect(
            try Products.run("weaver", ["designs", "new", "--store", dir.path, "--template", "classic", "--name", "A"])
                .status == 0)
        #expect(try Products.run("weaver", ["designs", "default", "--store", dir.path, "--clear"]).status == 0)
        let none = try Products.run(
            "weaver", ["render", "--store", dir.path, "-o", dir.appendingPathComponent("a.png").path])
        #expect(none.status == 1 && none.stderrText.contains("no default design"), "\(none.stderrText)")
    }

    @Test func tapFindsTheButtonOrNamesTheNearest() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = [
            "tap", "--store", dir.path, "--template", "noise-machine", "--family", "small", "--now",
            "2026-01-24T09:30:00Z",
        ]
        let play = try Products.run("weaver", base + ["--at", "36,36", "--dry-run"])
        #expect(play.status == 0, "\(play.stderrText)")
        #expect(play.stdoutText.hasPrefix("found togglePlayPause"))
        let layer = try Products.run("weaver", base + ["--at", "140,140", "--dry-run"])
        #expect(layer.stdoutText.contains("toggleLayer layer 4"), "\(layer.stdoutText)\(layer.stderrText)")
        let empty = try Products.run("weaver", base + ["--at", "150,100", "--dry-run"])
        #expect(empty.status == 1)
        #expect(
            empty.stderrText.contains("no button at 150,100; the nearest is toggleLayer layer 4"), "\(empty.stderrText)"
        )
        let outside = try Products.run("weaver", base + ["--at", "500,10"])
        #expect(outside.status == 1 && outside.stderrText.contains("outside"))
        let malformed = try Products.run("weaver", base + ["--at", "ten,4"])
        #expect(malformed.status == 64 && malformed.stderrText.contains("'--at'"))
    }

    /// A saved design "Morning" whose action bar (drawn only with Pro) has "Coffee" (+1 to
    /// `coffee`) and "Fed" (the time into `fed`).
    func saveMorning(in dir: URL) throws {
        var d = try #require(try TemplateCatalogue.find("classic")).design(
            remix: nil, now: Date(timeIntervalSince1970: 1_769_247_000))
        d.id = UUID()
        d.name = "Morning"
        d.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "Coffee", kind: .incrementVariable, variableKey: "coffee", incrementAmount: 1),
            ActionSpec(title: "Fed", kind: .setVariableToNow, variableKey: "fed", nowFormat: .unixSeconds),
        ])
        try DesignLibrary(root: StoreRoot(url: dir)).add([d])
    }

    /// A store on a read-only mount (a shared or backed-up home, another user's folder) still
    /// renders: reading takes no lock and rewrites no index. The index is removed first, so the
    /// library has to list the design files itself, the path that took `designs.lock`. The mount
    /// is made in a private mount namespace (`unshare -m`), so nothing outside this test sees it.
    /// Before issue 41: "lock …/.locks/designs.lock: open: Read-only file system".
    @Test func aReadOnlyStoreStillRenders() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try saveMorning(in: dir)
        let root = StoreRoot(url: dir)
        let index = root.designs.appendingPathComponent(".index")
        try FileManager.default.removeItem(at: index)
        try? FileManager.default.removeItem(at: root.locks)
        let out = try Products.temporaryDirectory("render-ro")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = #"mount --bind -o ro "$1" "$1" && shift && exec "$@""#
        for (name, arguments) in [("named", ["Morning"]), ("default", [String]()), ("list", ["--list"])] {
            let png = out.appendingPathComponent("\(name).png").path
            let weaverArguments =
                name == "list"
                ? ["designs", "list", "--store", dir.path]
                : ["render"] + arguments + ["--store", dir.path, "-o", png]
            let r = try Self.run(
                "/usr/bin/unshare",
                ["-m", "sh", "-c", script, "sh", dir.path, Products.url("weaver").path] + weaverArguments)
            #expect(r.status == 0, "\(weaverArguments): \(r.stderr)")
            #expect(!r.stderr.contains("designs.lock"), "\(r.stderr)")
            if name == "list" {
                #expect(r.stdout.contains("Morning"), "\(r.stdout)")
            } else {
                let data = try Data(contentsOf: URL(fileURLWithPath: png))
                #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name)")
            }
        }
        // Nothing was written into the store meanwhile (the mount held), and the store still works
        // normally once writable: the index comes back.
        #expect(!FileManager.default.fileExists(atPath: index.path))
        #expect(!FileManager.default.fileExists(atPath: root.locks.path))
        let listed = try Products.run("weaver", ["designs", "list", "--store", dir.path])
        #expect(listed.status == 0 && listed.stdoutText.contains("Morning"), "\(listed.stderrText)")
        #expect(FileManager.default.fileExists(atPath: index.path))
    }

    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(path, arguments)
        let status = child.wait()
        return (status, String(decoding: child.stdout, as: UTF8.self), String(decoding: child.stderr, as: UTF8.self))
    }

    /// `--pro` unlocks Pro for one command, without storing it: `render --pro` draws the action bar,
    /// and `tap --pro` at a button of that picture performs it (it said "needs Pro" before).
    @Test func tapWithProPressesTheActionBarThatRenderWithProDraws() throws {
        let dir = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try saveMorning(in: dir)
        let json = try Products.run("weaver", ["render", "Morning", "--pro", "--store", dir.path, "--format", "json"])
        #expect(json.status == 0, "\(json.stderrText)")
        let tree = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let actions = try #require(tree["actions"] as? [[String: Any]])
        let coffee = try #require(actions.first { $0["title"] as? String == "Coffee" }, "\(actions)")
        let rect = try #require(coffee["rect"] as? [String: Any]).mapValues { ($0 as? NSNumber)?.doubleValue ?? .nan }
        let at = "\(Int(rect["x"]! + rect["width"]! / 2)),\(Int(rect["y"]! + rect["height"]! / 2))"

        let found = try Products.run(
            "weaver", ["tap", "Morning", "--pro", "--store", dir.path, "--at", at, "--dry-run"])
        #expect(found.status == 0, "\(found.stderrText)")
        #expect(
            found.stdoutText.hasPrefix("found incrementVariable \"Coffee\" at \(Int(rect["x"]!)),\(Int(rect["y"]!))"),
            "\(found.stdoutText)")

        for expected in ["coffee is now 1 (+1).", "coffee is now 2 (+1)."] {
            let pressed = try Products.run("weaver", ["tap", "Morning", "--pro", "--store", dir.path, "--at", at])
            #expect(pressed.status == 0, "\(pressed.stderrText)")
            #expect(pressed.stdoutText == expected + "\n", "\(pressed.stdoutText)")
        }
        #expect(try VariableStore(root: StoreRoot(url: dir)).load()["coffee"] == "2")
        // Pro was for those commands only: nothing stored, and without '--pro' there is no bar to press.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("pro.json").path))
        #expect(try Products.run("weaver", ["pro", "status", "--store", dir.path]).stdoutText == "locked\n")
        let free = try Products.run("weaver", ["tap", "Morning", "--store", dir.path, "--at", at])
        #expect(
            free.status == 1
                && free.stderrText.contains(
                    """
                    no button at \(at) without Pro: the action bar ('Coffee', 'Fed') needs Pro; use --pro or \
                    'weaver pro unlock'
                    """
                ),
            "\(free.stderrText)")
        #expect(try VariableStore(root: StoreRoot(url: dir)).load()["coffee"] == "2")
    }
}
