import BoundedJSON
import DataSources
import Foundation
import WidgetDesign

/// One exchange with a local model server: the request under the edit schema, the answer read with
/// the strict reader. The answer is untrusted: its size is capped while it arrives, the whole exchange
/// has a deadline, and nothing of it is used until every edit has been checked by its field's row.
public struct LocalModel: Sendable {
    public var settings: AssistantSettings
    /// Bytes of answer accepted (a design's edits are a few kilobytes).
    public static let maximumAnswerBytes = 1 << 20

    public init(settings: AssistantSettings) { self.settings = settings }

    /// What the model proposed, not yet checked.
    public struct Proposal: Equatable, Sendable {
        /// The value as the Editor takes it: numbers as written, flags as true/false.
        public typealias Edit = DesignEditor.Edit
        public var edits: [Edit]
        public var notes: [String]
    }

    /// The request body for the configured dialect.
    public func requestBody(instructions: String, prompt: String) throws -> Data {
        let messages = [["role": "system", "content": instructions], ["role": "user", "content": prompt]]
        var body: [String: Any] = ["model": settings.model, "messages": messages, "stream": false]
        switch settings.api {
        case .openai:
            body["temperature"] = 0.2
            body["response_format"] = [
                "type": "json_schema",
                "json_schema": ["name": "widget_design_edits", "strict": true, "schema": EditSchema.schema()],
            ]
        case .ollama:
            body["format"] = EditSchema.schema()
            body["options"] = ["temperature": 0.2]
        }
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    }

    public var endpoint: URL {
        switch settings.api {
        case .openai: settings.url.appendingPathComponent("v1/chat/completions")
        case .ollama: settings.url.appendingPathComponent("api/chat")
        }
    }

    /// Asks the model; every failure is an `AssistantError` saying what happened in words a user can act on.
    public func ask(instructions: String, prompt: String) throws -> Proposal {
        let body = try requestBody(instructions: instructions, prompt: prompt)
        let policy = HTTPPolicy(
            maxBodyBytes: Self.maximumAnswerBytes, idleTimeoutSeconds: settings.timeoutSeconds,
            totalTimeoutSeconds: settings.timeoutSeconds, retryDelaysSeconds: [])
        let response: HTTPResponse
        do {
            response = try HTTPClient().post(endpoint, body: body, policy: policy)
        } catch {
            switch error {
            case .transport:
                throw AssistantError(
                    "\(error.description); is the model server running? (Ollama: 'ollama serve'; llama.cpp: "
                        + "'llama-server -m MODEL.gguf'); 'weaver ai setup' changes the address")
            case .tooLarge:
                throw AssistantError("the model's answer is too large: \(error.description); nothing was changed")
            default: throw AssistantError("\(error.description); nothing was changed")
            }
        }
        return try Self.read(answer: response.body, api: settings.api, from: HTTPError.shown(endpoint.absoluteString))
    }

    /// The proposal inside a server's answer (the chat message's content is itself JSON).
    public static func read(answer: Data, api: AssistantSettings.API, from source: String) throws -> Proposal {
        let document = "the answer of \(source)"
        do {
            let outer = try JSONReader.parse(answer, document: document, maxDepth: 16, maxValues: 20_000)
            let message: JSONReader
            switch api {
            case .openai:
                let choices = try outer.required("choices").array(maxCount: 16)
                guard let first = choices.first else { throw outer.fail("the answer has no choices") }
                message = try first.required("message")
            case .ollama:
                message = try outer.required("message")
            }
            if let refusal = try message.optional("refusal"), case .string(let why) = refusal.value {
                throw AssistantError("the model refused: \(why.prefix(300)); nothing was changed")
            }
            let content = try message.required("content").string(maxBytes: maximumAnswerBytes)
            return try proposal(content, document: "\(document) (its message)")
        } catch let e as JSONFieldError {
            throw AssistantError("\(e.description); nothing was changed")
        }
    }

    static func proposal(_ content: String, document: String) throws -> Proposal {
        let root = try JSONReader.parse(Data(content.utf8), document: document, maxDepth: 6, maxValues: 5_000)
        var members = try JSONMembers(root)
        let editsField = try members.takeRequired("edits")
        var edits: [Proposal.Edit] = []
        for item in try editsField.array(maxCount: EditSchema.maximumEdits) {
            var m = try JSONMembers(item)
            let field = try m.takeRequired("field").string(maxBytes: 100)
            let valueField = try m.takeRequired("value")
            let value: String
            switch valueField.value {
            case .string(let s): value = s
            case .number(let n): value = n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
            case .bool(let b): value = b ? "true" : "false"
            default: throw valueField.wrongType("a string, number or boolean")
            }
            try m.refuseRest()
            edits.append(.init(field: field, value: value))
        }
        let notes = try members.take("notes")?.array(maxCount: EditSchema.maximumNotes).map { try $0.string() } ?? []
        try members.refuseRest()
        return Proposal(edits: edits, notes: notes)
    }
}
