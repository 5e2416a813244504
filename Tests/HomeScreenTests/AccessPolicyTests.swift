import Foundation
import NetworkAddress
import Testing

@testable import HomeScreen

@Suite("Access policy (Host, Origin, token)")
struct AccessPolicyTests {
    let loopback = AccessPolicy(listen: ListenAddress(host: "127.0.0.1", port: 8765), token: "abc123")
    let lan = AccessPolicy(listen: ListenAddress(host: "192.168.1.20", port: 8765), token: "abc123")

    func get(_ p: AccessPolicy, host: [String], query: String? = nil, cookie: String? = nil, header: String? = nil)
        -> AccessPolicy.Verdict
    {
        p.check(method: "GET", hosts: host, origin: nil, tokenHeader: header, tokenQuery: query, tokenCookie: cookie)
    }

    func post(_ p: AccessPolicy, host: String, origin: String?, token: String?) -> AccessPolicy.Verdict {
        p.check(method: "POST", hosts: [host], origin: origin, tokenHeader: token, tokenQuery: nil, tokenCookie: nil)
    }

    @Test func loopbackAnswersItsOwnNamesOnly() {
        for host in ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST:8765"] {
            #expect(get(loopback, host: [host]) == .allowed, "\(host)")
        }
        // DNS rebinding: an attacker's name resolving to 127.0.0.1 arrives with that name as Host.
        for host in ["evil.example:8765", "127.0.0.1:9999", "127.0.0.1", "localhost", "127.0.0.2:8765", ""] {
            guard case .forbidden = get(loopback, host: [host]) else {
                Issue.record("Host '\(host)' was allowed")
                continue
            }
        }
        guard case .forbidden(let why) = get(loopback, host: []) else {
            Issue.record("no Host allowed")
            return
        }
        #expect(why.contains("no Host"))
        guard case .forbidden(let two) = get(loopback, host: ["127.0.0.1:8765", "evil.example"]) else {
            Issue.record("two Hosts allowed")
            return
        }
        #expect(two.contains("more than one"))
    }

    @Test func postNeedsMatchingOriginAndToken() {
        #expect(post(loopback, host: "127.0.0.1:8765", origin: "http://127.0.0.1:8765", token: "abc123") == .allowed)
        #expect(post(loopback, host: "localhost:8765", origin: "http://localhost:8765", token: "abc123") == .allowed)
        let refused: [(String?, String?)] = [
            (nil, "abc123"),  // no Origin
            ("http://evil.example", "abc123"),  // another site
            ("http://localhost:8765", "abc123"),  // Origin differs from the Host used
            ("https://127.0.0.1:8765", "abc123"),  // scheme differs
            ("null", "abc123"),  // sandboxed frame / file://
            ("http://127.0.0.1:8765", nil),  // no token
            ("http://127.0.0.1:8765", "abc12"),  // prefix of the token
            ("http://127.0.0.1:8765", "abc1234"),  // longer
            ("http://127.0.0.1:8765", "ABC123"),  // case matters
        ]
        for (origin, token) in refused {
            guard case .forbidden = post(loopback, host: "127.0.0.1:8765", origin: origin, token: token) else {
                Issue.record("POST with Origin \(origin ?? "nil") and token \(token ?? "nil") was allowed")
                continue
            }
        }
    }

    @Test func offLoopbackEveryRequestNeedsTheToken() {
        guard case .forbidden(let why) = get(lan, host: ["192.168.1.20:8765"]) else {
            Issue.record("GET without token allowed")
            return
        }
        #expect(why.contains("token"))
        #expect(get(lan, host: ["192.168.1.20:8765"], query: "abc123") == .allowedSetCookie)
        #expect(get(lan, host: ["192.168.1.20:8765"], cookie: "abc123") == .allowed)
        #expect(get(lan, host: ["192.168.1.20:8765"], header: "abc123") == .allowed)
        guard case .forbidden = get(lan, host: ["192.168.1.20:8765"], query: "wrong") else {
            Issue.record("wrong token allowed")
            return
        }
        // Off loopback the loopback names are not this server's address.
        guard case .forbidden = get(lan, host: ["localhost:8765"], query: "abc123") else {
            Issue.record("localhost allowed on LAN")
            return
        }
    }

    @Test func addresses() {
        #expect(ListenAddress(host: "127.0.0.1", port: 1).isLoopback)
        #expect(ListenAddress(host: "127.4.5.6", port: 1).isLoopback)
        #expect(ListenAddress(host: "::1", port: 1).isLoopback)
        #expect(!ListenAddress(host: "10.0.0.1", port: 1).isLoopback)
        #expect(!ListenAddress(host: "0.0.0.0", port: 1).isLoopback)
        #expect(ListenAddress(host: "0.0.0.0", port: 1).isUnspecified)
        #expect(ListenAddress(host: "fe80::1", port: 1).isLiteral)
        #expect(!ListenAddress(host: "example.org", port: 1).isLiteral)
        #expect(ListenAddress.authority(host: "fe80::1", port: 80) == "[fe80::1]:80")
        let ipv6 = AccessPolicy(listen: ListenAddress(host: "fd00::5", port: 9000), token: "t")
        #expect(ipv6.allowedHosts == ["[fd00::5]:9000"])
    }

    @Test func tokensAreRandomAndLongEnough() {
        let a = AccessPolicy.newToken(), b = AccessPolicy.newToken()
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        #expect(a.allSatisfy { $0.isHexDigit })
    }
}

@Suite("Mixer changes from the page")
struct MixerChangeTests {
    func decode(_ json: String) -> Result<MixerChange, MixerError> {
        Result { () throws(MixerError) in try MixerChange.decode(Data(json.utf8)) }
    }

    @Test func acceptedShapes() throws {
        #expect(
            try decode(#"{"layer":1,"param":"volume","value":0.4}"#).get()
                == .layer(index: 0, change: .init([.volume: 0.4])))
        #expect(
            try decode(#"{"layer":4,"param":"enabled","value":false}"#).get()
                == .layer(index: 3, change: .init(enabled: false)))
        #expect(
            try decode(#"{"layer":2,"param":"lowCutHz","value":0}"#).get()
                == .layer(index: 1, change: .init(lowCutHz: .off)))
        #expect(
            try decode(#"{"layer":2,"param":"highCutHz","value":8000}"#).get()
                == .layer(index: 1, change: .init(highCutHz: .hz(8000))))
        #expect(
            try decode(#"{"layer":3,"param":"eqMidDb","value":-6.5}"#).get()
                == .layer(index: 2, change: .init([.eqMidDb: -6.5])))
        #expect(try decode(#"{"param":"master","value":0.7}"#).get() == .master(0.7))
        #expect(try decode(#"{"preset":"rain"}"#).get() == .preset("rain"))
        #expect(try decode(#"{"timerSeconds":1800}"#).get() == .timer(seconds: 1800))
        #expect(try decode(#"{"timerSeconds":null}"#).get() == .timer(seconds: nil))
    }

    @Test func refusalsNameTheFieldAndRange() {
        let cases: [(String, String)] = [
            (#"{"layer":5,"param":"volume","value":0.4}"#, "'layer' 5 is out of range; allowed 1…4"),
            (#"{"layer":1,"param":"volume","value":1.5}"#, "volume: '1.5' is out of range; allowed: 0…1"),
            (#"{"layer":1,"param":"colour","value":-1}"#, "colour: '-1' is out of range; allowed: 0…2"),
            (#"{"layer":1,"param":"lowCutHz","value":5}"#, "lowCutHz: '5' is out of range; allowed: 10…2000 Hz"),
            (#"{"layer":1,"param":"eqLowDb","value":13}"#, "eqLowDb: '13' is out of range; allowed: -12…12 dB"),
            (#"{"layer":1,"param":"loudness","value":1}"#, "'param' 'loudness' is unknown"),
            (#"{"layer":1,"param":"volume","value":"loud"}"#, "'value' must be a finite number"),
            (#"{"layer":1,"param":"volume","value":true}"#, "'value' must be a finite number"),
            (#"{"layer":1,"param":"enabled","value":1}"#, "'enabled' must be true or false"),
            (#"{"layer":1,"param":"volume","value":0.4,"extra":1}"#, "exactly 'layer', 'param' and 'value'"),
            (#"{"param":"master","value":2}"#, "master: '2' is out of range; allowed: 0…1"),
            (#"{"preset":"../../etc/passwd"}"#, "'preset' must be a preset id"),
            (#"{"timerSeconds":0}"#, "'timerSeconds' 0 s is out of range"),
            (#"[1,2]"#, "not a JSON object"),
            (#"not json"#, "not a JSON object"),
        ]
        for (json, expected) in cases {
            switch decode(json) {
            case .success(let change): Issue.record("\(json) was accepted as \(change)")
            case .failure(let error): #expect(error.description.contains(expected), "\(json): \(error)")
            }
        }
    }
}

@Suite("Page markup")
struct PageTests {
    @Test func userTextIsEscaped() {
        #expect(
            Page.escape(#"<script>alert("x")</script> & 'y'"#)
                == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;")
        let tile = WidgetTile(
            designID: "ABCD-1", designName: "<img src=x onerror=alert(1)>", family: "small",
            widthPt: 170, heightPt: 170, label: "\"quoted\" <b>",
            buttons: [
                .init(kind: "incrementVariable", id: "a1", label: "+1 <Count>", x: 10, y: 120, width: 60, height: 36)
            ], version: "v1")
        let html = Page.tile(tile)
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>"))
        #expect(html.contains(#"data-design-id="ABCD-1""#))
        #expect(html.contains(#"data-action-kind="incrementVariable""#))
        #expect(html.contains("left:10px;top:120px;width:60px;height:36px"))
        #expect(html.contains(#"data-x="40" data-y="138""#))
        #expect(html.contains(#"aria-label="+1 &lt;Count&gt;""#))
    }

    @Test func mixerHasEveryControl() {
        let state = MixerState(
            running: false, state: "stopped", presetID: "sleep", mixName: "Sleep", masterVolume: 0.7,
            layers: [.init(enabled: true, volume: 0.5, colour: 1.6, lowCutHz: 40, highCutHz: nil)],
            timerRemainingSeconds: nil, presets: [.init(id: "sleep", name: "Sleep"), .init(id: "rain", name: "Rain")])
        let html = Page.home(tiles: [], mixer: state, token: "tok")
        #expect(html.contains(#"<meta name="widgetweaver-token" content="tok">"#))
        #expect(html.contains(#"data-param="master""#))
        for n in 1...4 {
            for p in MixerChange.layerParameters {
                #expect(html.contains(#"data-layer="\#(n)" data-param="\#(p)""#), "layer \(n) \(p)")
            }
        }
        #expect(html.contains(#"<option value="sleep" selected>Sleep</option>"#))
        #expect(html.contains(#"aria-valuetext="pink to brown""#))
        #expect(!html.contains("http://") && !html.contains("https://"), "the page loads nothing from elsewhere")
    }
}
