#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// An openURL button on the home screen: the server checks the link and hands it to the page's
/// browser (`{"open": LINK}`, which app.js opens with `noopener`) instead of running xdg-open.
@Suite struct OpenURLTapTests {
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
        try rig.startServer()
        let token = try rig.token()
        let page = try RawHTTP.send(port: rig.port, path: "/").text
        let figure = try #require(page.range(of: #"data-design-id="\#(id)" data-family="small""#))
        let button = try #require(page[figure.lowerBound...].firstMatch(of: #/data-action-kind="openURL"[^>]*data-x="(?<x>[\d.]+)" data-y="(?<y>[\d.]+)"/#))
        let tapped = try rig.post("/api/designs/\(id)/tap", #"{"family":"small","x":\#(button.x),"y":\#(button.y)}"#, token: token)
        #expect(tapped.status == 200, "\(tapped.text)")
        #expect(tapped.json()?["open"] as? String == "https://example.com/docs?a=1&b=$(id)")
        let script = try RawHTTP.send(port: rig.port, path: "/static/app.js").text
        #expect(script.contains("window.open(link, '_blank', 'noopener,noreferrer')"))
    }
}
