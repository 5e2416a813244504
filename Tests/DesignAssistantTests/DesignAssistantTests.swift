import DesignAssistant
import FieldTable
import Foundation
import SharedStore
import TestSupport
import Testing
import WidgetDesign

/// The local model path against a stand-in server on loopback that speaks the OpenAI chat-completions
/// API and Ollama's /api/chat: what goes out (the schema from the field table), what comes back (read
/// strictly, each edit checked by its row), and every way it can fail.
@Suite struct DesignAssistantTests {
    static func content(_ edits: String, notes: String = "[]") -> String { "{\"edits\":\(edits),\"notes\":\(notes)}" }

    /// A chat answer in the dialect's shape, its message content being `content`.
    static func answer(_ content: String, api: AssistantSettings.API) -> String {
        let quoted = FieldJSON.string(content)
        switch api {
        case .openai: return "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\(quoted)}}]}"
        case .ollama:
            return "{\"model\":\"tiny\",\"message\":{\"role\":\"assistant\",\"content\":\(quoted)},\"done\":true}"
        }
    }

    static func assistant(_ server: LocalHTTPServer, api: AssistantSettings.API, timeout: Double = 10)
        -> DesignAssistant
    {
        DesignAssistant(
            model: LocalModel(
                settings: AssistantSettings(
                    url: URL(string: server.baseURL)!, model: "tiny", api: api, timeoutSeconds: timeout)))
    }

    static var start: WidgetSpec { get throws { try TemplateCatalogue.find("classic")!.design(now: Date()) } }

    @Test(arguments: [AssistantSettings.API.openai, .ollama])
    func aValidAnswerBecomesTheExpectedDesign(api: AssistantSettings.API) throws {
        let edits =
            #"[{"field":"name","value":"Night Clock"},{"field":"style.accent","value":"teal"},"#
            + #"{"field":"style.padding","value":20},{"field":"primaryText","value":"{{__time}}"}]"#
        let server = try LocalHTTPServer { _ in .json(Self.answer(Self.content(edits), api: api)) }
        defer { server.stop() }
        let outcome = try Self.assistant(server, api: api).describe("a dark clock", startingFrom: Self.start)
        #expect(outcome.refused.isEmpty)
        #expect(outcome.design.name == "Night Clock")
        #expect(outcome.design.primaryText == "{{__time}}")
        #expect(outcome.changes.contains("style.accent: blue → teal"))
        #expect(outcome.changes.contains { $0.hasPrefix("style.padding: ") && $0.hasSuffix("→ 20") })
        // What went out: one POST to the dialect's path, the model, the words and the schema.
        let request = try #require(server.requests.last)
        #expect(request.method == "POST")
        #expect(request.path == (api == .openai ? "/v1/chat/completions" : "/api/chat"))
        let body = try #require(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(body["model"] as? String == "tiny" && body["stream"] as? Bool == false)
        let messages = try #require(body["messages"] as? [[String: String]])
        #expect(messages.last?["content"]?.contains("a dark clock") == true)
        let schema =
            api == .openai
            ? ((body["response_format"] as? [String: Any])?["json_schema"] as? [String: Any])?["schema"]
            : body["format"]
        #expect((schema as? [String: Any])?["required"] as? [String] == ["edits"])
    }

    @Test func unknownFieldsAndOutOfRangeValuesAreRefusedOneByOne() throws {
        let edits =
            #"[{"field":"style.padding","value":999},{"field":"coffeeCounter","value":"1"},"#
            + #"{"field":"style.accent","value":"plaid"},{"field":"name","value":"Kept"}]"#
        let server = try LocalHTTPServer { _ in
            .json(Self.answer(Self.content(edits, notes: #"["no coffee field"]"#), api: .openai))
        }
        defer { server.stop() }
        let outcome = try Self.assistant(server, api: .openai).edit(Self.start, request: "bigger")
        #expect(outcome.design.name == "Kept")
        #expect(outcome.changes == ["name: Classic → Kept"])
        #expect(outcome.refused.count == 3)
        #expect(outcome.refused[0].hasPrefix("style.padding = '999'") && outcome.refused[0].contains("0…32"))
        #expect(outcome.refused[1] == "coffeeCounter = '1': not a field a model may set")
        #expect(outcome.refused[2].hasPrefix("style.accent = 'plaid'") && outcome.refused[2].contains("teal"))
        #expect(outcome.notes == ["no coffee field"])
    }

    /// The Editor lists refusals by field: each keeps the field, the value as proposed and the row's reason.
    @Test func refusalsKeepTheirFieldValueAndReason() throws {
        let edits = #"[{"field":"style.padding","value":999},{"field":"coffeeCounter","value":"1"}]"#
        let server = try LocalHTTPServer { _ in .json(Self.answer(Self.content(edits), api: .ollama)) }
        defer { server.stop() }
        let outcome = try Self.assistant(server, api: .ollama).edit(Self.start, request: "roomier")
        #expect(outcome.refusals.map(\.field) == ["style.padding", "coffeeCounter"])
        #expect(outcome.refusals.map(\.value) == ["999", "1"])
        #expect(outcome.refusals[0].reason.contains("0…32") && !outcome.refusals[0].reason.hasPrefix("style.padding"))
        #expect(outcome.refusals.map(\.line) == outcome.refused)
        #expect(outcome.changes.isEmpty)
    }

    /// Describe tells the model the size the widget is mainly for (`--family`, the Editor's "Mainly for").
    @Test func describeNamesTheFamily() throws {
        let server = try LocalHTTPServer { _ in .json(Self.answer(Self.content("[]"), api: .ollama)) }
        defer { server.stop() }
        let assistant = Self.assistant(server, api: .ollama)
        _ = try assistant.describe("a clock", startingFrom: Self.start, family: "small")
        let sent = String(decoding: try #require(server.requests.last).body, as: UTF8.self)
        #expect(sent.contains("It is shown mainly as a small widget."), "\(sent.suffix(400))")
        _ = try assistant.describe("a clock", startingFrom: Self.start)
        #expect(!String(decoding: try #require(server.requests.last).body, as: UTF8.self).contains("shown mainly"))
        #expect(try DesignAssistant.startingDesign(now: Date()).name == "Classic")
    }

    /// Each failure is a message, and the design is never half-changed (nothing comes back to apply).
    @Test func everyFailureIsAClearMessage() throws {
        func failure(_ response: LocalHTTPServer.Response, timeout: Double = 10) throws -> String {
            let server = try LocalHTTPServer { _ in response }
            defer { server.stop() }
            do {
                _ = try Self.assistant(server, api: .openai, timeout: timeout).describe("x", startingFrom: Self.start)
                return "accepted"
            } catch let e as AssistantError { return e.message }
        }
        let notJSON = try failure(.json(Self.answer("Sure! Here is a dark clock: {edits: …", api: .openai)))
        #expect(notJSON.contains("its message") && notJSON.contains("nothing was changed"), "\(notJSON)")
        let wrongShape = try failure(.json(#"{"choices":[]}"#))
        #expect(wrongShape.contains("no choices"), "\(wrongShape)")
        let extra = try failure(.json(Self.answer(#"{"edits":[],"design":{}}"#, api: .openai)))
        #expect(extra.contains("design") && extra.contains("not a known field"), "\(extra)")
        let huge = String(repeating: "x", count: 10 << 20)
        let tooLarge = try failure(.json(Self.answer(huge, api: .openai)))
        #expect(tooLarge.contains("too large"), "\(tooLarge)")
        var slow = LocalHTTPServer.Response.json(Self.answer(Self.content("[]"), api: .openai))
        slow.delaySeconds = 6
        let hang = try failure(slow, timeout: 1)
        #expect(hang.contains("did not answer within 1 s"), "\(hang)")
        let refusal = try failure(
            .json(#"{"choices":[{"message":{"refusal":"I cannot design widgets","content":null}}]}"#))
        #expect(refusal.contains("the model refused: I cannot design widgets"), "\(refusal)")
        let status = try failure(.json(#"{"error":"model 'tiny' not found"}"#, status: 404))
        #expect(status.contains("HTTP 404"), "\(status)")
    }

    @Test func aServerThatIsNotRunningIsSaidSo() throws {
        // A port that was just free: nothing listens there.
        let server = try LocalHTTPServer { _ in .json("{}") }
        let url = URL(string: server.baseURL)!
        server.stop()
        let assistant = DesignAssistant(
            model: LocalModel(settings: AssistantSettings(url: url, model: "tiny", api: .ollama, timeoutSeconds: 5)))
        #expect {
            try assistant.describe("x", startingFrom: Self.start)
        } throws: { error in
            "\(error)".contains("is the model server running?")
        }
    }

    /// The schema the model is held to is the field table's, as `GET /api/fields` serves it.
    @Test func theSchemaIsTheFieldTable() throws {
        let served = try #require(
            JSONSerialization.jsonObject(
                with: Data(FieldJSON.document(design: DesignFields.table, mix: FieldTable(groups: [], fields: [])).utf8)
            ) as? [String: Any])
        let rows = try #require(served["design"] as? [[String: Any]])
        let byKey = Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as! String, $0) })
        let schema = EditSchema.schema()
        let items = try #require(
            ((schema["properties"] as? [String: Any])?["edits"] as? [String: Any])?["items"] as? [String: Any])
        let alternatives = try #require(items["anyOf"] as? [[String: Any]])
        #expect(alternatives.count == EditSchema.fields.count && alternatives.count > 30)
        for alternative in alternatives {
            let properties = try #require(alternative["properties"] as? [String: Any])
            let key = try #require((properties["field"] as? [String: Any])?["const"] as? String)
            let value = try #require(properties["value"] as? [String: Any])
            guard let row = byKey[key] else {
                Issue.record("\(key) is in the schema but not in GET /api/fields")
                continue
            }
            #expect((value["minimum"] as? Double) == (row["min"] as? Double), "\(key) minimum")
            #expect((value["maximum"] as? Double) == (row["max"] as? Double), "\(key) maximum")
            if let allowed = row["allowed"] as? [String], row["type"] as? String == "choice" {
                let values = try #require(value["enum"] as? [String])
                // The table's values, and "none" for a field that may be unset.
                #expect(Set(values).subtracting(["none"]) == Set(allowed).subtracting(["none"]), "\(key) values")
                #expect(values.count == Set(values).count, "\(key) lists a value twice")
            }
        }
        // Every editable row the Editor can set is offered, images aside.
        let offered = Set(EditSchema.fields.map(\.key))
        for field in DesignEditor.fields where field.spec.kind != .image {
            #expect(offered.contains(field.spec.key), "\(field.spec.key) is not offered to the model")
        }
        #expect(EditSchema.instructions().contains("style.padding (number 0…32"))
    }
}
