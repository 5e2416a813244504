import Foundation
import TestSupport
import Testing

/// Issue 41.5 on the home screen, in a real headless Chromium: a double-click on a reminder row
/// completes that one reminder (the second click used to land on the row that slid into its place),
/// and the notice's Undo, by mouse, by Ctrl+Z and by Tab and Enter, puts the file's bytes back; after
/// a hand edit it says "Not undone" and writes nothing.
@Suite(.serialized, .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver (make deps)"))
struct RemindersUndoBrowserTests {
    @Test func aDoubleClickCompletesOneAndUndoWorksByMouseAndKeyboard() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let folder = try Products.temporaryDirectory("serve-reminders-undo-browser")
        let todo = folder.appendingPathComponent("todo.txt")
        let original = Data("Alpha task\nBravo task\nCharlie task\nDelta task\n".utf8)
        try original.write(to: todo)
        #expect(try rig.weaver(["reminders", "add", todo.path]).status == 0)
        #expect(try rig.weaver(["reminders", "refresh", "--quiet"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "reminders"]).status == 0)
        let list =
            try JSONSerialization.jsonObject(with: try rig.weaver(["designs", "list", "--json"]).stdout)
            as? [[String: Any]] ?? []
        let id = try #require(list.first { $0["name"] as? String == "Reminders" }?["id"] as? String)
        // Every reminder, the done ones left out: completing a row makes the next slide into its place.
        let set = try rig.weaver(["designs", "set", id, "reminders.mode=list", "reminders.hideCompleted=true"])
        #expect(set.status == 0, "\(set.stderrText)")
        try rig.startServer()
        let browser = try rig.connectedBrowser()
        defer { browser.quit() }

        func lines() -> [String] {
            String(decoding: (try? Data(contentsOf: todo)) ?? Data(), as: UTF8.self).components(separatedBy: "\n")
        }
        func done() -> [String] { lines().filter { $0.hasPrefix("x ") } }
        let firstRow =
            #".widget[data-design-id="\#(id)"][data-family="large"] button[data-action-kind="completeReminder"]"#
        let offered =
            "return !document.getElementById('tap-notice').hidden && !document.getElementById('tap-undo').hidden"
        let text = "document.getElementById('tap-notice-text').textContent"
        func putBack(_ how: String) throws {
            #expect(eventually(5) { (try? Data(contentsOf: todo)) == original }, "\(how) did not undo: \(lines())")
            #expect(try browser.waitUntil(5, "return document.getElementById('tap-notice').hidden"), "\(how)")
            // Past the rows' quiet time after the Undo, and the reopened row drawn again.
            Thread.sleep(forTimeInterval: 0.8)  // the rows' 600 ms quiet time passing is what the next step needs
        }

        // 1. A double-click, 150 ms between the clicks: one reminder completed, the notice offers Undo.
        try browser.doubleClick(try #require(try browser.find(firstRow)), pauseMilliseconds: 150)
        #expect(eventually(5) { !done().isEmpty }, "nothing completed")
        // A quiet second: a second completion, if the second click made one, is written by then.
        #expect(throughout(1) { done().count == 1 }, "a second row completed: \(lines())")
        #expect(done().count == 1 && done().first?.hasSuffix(" Alpha task") == true, "\(lines())")
        #expect(try browser.waitUntil(5, offered), "no Undo offered")
        #expect((try browser.execute("return " + text) as? String ?? "").contains("Completed 'Alpha task'"))

        // 2. Undo by mouse.
        try browser.click(try #require(try browser.find("#tap-undo")))
        try putBack("the Undo button")

        // 3. Completed by keyboard (Enter on the focused row), taken back by Ctrl+Z.
        _ = try browser.execute("document.querySelector(arguments[0]).focus(); return true;", [firstRow])
        try browser.press(["\u{E007}"])  // Enter
        #expect(eventually(5) { done().count == 1 }, "Enter did not complete the row: \(lines())")
        #expect(try browser.waitUntil(5, offered), "no Undo offered after Enter")
        try browser.press(["\u{E009}", "z"])  // Ctrl+Z
        try putBack("Ctrl+Z")

        // 4. Completed by keyboard again; Tab reaches the notice's Undo (after the widget's buttons), Enter.
        _ = try browser.execute("document.querySelector(arguments[0]).focus(); return true;", [firstRow])
        try browser.press(["\u{E007}"])
        #expect(eventually(5) { done().count == 1 }, "Enter did not complete the row: \(lines())")
        #expect(try browser.waitUntil(5, offered), "no Undo offered after Enter")
        // The row that slid into place holds the focus once the widget is drawn again.
        #expect(try browser.waitUntil(5, "return !/Alpha/.test(document.activeElement.getAttribute('aria-label'))"))
        var tabs = 0
        while tabs < 12, try browser.execute("return document.activeElement.id") as? String != "tap-undo" {
            try browser.press(["\u{E004}"])  // Tab
            tabs += 1
        }
        #expect(try browser.execute("return document.activeElement.id") as? String == "tap-undo", "\(tabs) Tabs")
        print("RemindersUndoBrowser: Undo reached with \(tabs) Tab presses from the completed row")
        try browser.press(["\u{E007}"])
        try putBack("Tab and Enter on Undo")
        // The keyboard stays in the widget: on the row taken back, not on the page.
        let backOnTheRow = try browser.waitUntil(
            5, "return /Alpha/.test(document.activeElement.getAttribute('aria-label') || '')")
        let focused = try browser.execute("return document.activeElement.outerHTML.slice(0, 120)") as? String
        #expect(backOnTheRow, "focus after Undo by Enter: \(focused ?? "")")

        // 5. Completed, then edited by hand: Undo says "Not undone" and writes nothing.
        try browser.click(try #require(try browser.find(firstRow)))
        #expect(eventually(5) { done().count == 1 }, "not completed: \(lines())")
        #expect(try browser.waitUntil(5, offered), "no Undo offered")
        let handle = try FileHandle(forWritingTo: todo)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("Echo task\n".utf8))
        try handle.close()
        let edited = try Data(contentsOf: todo)
        try browser.click(try #require(try browser.find("#tap-undo")))
        let refused = try browser.waitUntil(
            5, "return /^Not undone: .*changed since it was completed/.test(\(text))")
        let shown = try browser.execute("return " + text) as? String ?? ""
        #expect(refused, "\(shown)")
        #expect(try browser.execute("return document.getElementById('tap-undo').hidden") as? Bool == true)
        #expect(try Data(contentsOf: todo) == edited)
    }
}
