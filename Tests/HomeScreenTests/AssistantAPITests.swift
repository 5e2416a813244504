import Foundation
import TestSupport
import Testing

/// The Editor's Describe and Ask routes over a real socket to a real `weaver serve`, against a stand-in
/// for Ollama on loopback (the same `LocalHTTPServer` as `weaver ai`'s tests): an answer becomes the
/// draft and only the draft, refused edits come back per field, and every failure is a message that
/// leaves the draft and the store as they were.
@Suite(.serialized)
struct AssistantAPITests {
    /// An Ollama `/api/chat` answer whose message proposes `edits` (a JSON array) and `notes`.
    static func answer(_ edits: String, notes: String = "[]") -> String {
        let content = "{\"edits\":\(edits),\"notes\":\(notes)}"
        let message = try! JSONSerialization.data(withJSONObject: ["role": "assistant", "content": content])
        return "{\"model\":\"tiny:1b\",\"message\":\(String(decoding: message, as: UTF8.self)),\"done\":true}"
    }

    /// A stand-in Ollama listing one model and giving `box`'s answer after `box`'s delay.
    static func standIn(_ box: AnswerBox) throws -> LocalHTTPServer {
        try LocalHTTPServer { request in
            if request.path == "/api/tags" { return .json(#"{"models":[{"name":"tiny:1b"}]}"#) }
            let (text, delay) = box.current
            return LocalHTTPServer.Response(body: Data(text.utf8), delaySeconds: delay)
        }
    }

    static func post(_ rig: ServeRig, _ path: String, _ body: String, token: String?) throws -> RawHTTP.Reply {
        try EditorAPITests.send(rig, "POST", path, body, token: token)
    }

    static func design(_ reply: RawHTTP.Reply) -> [String: Any] { reply.json()?["design"] as? [String: Any] ?? [:] }
    static func accent(_ design: [String: Any]) -> String? { (design["style"] as? [String: Any])?["accent"] as? String }

    @Test func describeAndAskBecomeTheDraftAndOnlySaveWritesIt() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig)
        let box = AnswerBox(
            Self.answer(
                #"[{"field":"name","value":"Coffee Board"},{"field":"style.accent","value":"orange"},"#
                    + #"{"field":"primaryText","value":"{{__time}}"}]"#))
        let standIn = try Self.standIn(box)
        defer { standIn.stop() }
        let token = try rig.startServerForAPI()
        let saved = try EditorAPITests.showJSON(rig, id)

        // No model set up: the boxes are told how to set one up, and nothing is contacted.
        let off = try RawHTTP.send(port: rig.port, path: "/api/assistant")
        #expect(off.status == 200 && off.json()?["configured"] as? Bool == false)
        #expect((off.json()?["setup"] as? String)?.contains("weaver ai setup") == true, "\(off.text)")
        let refused = try Self.post(rig, "/api/drafts/\(id)/describe", #"{"text":"a coffee board"}"#, token: token)
        #expect(refused.status == 409, "\(refused.text)")
        #expect((refused.json()?["error"] as? String)?.contains("no local model is set up") == true)
        #expect((refused.json()?["error"] as? String)?.contains("weaver ai setup") == true)
        #expect(standIn.requests.isEmpty, "a server was contacted without a model set up")
        #expect(try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)").json()?["unsaved"] as? Bool == false)

        let setup = try rig.weaver(["ai", "setup", "--url", standIn.baseURL])
        #expect(setup.status == 0, "\(setup.stderrText)")
        let on = try RawHTTP.send(port: rig.port, path: "/api/assistant")
        #expect(on.json()?["configured"] as? Bool == true && on.json()?["model"] as? String == "tiny:1b", "\(on.text)")
        #expect(on.json()?["loopback"] as? Bool == true && on.json()?["api"] as? String == "ollama")

        // Describe: a new design in the open design's draft, its ID kept; the store unchanged.
        let described = try Self.post(
            rig, "/api/drafts/\(id)/describe", #"{"text":"a coffee board in orange","family":"large"}"#, token: token)
        #expect(described.status == 200, "\(described.text)")
        #expect(described.json()?["changed"] as? Bool == true && described.json()?["unsaved"] as? Bool == true)
        #expect(Self.design(described)["name"] as? String == "Coffee Board")
        #expect(Self.design(described)["id"] as? String == id)
        #expect(Self.accent(Self.design(described)) == "orange")
        let changes = described.json()?["changes"] as? [String] ?? []
        #expect(changes.contains("name: Classic → Coffee Board"), "\(changes)")
        #expect((described.json()?["refused"] as? [Any])?.isEmpty == true)
        // What went out: the words and the size the box named.
        let asked = String(decoding: try #require(standIn.requests.last).body, as: UTF8.self)
        #expect(asked.contains("a coffee board in orange") && asked.contains("large widget"))
        #expect(
            NSDictionary(dictionary: try EditorAPITests.showJSON(rig, id)).isEqual(to: saved), "the draft was saved")
        let draft = try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)")
        #expect(draft.json()?["unsaved"] as? Bool == true && Self.design(draft)["name"] as? String == "Coffee Board")

        // Ask: edits to the draft; an unknown field and a value out of range are refused by field.
        box.current = (
            Self.answer(
                #"[{"field":"style.padding","value":99},{"field":"coffeeCounter","value":"1"},"#
                    + #"{"field":"style.accent","value":"teal"}]"#, notes: #"["I cannot add a counter"]"#), 0
        )
        let edited = try Self.post(
            rig, "/api/drafts/\(id)/ask", #"{"text":"teal, roomier, with a counter"}"#, token: token)
        #expect(edited.status == 200, "\(edited.text)")
        #expect(Self.accent(Self.design(edited)) == "teal" && Self.design(edited)["name"] as? String == "Coffee Board")
        #expect(edited.json()?["changes"] as? [String] == ["style.accent: orange → teal"], "\(edited.text)")
        let refusals = edited.json()?["refused"] as? [[String: Any]] ?? []
        #expect(refusals.map { $0["field"] as? String } == ["style.padding", "coffeeCounter"], "\(edited.text)")
        #expect((refusals.first?["message"] as? String)?.contains("0…32") == true, "\(refusals)")
        #expect(refusals.last?["message"] as? String == "not a field a model may set")
        #expect(edited.json()?["notes"] as? [String] == ["I cannot add a counter"])
        let sentDesign = String(decoding: try #require(standIn.requests.last).body, as: UTF8.self)
        #expect(sentDesign.contains("Coffee Board"), "the request did not carry the draft")

        // Every edit refused: nothing changes, the draft stays as it was.
        box.current = (Self.answer(#"[{"field":"style.padding","value":99}]"#), 0)
        let none = try Self.post(rig, "/api/drafts/\(id)/ask", #"{"text":"much roomier"}"#, token: token)
        #expect(none.status == 200 && none.json()?["changed"] as? Bool == false, "\(none.text)")
        #expect(Self.accent(Self.design(none)) == "teal" && none.json()?["unsaved"] as? Bool == true)
        #expect(NSDictionary(dictionary: try EditorAPITests.showJSON(rig, id)).isEqual(to: saved))

        // Save writes the draft, as for any other edit.
        let body = String(decoding: try JSONSerialization.data(withJSONObject: Self.design(none)), as: UTF8.self)
        let put = try EditorAPITests.send(rig, "PUT", "/api/designs/\(id)", body, token: token)
        #expect(put.status == 200, "\(put.text)")
        let after = try EditorAPITests.showJSON(rig, id)
        #expect(after["name"] as? String == "Coffee Board" && Self.accent(after) == "teal")
    }

    @Test func failuresAreClearMessagesAndChangeNothing() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig)
        let box = AnswerBox(Self.answer(#"[{"field":"style.accent","value":"teal"}]"#))
        let standIn = try Self.standIn(box)
        defer { standIn.stop() }
        let setup = try rig.weaver(["ai", "setup", "--url", standIn.baseURL, "--timeout", "5"])
        #expect(setup.status == 0, "\(setup.stderrText)")
        let token = try rig.startServerForAPI()
        // A draft of the user's own, which no failure may touch.
        let own = try Self.post(rig, "/api/drafts/\(id)/edit", #"{"field":"style.padding","value":"20"}"#, token: token)
        #expect(own.status == 200, "\(own.text)")
        let saved = try EditorAPITests.showJSON(rig, id)
        let draftBefore =
            try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)").json()?["design"] as? [String: Any]
        func unchanged(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let draft = try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)").json()?["design"] as? [String: Any]
            #expect(
                NSDictionary(dictionary: draft ?? [:]).isEqual(to: draftBefore ?? [:]), "\(what) changed the draft",
                sourceLocation: sourceLocation)
            #expect(
                NSDictionary(dictionary: try EditorAPITests.showJSON(rig, id)).isEqual(to: saved),
                "\(what) changed the store", sourceLocation: sourceLocation)
        }
        let ask = #"{"text":"make it teal"}"#

        // Refused before anything is asked: the access rules, the cap, the shape and the length of the words.
        let asked = standIn.requests.count
        #expect(try Self.post(rig, "/api/drafts/\(id)/ask", ask, token: nil).status == 403)
        #expect(
            try EditorAPITests.send(rig, "POST", "/api/drafts/\(id)/ask", ask, token: token, origin: "http://evil.test")
                .status == 403)
        #expect(
            try EditorAPITests.send(
                rig, "POST", "/api/drafts/\(id)/ask", ask, token: token, host: "evil.test:\(rig.port)"
            ).status == 403)
        let huge = #"{"text":""# + String(repeating: "a", count: 20_000) + #""}"#
        #expect(try Self.post(rig, "/api/drafts/\(id)/ask", huge, token: token).status == 413)
        let long = #"{"text":""# + String(repeating: "a", count: 2001) + #""}"#
        let tooLong = try Self.post(rig, "/api/drafts/\(id)/ask", long, token: token)
        #expect(tooLong.status == 422 && (tooLong.json()?["error"] as? String)?.contains("at most 2000") == true)
        #expect(
            try Self.post(rig, "/api/drafts/\(id)/ask", #"{"text":"x","family":"large"}"#, token: token).status == 400)
        let badFamily = try Self.post(
            rig, "/api/drafts/\(id)/describe", #"{"text":"x","family":"huge"}"#, token: token)
        #expect(badFamily.status == 422 && badFamily.json()?["field"] as? String == "family", "\(badFamily.text)")
        #expect(try Self.post(rig, "/api/drafts/\(id)/ask", #"{"text":"   "}"#, token: token).status == 422)
        let unknown = UUID().uuidString
        #expect(try Self.post(rig, "/api/drafts/\(unknown)/ask", ask, token: token).status == 404)
        #expect(standIn.requests.count == asked, "a refused request reached the model")
        try unchanged("a refused request")

        // A malformed answer.
        box.current = ("{\"message\":{\"role\":\"assistant\",\"content\":\"not json\"},\"done\":true}", 0)
        let malformed = try Self.post(rig, "/api/drafts/\(id)/ask", ask, token: token)
        #expect(malformed.status == 502, "\(malformed.text)")
        #expect((malformed.json()?["error"] as? String)?.contains("nothing was changed") == true, "\(malformed.text)")
        try unchanged("a malformed answer")

        // One question at a time; the rest of the app answers while the model thinks.
        box.current = (Self.answer(#"[{"field":"style.accent","value":"teal"}]"#), 2)
        let first = LockedReply()
        let before = standIn.requests.count
        let asking = Thread {
            first.value = try? RawHTTP.send(
                port: rig.port, method: "POST", path: "/api/drafts/\(id)/ask",
                headers: [
                    ("Content-Type", "application/json"), ("Origin", rig.origin), ("X-WidgetWeaver-Token", token),
                ],
                body: Array(ask.utf8), timeoutSeconds: 30)
        }
        asking.start()
        #expect(Wait.until(5, interval: 0.02) { standIn.requests.count > before ? true : nil } == true)
        let started = Date()
        #expect(try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)").status == 200)
        #expect(Date().timeIntervalSince(started) < 1, "the server waited for the model to answer a GET")
        let second = try Self.post(rig, "/api/drafts/\(id)/ask", ask, token: token)
        #expect(second.status == 429 && (second.json()?["error"] as? String)?.contains("still answering") == true)
        #expect(Wait.until(10, interval: 0.05) { first.value } != nil)
        #expect(
            first.value?.status == 200 && Self.accent(Self.design(first.value!)) == "teal", "\(first.value?.text ?? "")"
        )
        // Back to the user's own draft for the failures below.
        let back = try JSONSerialization.data(withJSONObject: draftBefore ?? [:])
        #expect(
            try EditorAPITests.send(
                rig, "PUT", "/api/drafts/\(id)", String(decoding: back, as: UTF8.self), token: token
            ).status == 200)
        try unchanged("putting the draft back")

        // A model that does not answer within the time-out (5 s).
        box.current = (Self.answer(#"[{"field":"style.accent","value":"teal"}]"#), 8)
        let slow = try RawHTTP.send(
            port: rig.port, method: "POST", path: "/api/drafts/\(id)/ask",
            headers: [("Content-Type", "application/json"), ("Origin", rig.origin), ("X-WidgetWeaver-Token", token)],
            body: Array(ask.utf8), timeoutSeconds: 30)
        #expect(slow.status == 502, "\(slow.text)")
        #expect((slow.json()?["error"] as? String)?.contains("did not answer within 5 s") == true, "\(slow.text)")
        try unchanged("a time-out")

        // No server at the address any more.
        standIn.stop()
        let gone = try Self.post(rig, "/api/drafts/\(id)/ask", ask, token: token)
        #expect(gone.status == 502, "\(gone.text)")
        #expect((gone.json()?["error"] as? String)?.contains("is the model server running?") == true, "\(gone.text)")
        try unchanged("a refused connection")
    }
}

/// A reply a background thread fills in.
final class LockedReply: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RawHTTP.Reply?
    var value: RawHTTP.Reply? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// The stand-in's next answer and how long it waits before sending it, shared with its handler threads.
final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (String, Double)
    init(_ text: String) { stored = (text, 0) }
    var current: (String, Double) {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
