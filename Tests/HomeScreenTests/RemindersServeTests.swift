import Foundation
import TestSupport
import Testing

/// A Reminders row pressed on the browser page: the same `completeReminder` action as `weaver
/// tap`, through the page's tap route; the todo.txt line is completed and nothing else changes.
@Suite struct RemindersServeTests {
    @Test func aRowOnThePageCompletesItsReminder() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let todo = try Products.temporaryDirectory("serve-reminders").appendingPathComponent("todo.txt")
        try Data("(A) Renew passport +Personal due:2026-01-20\nBuy oat milk @shop\n".utf8).write(to: todo)
        let (id, body) = try servedReminders(rig, todo)
        let tapped = try rig.post("/api/designs/\(id)/tap", body, token: try rig.token())
        #expect(tapped.status == 200, "\(tapped.text)")
        let lines = String(decoding: try Data(contentsOf: todo), as: UTF8.self).components(separatedBy: "\n")
        #expect(
            lines.count == 3 && lines[0].hasPrefix("x 20")
                && lines[0].hasSuffix(" Renew passport +Personal due:2026-01-20 pri:A"), "\(lines)")
        #expect(lines[1] == "Buy oat milk @shop" && lines[2].isEmpty)
    }

    /// Issue 41.5: the page's Undo after a completed row (`POST` the answer's `undo` path) puts the file's
    /// bytes back, once; after a hand edit it answers 409 "Not undone" and writes nothing (the same
    /// `WidgetActionPerformer.undo` as the desktop widget's Undo).
    @Test func undoPutsTheBytesBackOnceAndRefusesAfterAHandEdit() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let folder = try Products.temporaryDirectory("serve-reminders-undo")
        let todo = folder.appendingPathComponent("todo.txt")
        // CRLF and a priority: the bytes put back are the file's own, not a rewrite of the line.
        let original = Data("(A) Renew passport +Personal due:2026-01-20\r\nBuy oat milk @shop\r\n".utf8)
        try original.write(to: todo)
        let (id, body) = try servedReminders(rig, todo)
        let token = try rig.token()

        let tapped = try rig.post("/api/designs/\(id)/tap", body, token: token)
        #expect(tapped.status == 200, "\(tapped.text)")
        let undo = try #require(tapped.json()?["undo"] as? String, "no undo offered: \(tapped.text)")
        #expect(tapped.json()?["undoSeconds"] as? Double == 8)
        #expect(try Data(contentsOf: todo) != original)
        // Without the page's token: refused, nothing written.
        #expect(try rig.post(undo, "{}", token: nil).status == 403)
        #expect(try Data(contentsOf: todo) != original)
        let undone = try rig.post(undo, "{}", token: token)
        #expect(undone.status == 200, "\(undone.text)")
        let reopened = undone.json()?["message"] as? String ?? ""
        #expect(reopened.hasPrefix("Reopened '") && reopened.contains("Renew passport"), "\(undone.text)")
        #expect(try Data(contentsOf: todo) == original)
        // Used once.
        let again = try rig.post(undo, "{}", token: token)
        #expect(again.status == 404 && again.text.contains("Not undone"), "\(again.status) \(again.text)")

        // Completed again, then edited by hand: Undo refuses and writes nothing.
        let second = try rig.post("/api/designs/\(id)/tap", body, token: token)
        #expect(second.status == 200, "\(second.text)")
        let undo2 = try #require(second.json()?["undo"] as? String, "\(second.text)")
        #expect(undo2 != undo)
        let handle = try FileHandle(forWritingTo: todo)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("Call the bank\r\n".utf8))
        try handle.close()
        let edited = try Data(contentsOf: todo)
        let refused = try rig.post(undo2, "{}", token: token)
        #expect(refused.status == 409, "\(refused.status) \(refused.text)")
        let error = refused.json()?["error"] as? String ?? ""
        #expect(
            error.hasPrefix("Not undone: '") && error.contains("Renew passport") && error.contains("was not reopened: ")
                && error.contains("changed since it was completed, and nothing was written"), "\(refused.text)")
        #expect(try Data(contentsOf: todo) == edited)
    }

    /// `todo` added as the reminders source, a Reminders design made and the server started: the
    /// design's id and the tap body of its first row (Today mode: the passport is overdue, the only
    /// row the mode shows at the real clock).
    private func servedReminders(_ rig: ServeRig, _ todo: URL) throws -> (id: String, tapBody: String) {
        #expect(try rig.weaver(["reminders", "add", todo.path]).status == 0)
        #expect(try rig.weaver(["reminders", "refresh", "--quiet"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "reminders"]).status == 0)
        let list = try rig.weaver(["designs", "list", "--json"])
        let designs = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        let id = try #require(designs.first { $0["name"] as? String == "Reminders" }?["id"] as? String, "\(designs)")
        try rig.startServer()
        let page = try RawHTTP.send(port: rig.port, path: "/").text
        let figure = try #require(page.range(of: #"data-design-id="\#(id)" data-family="small""#))
        let row = try #require(
            page[figure.lowerBound...].firstMatch(
                of: #/data-action-kind="completeReminder"[^>]*data-x="(?<x>[\d.]+)" data-y="(?<y>[\d.]+)"/#))
        return (id, #"{"family":"small","x":\#(row.x),"y":\#(row.y)}"#)
    }
}
