import Foundation

/// A real headless Chromium driven through chromedriver's W3C WebDriver protocol (JSON over
/// loopback HTTP). Starts a private chromedriver and browser profile; `quit()` stops both.
public final class WebDriver: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    private let driver: ChildProcess
    private let port: Int
    private let profile: URL
    public let sessionID: String

    public init() throws {
        profile = try Products.temporaryDirectory("chromium")
        port = try Self.freePort()
        driver = try ChildProcess(
            "/usr/bin/chromedriver", ["--port=\(port)", "--allowed-ips=127.0.0.1"],
            environment: ["HOME": profile.path])
        let driverPort = port
        guard
            Wait.until(20, interval: 0.05, { try? RawHTTP.send(port: driverPort, path: "/status", timeoutSeconds: 2) })
                != nil
        else {
            driver.signal(SIGKILL)
            _ = driver.wait()
            throw Failure(description: "chromedriver did not start")
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    // A page's "leave with unsaved changes?" prompt is accepted, as a person who navigates
                    // on purpose would; pages test that they ask by dispatching the event themselves.
                    "unhandledPromptBehavior": "accept",
                    "goog:chromeOptions": [
                        "binary": "/usr/bin/chromium",
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--no-first-run", "--user-data-dir=\(profile.path)/profile", "--window-size=1280,1600",
                        ],
                    ],
                ]
            ]
        ]
        let reply = try Self.call(port: port, "POST", "/session", capabilities)
        guard let value = reply["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            driver.signal(SIGKILL)
            _ = driver.wait()
            throw Failure(description: "no session: \(reply)")
        }
        sessionID = id
    }

    public func quit() {
        _ = try? Self.call(port: port, "DELETE", "/session/\(sessionID)", nil)
        driver.signal(SIGTERM)
        // A driver that does not stop on SIGTERM within 200 ms is killed.
        if !eventually(0.2, { driver.poll() != nil }) { driver.signal(SIGKILL) }
        _ = driver.wait()
        try? FileManager.default.removeItem(at: profile)
    }

    public func navigate(_ url: String) throws {
        _ = try session("POST", "/url", ["url": url])
    }

    /// The element's WebDriver reference, or nil when none matches.
    public func find(_ css: String) throws -> String? {
        let reply = try Self.call(
            port: port, "POST", "/session/\(sessionID)/element", ["using": "css selector", "value": css])
        guard let value = reply["value"] as? [String: Any], let id = value[Self.elementKey] as? String else {
            return nil
        }
        return id
    }

    public func click(_ element: String) throws {
        _ = try session("POST", "/element/\(element)/click", [:])
    }

    /// Types keys into the element (WebDriver key codes, e.g. "\u{E014}" = ArrowRight).
    public func sendKeys(_ element: String, _ text: String) throws {
        _ = try session("POST", "/element/\(element)/value", ["text": text])
    }

    /// Runs `script` in the page and returns its JSON result.
    public func execute(_ script: String, _ args: [Any] = []) throws -> Any? {
        let reply = try session("POST", "/execute/sync", ["script": script, "args": args])
        return reply["value"]
    }

    /// Polls `script` (which returns a boolean) until it is true, within `seconds`.
    public func waitUntil(_ seconds: Double, _ script: String) throws -> Bool {
        var failure: Error?
        let done = Wait.until(seconds, interval: 0.05) { () -> Bool? in
            do {
                return (try execute(script)) as? Bool == true ? true : nil
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return done == true
    }

    /// Presses keys together and lets them go (a chord, e.g. ["\u{E009}", "z"] = Ctrl+Z) where
    /// the focus is, as a keyboard does (WebDriver actions; element send-keys needs a text box).
    public func press(_ keys: [String]) throws {
        let down = keys.map { ["type": "keyDown", "value": $0] }
        let up = keys.reversed().map { ["type": "keyUp", "value": $0] }
        _ = try session("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": down + up]]])
        _ = try session("DELETE", "/actions", nil)
    }

    /// Presses the mouse on the element's centre, moves it by `dx`,`dy` CSS pixels in `steps`
    /// moves, and lets go (WebDriver pointer actions: real pointer events in the page).
    public func drag(_ element: String, dx: Int, dy: Int, steps: Int = 5) throws {
        var moves: [[String: Any]] = [
            ["type": "pointerMove", "origin": [Self.elementKey: element], "x": 0, "y": 0],
            ["type": "pointerDown", "button": 0],
        ]
        // Relative to the pointer: the element moves with it.
        for i in 1...steps {
            moves.append([
                "type": "pointerMove", "origin": "pointer", "duration": 20,
                "x": dx * i / steps - dx * (i - 1) / steps, "y": dy * i / steps - dy * (i - 1) / steps,
            ])
        }
        moves.append(["type": "pointerUp", "button": 0])
        _ = try session(
            "POST", "/actions",
            ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": moves]]])
        _ = try session("DELETE", "/actions", nil)
    }

    /// Clicks the element's centre twice, `pauseMilliseconds` apart, as a double-click does (WebDriver
    /// pointer actions: real pointer events in the page, the second where the first was).
    public func doubleClick(_ element: String, pauseMilliseconds: Int = 150) throws {
        let click: [[String: Any]] = [["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0]]
        let moves: [[String: Any]] =
            [["type": "pointerMove", "origin": [Self.elementKey: element], "x": 0, "y": 0]] + click
            + [["type": "pause", "duration": pauseMilliseconds]] + click
        _ = try session(
            "POST", "/actions",
            ["actions": [["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": moves]]])
        _ = try session("DELETE", "/actions", nil)
    }

    /// The focused element's reference (what keyboard input goes to).
    public func activeElement() throws -> String? {
        let reply = try session("GET", "/element/active", nil)
        return (reply["value"] as? [String: Any])?[Self.elementKey] as? String
    }

    /// Resizes the browser window (CSS pixels).
    public func setWindowSize(width: Int, height: Int) throws {
        _ = try session("POST", "/window/rect", ["width": width, "height": height])
    }

    /// Runs a DevTools protocol command (chromedriver's `goog/cdp/execute`), e.g.
    /// `Emulation.setEmulatedMedia` to show the page in light or dark.
    @discardableResult
    public func devTools(_ command: String, _ params: [String: Any] = [:]) throws -> Any? {
        try session("POST", "/goog/cdp/execute", ["cmd": command, "params": params])["value"]
    }

    public func screenshotPNG() throws -> Data {
        let reply = try session("GET", "/screenshot", nil)
        guard let base64 = reply["value"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }

    private func session(_ method: String, _ path: String, _ body: [String: Any]?) throws -> [String: Any] {
        let reply = try Self.call(port: port, method, "/session/\(sessionID)\(path)", body)
        if let value = reply["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "\(method) \(path): \(error): \(value["message"] ?? "")")
        }
        return reply
    }

    static func call(port: Int, _ method: String, _ path: String, _ body: [String: Any]?) throws -> [String: Any] {
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let reply = try RawHTTP.send(
            port: port, method: method, path: path,
            headers: bytes.isEmpty ? [] : [("Content-Type", "application/json")],
            body: bytes, timeoutSeconds: 60)
        return reply.json() ?? [:]
    }

    /// An unused loopback port (bind to 0, read it back, close).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = LoopbackAddress()
        let ok = address.withSockaddr { sa, length in
            bind(fd, sa, length) == 0 && getsockname(fd, sa, &length) == 0
        }
        guard ok else { throw Failure(description: "no free port") }
        return address.port
    }
}
