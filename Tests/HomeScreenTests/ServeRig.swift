import Foundation
import TestSupport
import Testing

/// A private PulseAudio, a scratch store and a `weaver serve` on a free loopback port.
final class ServeRig: StoreBackedRig, @unchecked Sendable {
    /// `noise play --preset sleep` without a fade in this rig's store, once it says "Playing" and
    /// the status feed says playing (what the browser tests drive).
    func playSleep(sourceLocation: SourceLocation = #_sourceLocation) throws -> Spawned {
        let player = try Spawned("noise", ["play", "--preset", "sleep", "--fade-in", "0"], environment: env)
        #expect(
            player.waitForStderr(10) { $0.contains("Playing") }, "\(player.stderrText)", sourceLocation: sourceLocation)
        #expect(waitForStatus { $0["state"] as? String == "playing" } != nil, sourceLocation: sourceLocation)
        return player
    }

    let pulse: PulseServer
    let store: URL
    let env: [String: String]
    private(set) var server: Spawned?
    private(set) var url = ""
    private(set) var port = 0
    private(set) var counterID = ""

    init() throws {
        pulse = try PulseServer()
        store = pulse.directory.appendingPathComponent("store")
        // The user's presets (`noise presets save`, the Noise page) in the private home, never the real one.
        env = TestStore(at: store).environment(pulse.environment).merging([
            "XDG_CONFIG_HOME": pulse.directory.appendingPathComponent("home/.config").path
        ]) { $1 }
    }

    func stop() {
        server?.terminate()
        _ = try? noise(["stop"])
        pulse.stop()
    }

    func noise(_ args: [String]) throws -> Products.Result { try Products.run("noise", args, environment: env) }
    func weaver(_ args: [String], stdin: Data? = nil) throws -> Products.Result {
        try Products.run("weaver", args, stdin: stdin, environment: env)
    }

    /// Starts `weaver serve --port 0` and reads the URL it prints.
    /// `environment` adds to the rig's (e.g. a local Open-Meteo stand-in's address).
    func startServer(_ extra: [String] = [], environment: [String: String] = [:]) throws {
        let s = try Spawned("weaver", ["serve", "--port", "0"] + extra, environment: env.merging(environment) { $1 })
        server = s
        let printed = Wait.until(20, interval: 0.05) { () -> (url: String, port: Int)? in
            if let match = s.stdoutText.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/\S*/) {
                return (String(match.0), Int(match.1)!)
            }
            // A server that exited prints nothing more: stop waiting (reported below).
            return s.child.poll() != nil ? ("", 0) : nil
        }
        if let printed, printed.port != 0 {
            url = printed.url
            port = printed.port
            return
        }
        throw RawHTTP.Failure(description: "weaver serve printed no URL: \(s.stdoutText) \(s.stderrText)")
    }

    /// Starts the server and reads the token its page carries: where every API test begins.
    func startServerForAPI(_ extra: [String] = [], environment: [String: String] = [:]) throws -> String {
        try startServer(extra, environment: environment)
        return try token()
    }

    /// Starts the server and a Chromium for its pages (the caller quits it): where every page test begins.
    func startServerAndBrowser(_ extra: [String] = [], environment: [String: String] = [:]) throws -> WebDriver {
        try startServer(extra, environment: environment)
        return try WebDriver()
    }

    /// Chromium on `path` of the served app, once the page's live feed says connected (the caller
    /// quits it; one that fails to get there is quit here).
    func connectedBrowser(_ path: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> WebDriver {
        let browser = try WebDriver()
        do {
            try browser.navigate(url + path)
            #expect(
                try browser.waitUntil(10, "return document.documentElement.dataset.live === 'connected'"),
                sourceLocation: sourceLocation)
        } catch {
            browser.quit()
            throw error
        }
        return browser
    }

    /// A Pro design "Counter" whose action bar adds 1 to `count`.
    func makeCounterDesign() throws {
        #expect(try weaver(["pro", "unlock"]).status == 0)
        let made = try weaver(["designs", "new", "--template", "classic", "--name", "Counter"])
        #expect(made.status == 0, "\(made.stderrText)")
        let set = try weaver(["designs", "set", "Counter", "primaryText=Count {{count|0}}", "action.1=increment:count"])
        #expect(set.status == 0, "\(set.stderrText)")
        let list = try weaver(["designs", "list", "--json"])
        let designs = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        counterID = designs.first { $0["name"] as? String == "Counter" }?["id"] as? String ?? ""
        #expect(!counterID.isEmpty, "\(list.stdoutText)")
    }

    func layerVolume(_ index: Int) -> Double? {
        (status()?["layers"] as? [[String: Any]]).flatMap { index < $0.count ? $0[index]["volume"] as? Double : nil }
    }

    // Requests as the page makes them.
    var origin: String { "http://127.0.0.1:\(port)" }

    func token() throws -> String {
        let page = try RawHTTP.send(port: port, path: "/")
        guard let m = page.text.firstMatch(of: /<meta name="widgetweaver-token" content="([0-9a-f]+)">/) else {
            throw RawHTTP.Failure(description: "no token in the page")
        }
        return String(m.1)
    }

    func post(_ path: String, _ json: String, token: String?, origin: String? = nil, host: String? = nil) throws
        -> RawHTTP.Reply
    {
        var headers = [("Content-Type", "application/json")]
        if let origin = origin ?? Optional(self.origin) { headers.append(("Origin", origin)) }
        if let token { headers.append(("X-WidgetWeaver-Token", token)) }
        return try RawHTTP.send(
            port: port, method: "POST", path: path, host: host, headers: headers, body: Array(json.utf8))
    }
}
