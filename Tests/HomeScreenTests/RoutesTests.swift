import Foundation
import TestSupport
import Testing

/// Every route and every refusal, over a real socket to a real `weaver serve`.
@Suite(.serialized)
struct RoutesTests {
    @Test func pagesPicturesAndApis() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.makeCounterDesign()
        try rig.startServer()

        let page = try RawHTTP.send(port: rig.port, path: "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.text.contains(#"data-design-id="noise-machine""#))
        #expect(page.text.contains(#"data-design-id="\#(rig.counterID)""#))
        #expect(page.text.contains(#"data-action-kind="togglePlayPause""#))
        #expect(page.text.contains(#"data-action-kind="incrementVariable""#))
        // The Noise Machine widget comes first.
        let noiseAt = try #require(page.text.range(of: #"data-design-id="noise-machine""#))
        let counterAt = try #require(page.text.range(of: #"data-design-id="\#(rig.counterID)""#))
        #expect(noiseAt.lowerBound < counterAt.lowerBound)
        for family in ["small", "medium", "large", "circular", "rectangular", "inline"] {
            #expect(page.text.contains(#"data-design-id="noise-machine" data-family="\#(family)""#), "\(family)")
        }
        #expect(!page.text.contains("https://") && !page.text.contains("http://"), "nothing from elsewhere")

        let js = try RawHTTP.send(port: rig.port, path: "/static/app.js")
        #expect(js.status == 200 && js.headers["content-type"]?.hasPrefix("text/javascript") == true)
        let css = try RawHTTP.send(port: rig.port, path: "/static/app.css")
        #expect(css.status == 200 && css.headers["content-type"]?.hasPrefix("text/css") == true)
        // Issue 41.19: `/favicon.ico` was a 404 on every page.
        let icon = try RawHTTP.send(port: rig.port, path: "/favicon.ico")
        #expect(icon.status == 200 && icon.headers["content-type"] == "image/svg+xml" && icon.text.contains("<svg"))
        #expect(page.text.contains(#"<link rel="icon" href="/static/icon.svg" type="image/svg+xml">"#))

        let designs = try RawHTTP.send(port: rig.port, path: "/api/designs")
        #expect(designs.status == 200 && designs.headers["content-type"] == "application/json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(designs.body)) as? [[String: Any]])
        #expect(list.contains { $0["id"] as? String == rig.counterID })

        let mixer = try RawHTTP.send(port: rig.port, path: "/api/mixer")
        let state = try #require(mixer.json())
        #expect(state["running"] as? Bool == false && state["state"] as? String == "stopped")
        #expect((state["presets"] as? [[String: Any]])?.contains { $0["id"] as? String == "sleep" } == true)

        let svg = try RawHTTP.send(port: rig.port, path: "/widgets/noise-machine.svg?family=medium")
        #expect(svg.status == 200 && svg.headers["content-type"] == "image/svg+xml")
        #expect(svg.text.contains("<svg"))
        let png = try RawHTTP.send(port: rig.port, path: "/widgets/\(rig.counterID).png?family=small&scale=1")
        #expect(png.status == 200 && png.headers["content-type"] == "image/png")
        #expect(png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func refusals() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.makeCounterDesign()
        let token = try rig.startServerForAPI()
        let port = rig.port

        // Unknown paths, bad widget names, no file-system paths, no listings.
        for path in [
            "/nope", "/widgets/", "/widgets/nope.svg", "/widgets/noise-machine.gif",
            "/widgets/..%2F..%2Fetc%2Fpasswd.svg",
            "/static/", "/static/../Package.swift", "/designs/",
        ] {
            let r = try RawHTTP.send(port: port, path: path)
            #expect(r.status == 404, "\(path) → \(r.status)")
        }
        #expect(try RawHTTP.send(port: port, path: "/widgets/noise-machine.svg?scale=9").status == 400)
        #expect(try RawHTTP.send(port: port, path: "/widgets/noise-machine.svg?family=huge").status == 404)

        // DNS rebinding: another name for the same address.
        let rebound = try RawHTTP.send(port: port, path: "/", host: "evil.example:\(port)")
        #expect(rebound.status == 403)
        #expect(!rebound.text.contains(token))
        let twoHosts = try RawHTTP.sendRaw(
            port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        #expect(twoHosts.status == 403 || twoHosts.status == 400)

        // POSTs: token and Origin.
        let tap = "/api/designs/\(rig.counterID)/tap"
        let body = #"{"family":"small","x":1,"y":1}"#
        #expect(try rig.post(tap, body, token: nil).status == 403)
        // A token one character off (not "0" + the rest: a token that starts with "0" made that the
        // right token, and the test failed one run in 16).
        let wrong = (token.first == "0" ? "1" : "0") + token.dropFirst()
        #expect(try rig.post(tap, body, token: wrong).status == 403)
        #expect(try rig.post(tap, body, token: token, origin: "http://evil.example").status == 403)
        #expect(try rig.post(tap, body, token: token, origin: "null").status == 403)
        #expect(try rig.post(tap, body, token: token, host: "evil.example:\(port)").status == 403)
        #expect(
            try RawHTTP.send(
                port: port, method: "POST", path: tap, headers: [("X-WidgetWeaver-Token", token)],
                body: Array(body.utf8)
            ).status == 403, "no Origin")
        // Body cap, malformed bodies.
        let huge = #"{"family":"small","x":1,"y":1,"pad":""# + String(repeating: "a", count: 20_000) + #""}"#
        #expect(try rig.post(tap, huge, token: token).status == 413)
        #expect(try rig.post(tap, "{", token: token).status == 400)
        #expect(try rig.post(tap, #"{"family":"small","x":"1","y":1}"#, token: token).status == 400)
        #expect(try rig.post("/api/mixer", #"{"layer":9,"param":"volume","value":1}"#, token: token).status == 400)
        #expect(try rig.post("/api/designs/no-such-design/tap", body, token: token).status == 404)
        // Nothing under the point: 422 naming the nearest button.
        let miss = try rig.post(tap, #"{"family":"small","x":2,"y":2}"#, token: token)
        #expect(miss.status == 422)
        #expect((miss.json()?["error"] as? String)?.contains("nearest") == true, "\(miss.text)")
        // Nothing was changed by any refused request.
        #expect(
            try rig.weaver(["vars", "get", "count"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "")
    }

    @Test func tapsAndMixerWithoutAPlayer() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.makeCounterDesign()
        let token = try rig.startServerForAPI()

        // Find the increment button's centre the way the page does.
        let page = try RawHTTP.send(port: rig.port, path: "/").text
        let figure = try #require(page.range(of: #"data-design-id="\#(rig.counterID)" data-family="small""#))
        let button = try #require(
            page[figure.lowerBound...].firstMatch(
                of: #/data-action-kind="incrementVariable"[^>]*data-x="(?<x>[\d.]+)" data-y="(?<y>[\d.]+)"/#))
        let tapped = try rig.post(
            "/api/designs/\(rig.counterID)/tap", #"{"family":"small","x":\#(button.x),"y":\#(button.y)}"#, token: token)
        #expect(tapped.status == 200, "\(tapped.text)")
        #expect(
            try rig.weaver(["vars", "get", "count"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "1")

        // No player: the mixer edits the Last Mix.
        let changed = try rig.post("/api/mixer", #"{"layer":2,"param":"volume","value":0.25}"#, token: token)
        #expect(changed.status == 200, "\(changed.text)")
        #expect((changed.json()?["message"] as? String)?.contains("Last Mix") == true)
        let last =
            try JSONSerialization.jsonObject(with: Data(contentsOf: rig.store.appendingPathComponent("last-mix.json")))
            as? [String: Any]
        let layers = (last?["mix"] as? [String: Any])?["layers"] as? [[String: Any]]
        #expect(layers?.count ?? 0 >= 2 && layers?[1]["volume"] as? Double == 0.25)
        let timer = try rig.post("/api/mixer", #"{"timerSeconds":600}"#, token: token)
        #expect(timer.status == 422, "a timer needs a player")
    }

    @Test func eventsFollowChangesMadeElsewhere() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.makeCounterDesign()
        try rig.startServer()
        let events = try EventStreamReader(port: rig.port)
        let hello = try #require(events.wait(for: 5) { name, _ in name == "hello" })
        #expect(hello.data.contains(try rig.token()))
        #expect(events.wait(for: 5) { name, _ in name == "mixer" } != nil)

        // A variable changed by another program: the counter's tiles are sent again.
        #expect(try rig.weaver(["vars", "set", "count", "41"]).status == 0)
        let changed = events.wait(for: 2) { name, data in
            name == "widget" && data.contains(rig.counterID) && data.contains("Count 41")
        }
        #expect(changed != nil, "no widget event for the counter")

        // The Last Mix changed by `noise set` (no player): a mixer event.
        #expect(try rig.noise(["set", "--master", "0.33"]).status == 0)
        #expect(events.wait(for: 2) { name, data in name == "mixer" && data.contains("\"masterVolume\":0.33") } != nil)

        // A new design: the page is told to reload its layout.
        #expect(try rig.weaver(["designs", "new", "--name", "Another"]).status == 0)
        #expect(events.wait(for: 2) { name, _ in name == "layout" } != nil)

        // Shutdown with a stream open ends promptly and cleanly.
        let server = try #require(rig.server)
        server.signal(SIGTERM)
        #expect(server.waitForExit(5) == 0, "\(server.stderrText)")
    }

    @Test func listenRules() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let any = try rig.weaver(["serve", "--listen", "0.0.0.0", "--port", "0"])
        #expect(any.status != 0)
        #expect(any.stderrText.contains("--listen"), "\(any.stderrText)")
        let name = try rig.weaver(["serve", "--listen", "example.org", "--port", "0"])
        #expect(name.status != 0)
        let port = try rig.weaver(["serve", "--port", "70000"])
        #expect(port.status != 0 && port.stderrText.contains("0…65535"), "\(port.stderrText)")
    }
}
