import Foundation
import TestSupport
import Testing

/// A Reminders row pressed on the browser page: the same `completeReminder` action as `weaver
/// tap`, through the page's tap route; the todo.txt line is completed and nothing else changes.
@Suite struct RemindersServeTests {
    @Test func aRowOnThePageCompletesItsReminder() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let folder = try Products.temporaryDirectory("serve-reminders")
        let todo = folder.appendingPathComponent("todo.txt")
        let text = "(A) Renew passport +Personal due:2026-01-20\nBuy oat milk @shop\n"
        try Data(text.utf8).write(to: todo)
        #expect(try rig.weaver(["reminders", "add", todo.path]).status == 0)
        #expect(try rig.weaver(["reminders", "refresh", "--quiet"]).status == 0)
        #expect(try rig.weaver(["templates", "add", "reminders"]).status == 0)
        let list = try rig.weaver(["designs", "list", "--json"])
        let designs = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        let id = try #require(designs.first { $0["name"] as? String == "Reminders" }?["id"] as? String, "\(designs)")
        try rig.startServer()
        let token = try rig.token()
        let page = try RawHTTP.send(port: rig.port, path: "/").text
        let figure = try #require(page.range(of: #"data-design-id="\#(id)" data-family="small""#))
        // Today mode: the passport is overdue (the only row the mode shows at the real clock).
        let row = try #require(
            page[figure.lowerBound...].firstMatch(
                of: #/data-action-kind="completeReminder"[^>]*data-x="(?<x>[\d.]+)" data-y="(?<y>[\d.]+)"/#))
        let tapped = try rig.post(
            "/api/designs/\(id)/tap", #"{"family":"small","x":\#(row.x),"y":\#(row.y)}"#, token: token)
        #expect(tapped.status == 200, "\(tapped.text)")
        let lines = String(decoding: try Data(contentsOf: todo), as: UTF8.self).components(separatedBy: "\n")
        #expect(
            lines.count == 3 && lines[0].hasPrefix("x 20")
                && lines[0].hasSuffix(" Renew passport +Personal due:2026-01-20 pri:A"), "\(lines)")
        #expect(lines[1] == "Buy oat milk @shop" && lines[2].isEmpty)
    }
}
