import Foundation
import TestSupport
import Testing

/// `weaver ai` as a user runs it, against a stand-in for Ollama on loopback: setup finds the server
/// and its model, describe and edit show the change and save only when asked, and a failing model
/// leaves the store as it was.
@Suite struct AICLITests {
    static func ollamaAnswer(_ edits: String) -> String {
        let content = "{\"edits\":\(edits),\"notes\":[]}"
            .replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "{\"message\":{\"role\":\"assistant\",\"content\":\"\(content)\"},\"done\":true}"
    }

    @Test func setupDescribeAndEditAgainstALocalServer() throws {
        let store = try TestStore("ai")
        defer { try? FileManager.default.removeItem(at: store.url) }
        let env = store.environment([:])
        func weaver(_ args: [String]) throws -> Products.Result {
            try Products.run("weaver", args, environment: env)
        }
        let answers = LockedBox(
            Self.ollamaAnswer(#"[{"field":"name","value":"Coffee Board"},{"field":"style.accent","value":"orange"}]"#))
        let server = try LocalHTTPServer { request in
            request.path == "/api/tags" ? .json(#"{"models":[{"name":"tiny:1b"}]}"#) : .json(answers.value)
        }
        defer { server.stop() }

        // Without a model set up nothing is asked.
        let before = try weaver(["ai", "describe", "a coffee board"])
        #expect(before.status != 0 && before.stderrText.contains("no local model is set up"))
        #expect(server.requests.isEmpty)

        let setup = try weaver(["ai", "setup", "--url", server.baseURL])
        #expect(setup.status == 0, "\(setup.stderrText)")
        #expect(setup.stdoutText.contains("Using tiny:1b at \(server.baseURL) (ollama API)"))

        let shown = try weaver(["ai", "describe", "a coffee board in orange"])
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(shown.stdoutText.contains("name: Classic → Coffee Board"))
        #expect(shown.stdoutText.contains("Not saved"))
        #expect(try weaver(["designs", "list"]).stdoutText.contains("No designs yet"))

        let saved = try weaver(["ai", "describe", "a coffee board in orange", "--save"])
        #expect(saved.status == 0 && saved.stdoutText.contains("Saved Coffee Board"), "\(saved.stderrText)")
        let design = try weaver(["designs", "show", "Coffee Board", "--json"])
        #expect(design.stdoutText.contains("\"accent\" : \"orange\""))

        // A broken answer changes nothing, even with --save.
        answers.value = "{\"message\":{\"content\":\"not json\"}}"
        let broken = try weaver(["ai", "edit", "Coffee Board", "make it blue", "--save"])
        #expect(broken.status != 0 && broken.stderrText.contains("nothing was changed"), "\(broken.stderrText)")
        #expect(try weaver(["designs", "show", "Coffee Board", "--json"]).stdoutText == design.stdoutText)

        answers.value = Self.ollamaAnswer(#"[{"field":"style.accent","value":"blue"}]"#)
        let edited = try weaver(["ai", "edit", "Coffee Board", "make it blue", "--save"])
        #expect(edited.status == 0, "\(edited.stderrText)")
        #expect(edited.stdoutText.contains("style.accent: orange → blue"))
        #expect(try weaver(["designs", "show", "Coffee Board", "--json"]).stdoutText.contains("\"accent\" : \"blue\""))
    }

    @Test func setupSaysWhenNoServerAnswers() throws {
        let store = try TestStore("ai-none")
        defer { try? FileManager.default.removeItem(at: store.url) }
        let server = try LocalHTTPServer { _ in .json("{}") }
        let url = server.baseURL
        server.stop()
        let r = try Products.run("weaver", ["ai", "setup", "--url", url], environment: store.environment([:]))
        #expect(r.status != 0 && r.stderrText.contains("no model server answered"), "\(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: store.url.appendingPathComponent("ai.json").path))
    }
}

/// A value shared with the stand-in server's handler thread.
final class LockedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String
    init(_ value: String) { stored = value }
    var value: String {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
