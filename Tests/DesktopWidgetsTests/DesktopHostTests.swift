import Foundation
import TestSupport
import Testing
import WidgetRender

/// `weaver desktop` as a user runs it, on a private Xvfb (no window manager) started and stopped
/// by PID: the windows' desktop hints, the picture against `weaver render`, clicks that start a
/// real player on a private PulseAudio, redraw latency after `weaver vars set`, memory and idle CPU.
@Suite(.serialized) struct DesktopHostTests {
    struct Rig {
        let x: XvfbServer
        let dir: URL
        let store: URL
        var env: [String: String]

        init(extraEnvironment: [String: String] = [:]) throws {
            x = try XvfbServer()
            dir = try Products.temporaryDirectory("desktop")
            store = dir.appendingPathComponent("store")
            env = x.environment.merging([
                "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
                "XDG_RUNTIME_DIR": dir.path, "WEAVER_DESKTOP_LOG_DRAWS": "1",
            ]) { $1 }
            .merging(extraEnvironment) { $1 }
        }

        func weaver(_ args: [String]) throws -> Products.Result {
            try Products.run("weaver", args + ["--store", store.path], environment: env)
        }

        func newDesign(_ name: String, primary: String) throws -> String {
            let made = try weaver(["designs", "new", "--template", "classic", "--name", name])
            #expect(made.status == 0, "\(made.stderrText)")
            // "Created NAME (ID)." is the first line (the first design's default note follows it).
            let first = made.stdoutText.split(separator: "\n").first ?? ""
            let id = String(first.split(separator: "(").last!.prefix(36))
            let set = try weaver(["designs", "set", id, "primaryText=\(primary)"])
            #expect(set.status == 0, "\(set.stderrText)")
            return id
        }

        /// Starts `weaver desktop` and waits until it has shown its windows.
        func startHost(expectWindows: Int) throws -> Spawned {
            let host = try Spawned("weaver", ["desktop", "--store", store.path], environment: env)
            let ready = host.waitForStderr(15) { $0.contains("showing \(expectWindows) widget window") }
            #expect(ready, "\(host.stderrText)")
            // Mapped and drawn: each window logs its first draw.
            #expect(
                host.waitForStderr(10) { $0.components(separatedBy: "drew widget").count - 1 >= expectWindows },
                "\(host.stderrText)")
            return host
        }

        /// Right-clicks at a point and waits until the widget's menu shows there: the screen just below
        /// and right of the pointer, where GTK opens it, changes (its menu has no state a test can read).
        func openMenu(x px: Int, y: Int) throws {
            func area() -> [UInt32]? { (try? shot("menu-area.png", x: px + 5, y: y + 5, width: 60, height: 40))?.argb }
            #expect(try x.run("/usr/bin/xdotool", ["mousemove", "--sync", "\(px)", "\(y)"]).status == 0)
            let before = area()
            #expect(try x.run("/usr/bin/xdotool", ["click", "3"]).status == 0)
            #expect(eventually(5) { area().map { $0 != before } ?? false }, "no menu opened at \(px),\(y)")
        }

        func windowIDs() throws -> [String] {
            let r = try x.run("/usr/bin/xdotool", ["search", "--name", "WidgetWeaver desktop widget"])
            return r.stdoutText.split(separator: "\n").map(String.init)
        }

        func shot(_ name: String, x px: Int, y: Int, width: Int, height: Int) throws -> PixelImage {
            let url = dir.appendingPathComponent(name)
            return try PixelImage(png: x.screenshot(x: px, y: y, width: width, height: height, to: url), name: url.path)
        }

        /// `weaver render` at scale 1 over black: what an X server without a compositor shows
        /// where the widget is transparent (its rounded corners).
        func render(_ args: [String], name: String, scale: Int = 1) throws -> PixelImage {
            let url = dir.appendingPathComponent(name)
            let r = try weaver(["render"] + args + ["--scale", String(scale), "--backdrop", "#000000", "-o", url.path])
            #expect(r.status == 0, "\(r.stderrText)")
            return try PixelImage(png: [UInt8](Data(contentsOf: url)), name: url.path)
        }

        func cleanUp() {
            x.stop()
            try? FileManager.default.removeItem(at: dir)
        }
    }

    static func expectGoldenClose(_ shot: PixelImage, _ render: PixelImage, _ what: String, saveTo dir: URL) throws {
        let d = try #require(
            shot.difference(render),
            "\(what): screenshot \(shot.width)×\(shot.height), render \(render.width)×\(render.height)")
        print("DesktopHost: \(what): mean difference \(d.mean), \(d.fraction * 100)% of pixels differ")
        // The golden tests' tolerance (GoldenTests.check).
        let ok = d.mean <= 1.0 && d.fraction <= 0.005
        if !ok {
            let out = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("desktop-failures")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data(shot.png()).write(to: out.appendingPathComponent("\(what).shot.png"))
            try Data(render.png()).write(to: out.appendingPathComponent("\(what).render.png"))
            try Data(d.diff.png()).write(to: out.appendingPathComponent("\(what).diff.png"))
        }
        #expect(
            ok, "\(what): mean \(d.mean), \(d.fraction * 100)% differ; see \(NSTemporaryDirectory())desktop-failures")
    }

    @Test func windowsAreDesktopWindowsDrawnAsWeaverRenderDraws() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        let design = try rig.newDesign("Desk", primary: "On the desktop")
        #expect(try rig.weaver(["desktop", "add", "noise-machine", "--family", "small", "--at", "20,30"]).status == 0)
        #expect(try rig.weaver(["desktop", "add", design, "--family", "medium", "--at", "300,30"]).status == 0)
        let host = try rig.startHost(expectWindows: 2)
        defer {
            #expect(host.terminate() == 0)
        }

        let ids = try rig.windowIDs()
        #expect(ids.count == 2, "\(ids)")
        for id in ids {
            let props = try rig.x.run("/usr/bin/xprop", ["-id", id]).stdoutText
            #expect(props.contains("_NET_WM_WINDOW_TYPE(ATOM) = _NET_WM_WINDOW_TYPE_DESKTOP"), "\(props)")
            let state =
                props.split(separator: "\n").first { $0.hasPrefix("_NET_WM_STATE(ATOM)") }.map(String.init) ?? ""
            for atom in [
                "_NET_WM_STATE_BELOW", "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER",
            ] {
                #expect(state.contains(atom), "\(atom) missing: \(state)")
            }
            // Not focused by appearing (user time 0); focusable for keyboard use of its buttons.
            #expect(props.contains("_NET_WM_USER_TIME(CARDINAL) = 0"), "\(props)")
            let geometry = try rig.x.run("/usr/bin/xwininfo", ["-id", id]).stdoutText
            #expect(geometry.contains("Depth: 32"), "an ARGB window (transparent corners): \(geometry)")
        }

        let noiseShot = try rig.shot("noise-shot.png", x: 20, y: 30, width: 170, height: 170)
        let noiseRender = try rig.render(
            ["--template", "noise-machine", "--family", "small"], name: "noise-render.png")
        try Self.expectGoldenClose(noiseShot, noiseRender, "noise-machine-small", saveTo: rig.dir)
        let designShot = try rig.shot("design-shot.png", x: 300, y: 30, width: 364, height: 170)
        let designRender = try rig.render([design, "--family", "medium"], name: "design-render.png")
        try Self.expectGoldenClose(designShot, designRender, "design-medium", saveTo: rig.dir)
        // The comparison can fail: the design's picture where the Noise widget is differs.
        let wrong = try rig.shot("wrong.png", x: 300, y: 30, width: 170, height: 170)
        #expect(wrong.difference(noiseRender).map { $0.fraction > 0.05 } == true)

        if let keep = ProcessInfo.processInfo.environment["WW_DESKTOP_SCREENSHOT"] {
            _ = try rig.x.screenshot(x: 0, y: 0, width: 700, height: 240, to: URL(fileURLWithPath: keep))
        }
    }

    /// Press and hold the play button: it is drawn pressed (darker); release: a real player
    /// starts on the private PulseAudio, as `weaver tap` starts it.
    @Test func clickingPlayStartsAPlayer() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let rig = try Rig(extraEnvironment: pulse.environment)
        defer { rig.cleanUp() }
        #expect(try rig.weaver(["desktop", "add", "noise", "--family", "small", "--at", "40,40"]).status == 0)
        let host = try rig.startHost(expectWindows: 1)
        defer { host.terminate() }
        defer { _ = try? Products.run("noise", ["stop"], environment: rig.env) }

        // The play button of the small widget holds 36,36 (as in the tap test).
        let before = try rig.shot("before.png", x: 40 + 26, y: 40 + 26, width: 20, height: 20)
        #expect(try rig.x.run("/usr/bin/xdotool", ["mousemove", "--sync", "76", "76", "mousedown", "1"]).status == 0)
        let held =
            try Wait.until(3, interval: 0.05) { () -> PixelImage? in
                guard let shot = try? rig.shot("held.png", x: 40 + 26, y: 40 + 26, width: 20, height: 20) else {
                    return nil
                }
                return (before.difference(shot)?.fraction ?? 0) > 0.5 ? shot : nil
            } ?? rig.shot("held.png", x: 40 + 26, y: 40 + 26, width: 20, height: 20)
        let d = try #require(before.difference(held))
        #expect(d.fraction > 0.5, "pressed state: \(d.fraction * 100)% of the button's pixels changed")
        #expect(try rig.x.run("/usr/bin/xdotool", ["mouseup", "1"]).status == 0)

        let status = rig.store.appendingPathComponent("status.json")
        let state = Wait.until(10, interval: 0.05) { () -> [String: Any]? in
            guard let data = try? Data(contentsOf: status),
                let s = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                s["state"] as? String == "playing"
            else { return nil }
            return s
        }
        let s = try #require(state, "no player started: \(host.stderrText)")
        let pid = try #require(s["pid"] as? Int)
        #expect(kill(Int32(pid), 0) == 0)
        #expect(
            host.waitForStderr(5) { $0.contains("widget 1: No Last Mix yet: started the default mix") },
            "\(host.stderrText)")
        // The sink gets sound: the player is connected to the private server.
        let inputs = try pulse.run("/usr/bin/pactl", ["list", "short", "sink-inputs"]).stdoutText
        #expect(!inputs.isEmpty, "no stream on the private PulseAudio")
        // The widget shows it playing, drawn again without anyone asking (the status feed's change).
        let playing = try rig.render(["--template", "noise-machine", "--family", "small"], name: "playing.png")
        var after = try rig.shot("after.png", x: 40, y: 40, width: 170, height: 170)
        _ = Wait.until(3, interval: 0.1) { () -> Bool? in
            guard let shot = try? rig.shot("after.png", x: 40, y: 40, width: 170, height: 170) else { return nil }
            after = shot
            return (shot.difference(playing)?.fraction ?? 1) <= 0.005 ? true : nil
        }
        try Self.expectGoldenClose(after, playing, "noise-machine-playing", saveTo: rig.dir)
        // The player is an ordinary one: `noise stop` ends it.
        #expect(try Products.run("noise", ["stop"], environment: rig.env).status == 0)
        let gone = Date().addingTimeInterval(10)
        _ = Wait.until(gone.timeIntervalSinceNow, interval: 0.02) { kill(Int32(pid), 0) != 0 ? true : nil }
        #expect(kill(Int32(pid), 0) != 0, "the player exits when stopped")
    }

    /// HiDPI: with GDK_SCALE=2 (what a 2× monitor gives GTK) the window is the same size in
    /// points and drawn at 2 pixels per point: the screenshot matches `weaver render --scale 2`.
    @Test func hiDPIDrawsAtTheMonitorsScale() throws {
        let rig = try Rig(extraEnvironment: ["GDK_SCALE": "2"])
        defer { rig.cleanUp() }
        #expect(try rig.weaver(["desktop", "add", "noise", "--at", "20,30"]).status == 0)
        let host = try rig.startHost(expectWindows: 1)
        defer { host.terminate() }
        let id = try #require(try rig.windowIDs().first)
        let info = try rig.x.run("/usr/bin/xwininfo", ["-id", id]).stdoutText
        #expect(info.contains("Width: 340") && info.contains("Absolute upper-left X:  40"), "\(info)")
        let shot = try rig.shot("hidpi.png", x: 40, y: 60, width: 340, height: 340)
        let render = try rig.render(
            ["--template", "noise-machine", "--family", "small"], name: "hidpi-render.png", scale: 2)
        try Self.expectGoldenClose(shot, render, "noise-machine-small@2x", saveTo: rig.dir)
    }

    /// Right-click → Move, then a drag, stores the new place; right-click → Remove from desktop
    /// takes the widget off (and out of desktop.json).
    @Test func rightClickMenuMovesAndRemoves() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        #expect(try rig.weaver(["desktop", "add", "noise", "--at", "20,30"]).status == 0)
        #expect(try rig.weaver(["desktop", "add", "noise", "--at", "400,30"]).status == 0)
        let host = try rig.startHost(expectWindows: 2)
        defer { host.terminate() }
        func xdotool(_ a: [String]) throws { #expect(try rig.x.run("/usr/bin/xdotool", a).status == 0) }
        func listed() throws -> String { try rig.weaver(["desktop", "list"]).stdoutText }
        // The menu opens at the pointer; its items are 25 px apart, the first 17 px below it.
        try rig.openMenu(x: 100, y: 100)
        let drawsBeforeMove = host.stderrText.components(separatedBy: "drew widget").count
        try xdotool(["mousemove", "--sync", "140", "142", "click", "1"])  // Move
        // Move mode redraws the widget (with the move cursor): the host is in it once that draw is logged.
        #expect(
            host.waitForStderr(5) { $0.components(separatedBy: "drew widget").count > drawsBeforeMove },
            "no redraw after Move: \(host.stderrText)")
        // X delivers the press, the motions and the release in order; the host reads the place from the release.
        try xdotool(["mousemove", "--sync", "100", "100", "mousedown", "1"])
        try xdotool(["mousemove", "--sync", "150", "140"])
        try xdotool(["mousemove", "--sync", "200", "150", "mouseup", "1"])
        _ = eventually(3) { (try? listed())?.contains("at 120,80") == true }
        let afterMove = try listed()
        #expect(afterMove.contains("at 120,80"), "\(afterMove) \(host.stderrText)")
        let ids = try rig.windowIDs()
        let positions = try ids.map { try rig.x.run("/usr/bin/xwininfo", ["-id", $0]).stdoutText }
        #expect(
            positions.contains {
                $0.contains("Absolute upper-left X:  120") && $0.contains("Absolute upper-left Y:  80")
            }, "\(positions)")

        try rig.openMenu(x: 480, y: 100)
        try xdotool(["mousemove", "--sync", "520", "167", "click", "1"])  // Remove from desktop
        _ = eventually(3) { (try? rig.windowIDs())?.count == 1 }
        #expect(try rig.windowIDs().count == 1)
        let afterRemove = try listed()
        #expect(!afterRemove.contains("at 400,30"), "\(afterRemove)")
    }

    /// Right-click → Edit in browser opens the design's editor of the running `weaver serve`
    /// (xdg-open is a stand-in here that writes down what it was asked to open).
    @Test func editInBrowserOpensTheDesignsEditor() throws {
        var rig = try Rig()
        defer { rig.cleanUp() }
        let bin = rig.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let opened = rig.dir.appendingPathComponent("opened")
        try Data("#!/bin/sh\necho \"$@\" >> '\(opened.path)'\n".utf8).write(to: bin.appendingPathComponent("xdg-open"))
        chmod(bin.appendingPathComponent("xdg-open").path, 0o755)
        let port = try WebDriver.freePort()
        rig.env["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        rig.env["WEAVER_DESKTOP_SERVE_PORT"] = String(port)
        let design = try rig.newDesign("Editable", primary: "Edit me")
        let serve = try Spawned(
            "weaver", ["serve", "--port", String(port), "--store", rig.store.path], environment: rig.env)
        defer { serve.terminate() }
        _ = eventually(10) { serve.stdoutText.contains("Serving") }
        #expect(try rig.weaver(["desktop", "add", design, "--family", "medium", "--at", "20,30"]).status == 0)
        let host = try rig.startHost(expectWindows: 1)
        defer { host.terminate() }
        try rig.openMenu(x: 100, y: 100)
        #expect(try rig.x.run("/usr/bin/xdotool", ["mousemove", "--sync", "140", "117", "click", "1"]).status == 0)
        _ = eventually(5) { FileManager.default.fileExists(atPath: opened.path) }
        let text = (try? String(contentsOf: opened, encoding: .utf8)) ?? ""
        #expect(text == "http://127.0.0.1:\(port)/editor/\(design)\n", "\(text) \(host.stderrText)")
    }

    /// A Reminders widget (large, at 40,40) over a todo.txt of four tasks, every reminder shown and the
    /// done ones left out, so completing a row makes the next slide into its place. Returns the file, its
    /// bytes, and the first row's centre on the screen (from the layout's own action areas).
    static func remindersOnTheDesktop(_ rig: Rig) throws -> (todo: URL, original: Data, x: Int, y: Int) {
        let todo = rig.dir.appendingPathComponent("todo.txt")
        let original = Data("Alpha task\nBravo task\nCharlie task\nDelta task\n".utf8)
        try original.write(to: todo)
        #expect(try rig.weaver(["reminders", "add", todo.path]).status == 0)
        #expect(try rig.weaver(["reminders", "refresh", "--quiet"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "reminders"]).status == 0)
        let list = try JSONSerialization.jsonObject(with: try rig.weaver(["designs", "list", "--json"]).stdout)
        let id = try #require(
            (list as? [[String: Any]])?.first { $0["name"] as? String == "Reminders" }?["id"] as? String)
        let set = try rig.weaver(["designs", "set", id, "reminders.mode=list", "reminders.hideCompleted=true"])
        #expect(set.status == 0, "\(set.stderrText)")
        #expect(try rig.weaver(["desktop", "add", id, "--family", "large", "--at", "40,40"]).status == 0)
        // Points; the window is at 40,40, scale 1.
        let layout =
            try JSONSerialization.jsonObject(
                with: try rig.weaver(["render", id, "--family", "large", "--format", "json"]).stdout) as? [String: Any]
        let actions = layout?["actions"] as? [[String: Any]] ?? []
        let rows = actions.filter { $0["kind"] as? String == "completeReminder" }
        try #require(rows.count == 4, "\(rows)")
        // The keyboard test Tabs from the first button: it must be the first row.
        try #require(actions.first?["kind"] as? String == "completeReminder", "\(actions)")
        let rect = try #require(rows[0]["rect"] as? [String: Double])
        return (todo, original, 40 + Int(rect["x"]! + rect["width"]! / 2), 40 + Int(rect["y"]! + rect["height"]! / 2))
    }

    /// Issue 41.5: a double-click on a reminder row completes that one reminder (the second click used
    /// to land on the row that slid into its place once the list redrew, completing it too), and the
    /// widget offers Undo, which puts the file's bytes back only while the file still holds what the
    /// completion wrote.
    @Test func aDoubleClickCompletesOneReminderAndUndoPutsItBack() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        let (todo, original, x, y) = try Self.remindersOnTheDesktop(rig)
        let host = try rig.startHost(expectWindows: 1)
        defer { host.terminate() }
        func lines() -> [String] {
            String(decoding: (try? Data(contentsOf: todo)) ?? Data(), as: UTF8.self).components(separatedBy: "\n")
        }
        func done() -> [String] { lines().filter { $0.hasPrefix("x ") } }

        // A double-click, 150 ms between the clicks: time for the list to redraw in between.
        let click = ["mousemove", "--sync", "\(x)", "\(y)", "click", "--repeat", "2", "--delay", "150", "1"]
        #expect(try rig.x.run("/usr/bin/xdotool", click).status == 0)
        #expect(eventually(5) { !done().isEmpty }, "nothing completed: \(host.stderrText)")
        // A quiet second: a second completion, if the second click made one, is written by then.
        #expect(throughout(1) { done().count == 1 }, "a second row completed: \(lines())")
        #expect(done().count == 1 && done().first?.hasSuffix(" Alpha task") == true, "\(lines())")
        #expect(lines().contains("Bravo task"), "\(lines())")

        // Undo: the file's bytes as they were before.
        let undoLine = #/widget 1: Undo button at (?<x>\d+),(?<y>\d+)/#
        #expect(host.waitForStderr(5) { $0.contains(undoLine) }, "no Undo offered: \(host.stderrText)")
        let at = try #require(host.stderrText.matches(of: undoLine).last?.output)
        let ux = 40 + Int(at.x)!, uy = 40 + Int(at.y)!
        #expect(try rig.x.run("/usr/bin/xdotool", ["mousemove", "--sync", "\(ux)", "\(uy)", "click", "1"]).status == 0)
        #expect(
            eventually(5) { (try? Data(contentsOf: todo)) == original },
            "Undo did not put the file back: \(lines()) \(host.stderrText)")
        #expect(host.waitForStderr(5) { $0.contains("widget 1: Reopened 'Alpha task'.") }, "\(host.stderrText)")

        // Completed again, then the file edited by hand: Undo says so and writes nothing.
        Thread.sleep(forTimeInterval: 0.7)  // past the rows' quiet time after the Undo
        let offers = host.stderrText.matches(of: undoLine).count
        #expect(try rig.x.run("/usr/bin/xdotool", ["mousemove", "--sync", "\(x)", "\(y)", "click", "1"]).status == 0)
        #expect(eventually(5) { done().count == 1 }, "not completed again: \(lines()) \(host.stderrText)")
        #expect(
            host.waitForStderr(5) { $0.matches(of: undoLine).count > offers }, "no second offer: \(host.stderrText)")
        let handle = try FileHandle(forWritingTo: todo)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("Echo task\n".utf8))
        try handle.close()
        let edited = try Data(contentsOf: todo)
        #expect(try rig.x.run("/usr/bin/xdotool", ["mousemove", "--sync", "\(ux)", "\(uy)", "click", "1"]).status == 0)
        #expect(
            host.waitForStderr(5) {
                $0.contains("'Alpha task' was not reopened: \(todo.path) changed since it was completed")
            },
            "\(host.stderrText)")
        #expect(try Data(contentsOf: todo) == edited)
    }

    /// Issue 41.5, by keyboard: a row completed with Return is taken back by Ctrl+Z while the bar shows,
    /// and the bar's Undo is in the Tab order (Shift+Tab from the first button reaches it; Return presses it).
    @Test func undoIsReachableByKeyboard() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        let (todo, original, _, _) = try Self.remindersOnTheDesktop(rig)
        let host = try rig.startHost(expectWindows: 1)
        defer { host.terminate() }
        let window = try #require(try rig.windowIDs().first)
        func lines() -> [String] {
            String(decoding: (try? Data(contentsOf: todo)) ?? Data(), as: UTF8.self).components(separatedBy: "\n")
        }
        func done() -> [String] { lines().filter { $0.hasPrefix("x ") } }
        func key(_ keys: String...) throws {
            #expect(try rig.x.run("/usr/bin/xdotool", ["windowfocus", "--sync", window, "key"] + keys).status == 0)
        }
        let offer = "widget 1: Undo button at"
        func reopened() -> Int { host.stderrText.components(separatedBy: "widget 1: Reopened 'Alpha task'.").count - 1 }

        // Tab to the first row, Return: completed and offered; Ctrl+Z takes it back.
        try key("Tab", "Return")
        #expect(eventually(5) { done().count == 1 }, "Return did not complete the row: \(lines()) \(host.stderrText)")
        #expect(host.waitForStderr(5) { $0.contains(offer) }, "no Undo offered: \(host.stderrText)")
        try key("ctrl+z")
        #expect(
            eventually(5) { (try? Data(contentsOf: todo)) == original },
            "Ctrl+Z did not put the file back: \(lines()) \(host.stderrText)")
        #expect(host.waitForStderr(5) { _ in reopened() == 1 }, "\(host.stderrText)")

        // Again, then Shift+Tab from the first row wraps to the bar's Undo, and Return presses it.
        Thread.sleep(forTimeInterval: 0.7)  // past the rows' quiet time after the Undo
        let offers = host.stderrText.components(separatedBy: offer).count
        try key("Escape", "Tab", "Return")
        #expect(eventually(5) { done().count == 1 }, "Return did not complete the row: \(lines()) \(host.stderrText)")
        #expect(
            host.waitForStderr(5) { $0.components(separatedBy: offer).count > offers }, "no offer: \(host.stderrText)")
        // The ring moves onto the bar's Undo: the pixels around that button change (80×40 around its centre).
        let undoLine = #/widget 1: Undo button at (?<x>\d+),(?<y>\d+)/#
        let at = try #require(host.stderrText.matches(of: undoLine).last?.output)
        let (bx, by) = (40 + Int(at.x)! - 40, 40 + Int(at.y)! - 20)
        func area(_ name: String) -> PixelImage? { try? rig.shot(name, x: bx, y: by, width: 80, height: 40) }
        // The bar drawn and the list redrawn under it: the picture has stopped changing.
        let before = try #require(steady(for: 0.3) { area("kb-undo.png") } ?? nil)
        try key("shift+Tab")
        let ringed = eventually(3) {
            area("kb-undo-ring.png").map { (before.difference($0)?.fraction ?? 0) > 0.01 } ?? false
        }
        #expect(ringed, "no ring drawn around the bar's Undo")
        try key("Return")
        #expect(
            eventually(5) { (try? Data(contentsOf: todo)) == original },
            "Undo by Tab and Return did not put the file back: \(lines()) \(host.stderrText)")
        #expect(host.waitForStderr(5) { _ in reopened() == 2 }, "\(host.stderrText)")
    }

    /// Keyboard use of the buttons: focus the widget, Tab to the first button (drawn with a ring),
    /// Return presses it: play starts a player on the private PulseAudio.
    @Test func keyboardPressesTheFocusedButton() throws {
        let pulse = try PulseServer()
        defer { pulse.stop() }
        let rig = try Rig(extraEnvironment: pulse.environment)
        defer { rig.cleanUp() }
        #expect(try rig.weaver(["desktop", "add", "noise", "--at", "40,40"]).status == 0)
        let host = try rig.startHost(expectWindows: 1)
        defer { host.terminate() }
        defer { _ = try? Products.run("noise", ["stop"], environment: rig.env) }
        let id = try #require(try rig.windowIDs().first)
        let before = try rig.shot("kb-before.png", x: 40, y: 40, width: 170, height: 170)
        #expect(try rig.x.run("/usr/bin/xdotool", ["windowfocus", "--sync", id, "key", "Tab"]).status == 0)
        let ringed =
            try Wait.until(3, interval: 0.05) { () -> PixelImage? in
                guard let shot = try? rig.shot("kb-ring.png", x: 40, y: 40, width: 170, height: 170) else {
                    return nil
                }
                return (before.difference(shot)?.fraction ?? 0) > 0.003 ? shot : nil
            } ?? rig.shot("kb-ring.png", x: 40, y: 40, width: 170, height: 170)
        let d = try #require(before.difference(ringed))
        #expect(d.fraction > 0.003 && d.fraction < 0.2, "the focus ring: \(d.fraction * 100)% of pixels changed")
        #expect(try rig.x.run("/usr/bin/xdotool", ["key", "Return"]).status == 0)
        #expect(
            host.waitForStderr(10) { $0.contains("widget 1: No Last Mix yet: started the default mix") },
            "\(host.stderrText)")
    }

    /// A design deleted while it is on the desktop: its window goes (with a message naming the
    /// widget and how to remove it), the others stay; restored, it comes back.
    @Test func aDeletedDesignIsHiddenAndComesBack() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        let design = try rig.newDesign("Fleeting", primary: "Here")
        #expect(try rig.weaver(["desktop", "add", "noise", "--at", "20,20"]).status == 0)
        #expect(try rig.weaver(["desktop", "add", design, "--family", "medium", "--at", "300,20"]).status == 0)
        let host = try rig.startHost(expectWindows: 2)
        defer { host.terminate() }
        func visibleWindows() throws -> Int {
            try rig.x.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "WidgetWeaver desktop widget"])
                .stdoutText
                .split(separator: "\n").count
        }
        #expect(try visibleWindows() == 2)
        #expect(try rig.weaver(["designs", "delete", design]).status == 0)
        #expect(
            host.waitForStderr(3) {
                $0.contains("widget 2 (design \(design)):") && $0.contains("weaver desktop remove 2")
            }, "\(host.stderrText)")
        _ = eventually(3) { (try? visibleWindows()) == 1 }
        #expect(try visibleWindows() == 1)
        #expect(try rig.weaver(["designs", "restore", design]).status == 0)
        _ = eventually(3) { (try? visibleWindows()) == 2 }
        #expect(try visibleWindows() == 2)
        #expect(host.child.poll() == nil, "the host keeps running")
    }

    /// `weaver vars set` redraws the design that shows the variable within 200 ms, and only it.
    /// The figure is the median of five changes, and none may take a second: a scheduler stall of
    /// a loaded machine (CI ran 4 test shards on its cores; one change took 377 ms there, the next
    /// two were drawn before `weaver` had exited) is not the host's latency, a missed wake-up
    /// (seen only at the next minute tick) or a polling fallback is.
    @Test func varsSetRedrawsOnlyThatWidgetQuickly() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        let design = try rig.newDesign("Mood", primary: "Mood: {{mood|calm}}")
        #expect(try rig.weaver(["desktop", "add", "noise-machine", "--at", "20,20"]).status == 0)
        #expect(try rig.weaver(["desktop", "add", design, "--family", "medium", "--at", "300,20"]).status == 0)
        let host = try rig.startHost(expectWindows: 2)
        defer { host.terminate() }
        // The start-up draws are over before the timed ones begin.
        _ = host.waitForStderr(5) { $0.contains("drew widget 1") && $0.contains("drew widget 2") }

        var latencies: [Double] = []
        for mood in ["sunny", "stormy", "quiet", "bright", "still"] {
            let drawsBefore = host.stderrText.components(separatedBy: "drew widget 2").count
            let noiseDrawsBefore = host.stderrText.components(separatedBy: "drew widget 1").count
            let set = try rig.weaver(["vars", "set", "mood", mood])
            let written = ContinuousClock.now
            #expect(set.status == 0, "\(set.stderrText)")
            let seen = Wait.until(2, interval: 0.002) {
                host.stderrText.components(separatedBy: "drew widget 2").count > drawsBefore
                    ? written.duration(to: .now) : nil
            }
            let latency = try #require(seen, "no redraw after vars set: \(host.stderrText)")
            let ms = Double(latency.components.attoseconds) / 1e15 + Double(latency.components.seconds) * 1000
            latencies.append(ms)
            #expect(ms <= 1000, "redraw \(ms) ms after vars set")
            // That widget 1 is not drawn again is the check: a quiet window, failed at the first poll that sees a draw.
            #expect(
                throughout(0.3) { host.stderrText.components(separatedBy: "drew widget 1").count == noiseDrawsBefore },
                "the Noise widget does not show the variable and is not redrawn")
        }
        print("DesktopHost: redraw after 'weaver vars set': \(latencies.map { String(format: "%.1f", $0) }) ms")
        let median = latencies.sorted()[latencies.count / 2]
        #expect(median <= 200, "median redraw \(median) ms after vars set: \(latencies)")
        let shot = try rig.shot("mood.png", x: 300, y: 20, width: 364, height: 170)
        let render = try rig.render([design, "--family", "medium"], name: "mood-render.png")
        try Self.expectGoldenClose(shot, render, "design-after-vars-set", saveTo: rig.dir)
    }

    /// Four widgets: resident memory after they are drawn, and the CPU time the host uses over
    /// 60 s of nothing changing (one minute tick falls inside).
    @Test func fourWidgetsMemoryAndIdleCPU() throws {
        let rig = try Rig()
        defer { rig.cleanUp() }
        let a = try rig.newDesign("One", primary: "One")
        let b = try rig.newDesign("Two", primary: "Two")
        #expect(try rig.weaver(["desktop", "add", "noise", "--family", "medium", "--anchor", "top-left"]).status == 0)
        #expect(try rig.weaver(["desktop", "add", a, "--anchor", "top-right"]).status == 0)
        #expect(try rig.weaver(["desktop", "add", b, "--family", "large", "--anchor", "bottom-left"]).status == 0)
        #expect(
            try rig.weaver([
                "desktop", "add", "noise", "--family", "small", "--anchor", "bottom-right", "--margin", "10",
            ]).status == 0)
        let host = try rig.startHost(expectWindows: 4)
        defer { host.terminate() }
        Thread.sleep(forTimeInterval: 1)  // the measurement is the resident size a second after start-up
        let pid = host.processIdentifier
        func rssKB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        /// CPU time of all the host's threads in nanoseconds (schedstat: finer than clock ticks).
        func cpuNanoseconds() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.reduce(0) { sum, task in
                let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
                return sum + (Int(text.split(separator: " ").first ?? "") ?? 0)
            }
        }
        let rss = rssKB()
        print("DesktopHost: resident memory with 4 widgets, 1 s after they are drawn: \(rss / 1024) MB (\(rss) kB)")
        #expect(rss > 0 && rss <= Self.startUpLimitKB, "\(rss) kB")
        let cpuBefore = cpuNanoseconds()
        let start = Date()
        Thread.sleep(forTimeInterval: 60)  // the CPU an idle host spends over a minute is the measurement
        let cpu = Double(cpuNanoseconds() - cpuBefore) / 1e9
        let seconds = Date().timeIntervalSince(start)
        let steadyRSS = rssKB()
        print(
            """
            DesktopHost: resident memory with 4 widgets after 60 s idle (a minute tick included): \
            \(steadyRSS / 1024) MB (\(steadyRSS) kB)
            """
        )
        print(
            """
            DesktopHost: idle CPU over \(String(format: "%.1f", seconds)) s: \(String(format: "%.4f", cpu)) s = \
            \(String(format: "%.4f", cpu / seconds * 100)) %
            """
        )
        // One minute tick lays four widgets out again (about a millisecond); polling would cost far more.
        #expect(cpu < 0.1, "\(cpu) s of CPU in 60 s idle")
        #expect(steadyRSS > 0 && steadyRSS <= Self.memoryLimitKB, "\(steadyRSS) kB after 60 s")
    }

    /// Wayland: a headless sway (a wlroots compositor with layer-shell). The host asks for a layer
    /// surface on the bottom layer (the protocol log shows the request: layer 1 is "bottom"), and
    /// the compositor shows it where it was anchored, drawn as `weaver render` draws it. sway
    /// would tile an ordinary window over the whole output instead.
    @Test(.enabled(if: SwayServer.isAvailable)) func onWaylandItIsALayerSurfaceOnTheBottomLayer() throws {
        let sway = try SwayServer()
        defer { sway.stop() }
        let dir = try Products.temporaryDirectory("desktop-wl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("store")
        let env = sway.environment.merging(["WAYLAND_DEBUG": "1", "WEAVER_DESKTOP_LOG_DRAWS": "1"]) { $1 }
        #expect(
            try Products.run("weaver", ["desktop", "add", "noise", "--at", "20,30", "--store", store.path]).status == 0)
        let host = try Spawned("weaver", ["desktop", "--store", store.path], environment: env)
        defer { host.terminate() }
        #expect(
            host.waitForStderr(15) {
                $0.contains("showing 1 widget window from") && $0.contains("on the bottom layer")
            }, "\(host.stderrText.suffix(2000))")
        #expect(host.waitForStderr(10) { $0.contains("drew widget 1") }, "\(host.stderrText.suffix(2000))")
        let log = host.stderrText
        let request = log.split(separator: "\n").first { $0.contains(".get_layer_surface(") }.map(String.init) ?? ""
        #expect(request.contains(", 1, \"widgetweaver\")"), "the layer-shell request: \(request)")
        let url = dir.appendingPathComponent("wl-shot.png")
        func screenshot() throws -> PixelImage {
            try PixelImage(png: sway.screenshot(x: 20, y: 30, width: 170, height: 170, to: url), name: url.path)
        }
        let renderURL = dir.appendingPathComponent("wl-render.png")
        // The compositor blends the transparent corners over the wallpaper: render over it too.
        let r = try Products.run(
            "weaver",
            [
                "render", "--template", "noise-machine", "--family", "small", "--scale", "1",
                "--backdrop", sway.wallpaper, "-o", renderURL.path, "--store", store.path,
            ])
        #expect(r.status == 0, "\(r.stderrText)")
        let render = try PixelImage(png: [UInt8](Data(contentsOf: renderURL)), name: renderURL.path)
        // The compositor shows a committed frame at its next repaint; nothing in the log marks that
        // moment: the screen is looked at until it holds the widget (within the golden tolerance).
        _ = Wait.until(5, interval: 0.1) { () -> Bool? in
            guard let d = (try? screenshot())?.difference(render) else { return nil }
            return d.mean <= 1.0 && d.fraction <= 0.005 ? true : nil
        }
        let shot = try screenshot()
        try Self.expectGoldenClose(shot, render, "wayland-noise-machine-small", saveTo: dir)
        if let keep = ProcessInfo.processInfo.environment["WW_DESKTOP_WAYLAND_SCREENSHOT"] {
            _ = try sway.screenshot(x: 0, y: 0, width: 400, height: 260, to: URL(fileURLWithPath: keep))
        }
    }

    /// The issue's target, 40 MB, holds once the host has settled: it drops the mappings of its
    /// own code pages 2 s after start (`CodeResidency`: the page cache's fault-around had mapped
    /// ~17 MB of the 25 MB of code in this static binary). Measured 38.5 MB after 60 s idle with a
    /// minute tick; 43.9 MB 1 s after the first draw, before that trim (release; GDK's GL probe,
    /// fixed earlier, made it 100 MB).
    static let memoryLimitKB = 40 * 1024
    /// Start-up, before the trim: a guard against regressions of the GL-probe kind.
    static let startUpLimitKB = 50 * 1024

    @Test func withoutADisplayItSaysSo() throws {
        let dir = try Products.temporaryDirectory("desktop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Products.run(
            "weaver", ["desktop", "--store", dir.path], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(r.status == 1)
        #expect(
            r.stderrText.contains(
                "'weaver desktop' needs a graphical session: neither WAYLAND_DISPLAY nor DISPLAY is set"),
            "\(r.stderrText)")
    }
}
