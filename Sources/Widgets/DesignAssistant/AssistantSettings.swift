import BoundedJSON
import Foundation
import SharedStore

/// Which local model `weaver ai` asks, kept in the store as `ai.json`. Without this file nothing is
/// ever contacted: describing and editing in words is off until `weaver ai setup`.
public struct AssistantSettings: Equatable, Sendable {
    /// The two HTTP dialects local model servers speak.
    public enum API: String, Sendable, CaseIterable {
        /// `POST /v1/chat/completions` with a JSON-schema `response_format` (llama.cpp's llama-server,
        /// LocalAI, vLLM, and Ollama's compatibility endpoint).
        case openai
        /// Ollama's own `POST /api/chat` with the schema in `format`.
        case ollama
    }

    public var url: URL
    public var model: String
    public var api: API
    /// The whole answer must come within this (a small model on a CPU can take a minute).
    public var timeoutSeconds: Double

    public static let timeoutRange: ClosedRange<Double> = 5...600
    public static let defaultTimeoutSeconds: Double = 120

    public init(url: URL, model: String, api: API, timeoutSeconds: Double = defaultTimeoutSeconds) {
        self.url = url
        self.model = model
        self.api = api
        self.timeoutSeconds = timeoutSeconds
    }

    public static func file(in root: StoreRoot) -> URL { root.url.appendingPathComponent("ai.json") }

    /// Whether `url` names this machine (127.0.0.0/8, ::1, localhost): the only hosts used unless named.
    public static func isLoopback(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The settings, nil when there are none. A file that cannot be read is an error naming it and
    /// its field; it is left as it is.
    public static func load(from root: StoreRoot) throws -> AssistantSettings? {
        let file = file(in: root)
        guard let data = try FileSystem.read(file, limit: 64 << 10) else { return nil }
        do {
            let r = try JSONReader.parse(data, document: file.path, maxDepth: 4, maxValues: 100, maxStringBytes: 4096)
            var members = try JSONMembers(r)
            let urlField = try members.takeRequired("url")
            guard let url = URL(string: try urlField.string()), url.host != nil,
                ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else {
                throw urlField.fail("must be an http:// or https:// address")
            }
            let apiField = try members.takeRequired("api")
            guard let api = API(rawValue: try apiField.string()) else {
                throw apiField.fail("must be one of: " + API.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let model = try members.takeRequired("model").string(maxBytes: 256)
            let timeout = try members.take("timeoutSeconds")?.number(in: timeoutRange) ?? defaultTimeoutSeconds
            try members.refuseRest()
            return AssistantSettings(url: url, model: model, api: api, timeoutSeconds: timeout)
        } catch let e as JSONFieldError {
            throw AssistantError("\(e.description); fix it or run 'weaver ai setup' again")
        }
    }

    /// The settings, or the one refusal every caller gives without them (`weaver ai describe`, the
    /// Editor's boxes): nothing was asked, and how to set a model up.
    public static func required(from root: StoreRoot) throws -> AssistantSettings {
        guard let settings = try load(from: root) else { throw AssistantError(notSetUp) }
        return settings
    }

    public static let notSetUp =
        "no local model is set up, so nothing was asked; run 'weaver ai setup' (Ollama or llama-server) first"

    /// Writes the settings; a file there that could not be read is set aside first, never lost.
    public func save(to root: StoreRoot) throws {
        try root.ensureExists()
        let file = Self.file(in: root)
        if FileManager.default.fileExists(atPath: file.path), (try? Self.load(from: root)) == nil {
            _ = try FileSystem.setAside(file)
        }
        let object: [String: Any] = [
            "url": url.absoluteString, "model": model, "api": api.rawValue, "timeoutSeconds": timeoutSeconds,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try FileSystem.atomicWrite(data + Data("\n".utf8), to: file)
    }
}
