import Foundation
import TestSupport
import Testing

/// The second seed's widgets on the home screen. An openURL button: the server checks the link and hands it to the
/// page's browser (`{"open": LINK}`, which app.js opens with `noopener`) instead of running xdg-open.
@Suite struct SampleWidgetsServeTests {
    @Test func theServerHandsTheLinkToThePage() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        #expect(try rig.weaver(["designs", "new", "--template", "classic", "--name", "Links"]).status == 0)
        let set = try rig.weaver(["designs", "set", "Links", "action.1=open:Docs:https://example.com/docs?a=1&b=$(id)"])
        #expect(set.status == 0, "\(set.stderrText)")
        let list = try rig.weaver(["designs", "list", "--json"])
        let designs = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        let id = try #require(designs.first { $0["name"] as? String == "Links" }?["id"] as? String)
        let token = try rig.startServerForAPI()
        let page = try RawHTTP.send(port: rig.port, path: "/").text
        let figure = try #require(page.range(of: #"data-design-id="\#(id)" data-family="small""#))
        let button = try #require(
            page[figure.lowerBound...].firstMatch(
                of: #/data-action-kind="openURL"[^>]*data-x="(?<x>[\d.]+)" data-y="(?<y>[\d.]+)"/#))
        let tapped = try rig.post(
            "/api/designs/\(id)/tap", #"{"family":"small","x":\#(button.x),"y":\#(button.y)}"#, token: token)
        #expect(tapped.status == 200, "\(tapped.text)")
        #expect(tapped.json()?["open"] as? String == "https://example.com/docs?a=1&b=$(id)")
        let script = try RawHTTP.send(port: rig.port, path: "/static/app.js").text
        #expect(script.contains("window.open(link, '_blank', 'noopener,noreferrer')"))
    }

    /// A countdown's tile is drawn again each second of its last minute: the server's watcher
    /// wakes at the tile's `redrawAt`, and the page gets a `widget` event each time.
    @Test func aCountdownTileTicksEachSecondInItsLastMinute() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["templates", "add", "countdown"]).status == 0)
        let target = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.up) + 10)
        let set = try rig.weaver([
            "designs", "set", "Countdown", "primaryText=Tea",
            "countdown.target=\(ISO8601DateFormatter().string(from: target))",
        ])
        #expect(set.status == 0, "\(set.stderrText)")
        try rig.startServer()
        let events = try EventStreamReader(port: rig.port)
        var seen: [String] = []
        let end = target.addingTimeInterval(1.5)
        while Date() < end {
            guard let e = events.next(within: max(0.05, end.timeIntervalSinceNow)), e.name == "widget" else { continue }
            // The small tile's label: "Tea, 0:03, until 09:30".
            guard e.data.contains("/small"), let m = e.data.firstMatch(of: /Tea, (\d:\d\d|end)/) else { continue }
            seen.append(String(m.1))
        }
        #expect(seen.suffix(3) == ["0:02", "0:01", "end"], "\(seen)")
    }
}
