import Foundation
import TestSupport
import Testing

/// `weaver desktop add/list/move/remove` and `--autostart`, as a user types them.
@Suite struct DesktopCommandTests {
    @Test func addListMoveRemove() throws {
        let dir = try Products.temporaryDirectory("desktop-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = ["--store", dir.path]
        func weaver(_ a: [String]) throws -> Products.Result { try Products.run("weaver", a + store) }
        let made = try weaver(["designs", "new", "--template", "classic", "--name", "Shopping"])
        #expect(made.status == 0)

        let add = try weaver([
            "desktop", "add", "Shopping", "--family", "medium", "--anchor", "top-right", "--margin", "24",
        ])
        #expect(
            add.stdoutText == "Added Shopping (medium) as desktop widget 1, top-right +24, monitor 0.\n",
            "\(add.stdoutText)\(add.stderrText)")
        let noise = try weaver(["desktop", "add", "noise-machine", "--at", "10,20", "--monitor", "all"])
        #expect(
            noise.stdoutText == "Added Noise Machine (small) as desktop widget 2, at 10,20, every monitor.\n",
            "\(noise.stdoutText)")
        let list = try weaver(["desktop", "list"]).stdoutText
        #expect(
            list.contains("Shopping") && list.contains("top-right +24") && list.contains("Noise Machine")
                && list.contains("every monitor"), "\(list)")

        let moved = try weaver(["desktop", "move", "1", "--at", "100,200", "--monitor", "1"])
        #expect(
            moved.stdoutText == "Moved desktop widget 1: at 100,200, monitor 1.\n",
            "\(moved.stdoutText)\(moved.stderrText)")
        #expect(try weaver(["desktop", "remove", "2"]).status == 0)
        let gone = try weaver(["desktop", "remove", "2"])
        #expect(
            gone.status != 0 && gone.stderrText.contains("there is no desktop widget 2; the desktop has 1"),
            "\(gone.stderrText)")
        let json = try weaver(["desktop", "list", "--json"]).stdoutText
        #expect(json.contains("\"place\" : \"at 100,200\""), "\(json)")
    }

    @Test(arguments: [
        (["desktop", "add", "noise", "--at", "5"], "'--at' must be X,Y in points"),
        (
            ["desktop", "add", "noise", "--anchor", "middle"],
            "'--anchor' must be one of top-left, top-right, bottom-left, bottom-right, center; got 'middle'"
        ),
        (
            ["desktop", "add", "noise", "--anchor", "center", "--margin", "2000"],
            "'--margin' 2000 is out of range; allowed 0…1000"
        ),
        (["desktop", "add", "noise", "--monitor", "16"], "'--monitor' must be a number 0…15 or 'all'; got '16'"),
        (["desktop", "add", "noise", "--family", "huge"], "'--family' must be one of"),
        (["desktop", "add", "nothing-like-this"], "nothing-like-this"),
        (["desktop", "move", "1"], "say where"),
        (["desktop", "--autostart", "maybe"], "'--autostart' must be enable or disable; got 'maybe'"),
    ])
    func badInputIsNamed(args: [String], message: String) throws {
        let dir = try Products.temporaryDirectory("desktop-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Products.run("weaver", args + ["--store", dir.path])
        #expect(r.status != 0)
        #expect(r.stderrText.contains(message), "\(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("desktop.json").path))
    }

    /// weaver is started by status bars every minute: GTK stays in weaver-desktop.
    @Test func weaverDoesNotLoadGTK() throws {
        func ldd(_ name: String) throws -> String {
            let child = try ChildProcess("/usr/bin/ldd", [Products.url(name).path])
            #expect(child.wait() == 0)
            return String(decoding: child.stdout, as: UTF8.self)
        }
        let weaver = try ldd("weaver")
        #expect(weaver.contains("libcairo") && !weaver.contains("libgtk") && !weaver.contains("libgdk"), "\(weaver)")
        let host = try ldd("weaver-desktop")
        #expect(host.contains("libgtk-3") && host.contains("libgtk-layer-shell"), "\(host)")
    }

    @Test func autostartEnableAndDisable() throws {
        let dir = try Products.temporaryDirectory("desktop-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_CONFIG_HOME": dir.appendingPathComponent("config").path]
        let on = try Products.run(
            "weaver", ["desktop", "--autostart", "enable", "--store", dir.path], environment: env)
        #expect(on.status == 0, "\(on.stderrText)")
        let entry = dir.appendingPathComponent("config/autostart/widgetweaver-desktop.desktop")
        let text = try String(contentsOf: entry, encoding: .utf8)
        #expect(text.contains("\(Products.url("weaver").path)\" \"desktop\" \"--store\""), "\(text)")
        let off = try Products.run(
            "weaver", ["desktop", "--autostart", "disable", "--store", dir.path], environment: env)
        #expect(off.status == 0 && off.stdoutText.contains("Removed \(entry.path)"), "\(off.stdoutText)")
        #expect(!FileManager.default.fileExists(atPath: entry.path))
    }
}
