import DataSources
import Foundation
import TestSupport
import Testing

/// The libcurl client against a loopback server: what an untrusted server may try beyond the
/// Open-Meteo cases in WeatherTests (slow, oversized, 4xx/5xx).
@Suite struct HTTPClientTests {
    let policy = HTTPPolicy(
        maxBodyBytes: 10_000, idleTimeoutSeconds: 5, totalTimeoutSeconds: 10, retryDelaysSeconds: [])

    @Test func redirectsOnTheSameServerAreFollowed() throws {
        let server = try LocalHTTPServer { request in
            request.path == "/old"
                ? LocalHTTPServer.Response(status: 302, body: Data(), headers: [("Location", "/new")])
                : .json("{\"at\":\"\(request.path)\"}")
        }
        defer { server.stop() }
        let answer = try HTTPClient().get(URL(string: server.baseURL + "/old")!, policy: policy)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "{\"at\":\"/new\"}")
        #expect(server.requests.map(\.path) == ["/old", "/new"])
    }

    @Test func aRedirectToAFileIsRefused() throws {
        let secret = try Products.temporaryDirectory("http").appendingPathComponent("secret.txt")
        try Data("not for the network".utf8).write(to: secret)
        let server = try LocalHTTPServer { _ in
            LocalHTTPServer.Response(status: 302, body: Data(), headers: [("Location", "file://\(secret.path)")])
        }
        defer { server.stop() }
        do {
            let answer = try HTTPClient().get(URL(string: server.baseURL + "/x")!, policy: policy)
            Issue.record("a redirect to file:// was followed: \(answer.body.count) bytes")
        } catch {
            guard case .transport(let reason, _, _) = error else {
                Issue.record("expected a transport error, got \(error)")
                return
            }
            #expect(reason.lowercased().contains("protocol"))
        }
    }

    /// A small compressed answer that decodes past the cap is cut off like a large one.
    @Test func aCompressedAnswerIsCappedWhenDecoded() throws {
        let big = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        let packed = try gzip(big)
        #expect(packed.count < policy.maxBodyBytes)
        let server = try LocalHTTPServer { _ in
            LocalHTTPServer.Response(body: packed, headers: [("Content-Encoding", "gzip")])
        }
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/bomb")!
        #expect(throws: HTTPError.tooLarge(limitBytes: policy.maxBodyBytes, url: url.absoluteString)) {
            _ = try HTTPClient().get(url, policy: policy)
        }
    }

    @Test func headersCannotBeInjected() throws {
        let server = try LocalHTTPServer { _ in .json("{}") }
        defer { server.stop() }
        _ = try HTTPClient(userAgent: "ww\r\nX-Injected: yes").get(URL(string: server.baseURL + "/")!, policy: policy)
        let seen = try #require(server.requests.first)
        #expect(seen.headers["x-injected"] == nil)
        #expect(seen.headers["user-agent"] == "wwX-Injected: yes")
        #expect(seen.headers["accept"] == "application/json")
    }

    @Test func statusErrorsSayTheReason() throws {
        let server = try LocalHTTPServer { _ in .json("{}", status: 503) }
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/busy")!
        do {
            _ = try HTTPClient().get(url, policy: HTTPPolicy(maxBodyBytes: 100, retryDelaysSeconds: [0.01]))
            Issue.record("a 503 was accepted")
        } catch {
            #expect(error == .status(code: 503, url: url.absoluteString, attempts: 2))
            #expect(
                error.description
                    == "\(url.host!):\(url.port!)/busy answered HTTP 503 Service Unavailable (after 2 attempts)")
        }
        #expect(server.requests.count == 2)
    }

    /// Issue 28 item 11: a forecast URL is ~400 characters of query; messages name the host and
    /// the path (a calendar's query may hold its key).
    @Test func errorsNameTheHostAndPathNotTheQuery() throws {
        let server = try LocalHTTPServer { _ in .json("{}", status: 500) }
        defer { server.stop() }
        let query = (1...40).map { "variable\($0)=temperature_2m,precipitation" }.joined(separator: "&")
        let url = URL(string: server.baseURL + "/v1/forecast?" + query + "&key=secret")!
        do {
            _ = try HTTPClient().get(url, policy: HTTPPolicy(maxBodyBytes: 100, retryDelaysSeconds: []))
            Issue.record("a 500 was accepted")
        } catch {
            #expect(
                error.description == "127.0.0.1:\(url.port!)/v1/forecast answered HTTP 500 Internal Server Error",
                "\(error)")
            #expect(!error.description.contains("secret") && error.description.count < 80)
        }
        #expect(HTTPError.shown("https://[::1]:8443/a%20b?x=1") == "[::1]:8443/a%20b")
        #expect(
            HTTPError.shown("https://api.open-meteo.com/v1/forecast?latitude=1") == "api.open-meteo.com/v1/forecast")
        let unreachable = HTTPError.transport(
            reason: "connection refused", url: "http://127.0.0.1:9/v1/search?name=Dublin", attempts: 3)
        #expect(unreachable.description == "cannot reach 127.0.0.1:9/v1/search: connection refused (after 3 attempts)")
    }

    @Test func nothingListeningIsATransportError() throws {
        let server = try LocalHTTPServer { _ in .json("{}") }
        let url = URL(string: server.baseURL + "/")!
        server.stop()
        #expect {
            _ = try HTTPClient().get(url, policy: policy)
        } throws: { error in
            guard let error = error as? HTTPError, case .transport(let reason, _, _) = error else { return false }
            return !reason.isEmpty
        }
    }

    private func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-9"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let packed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return packed
    }
}
