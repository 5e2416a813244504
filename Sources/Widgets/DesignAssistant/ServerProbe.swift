import BoundedJSON
import DataSources
import Foundation

/// Finds a local model server and the models it has: Ollama lists them at `GET /api/tags`, llama-server
/// and the other OpenAI-compatible servers at `GET /v1/models`. Only the address given is asked; with
/// none, only this machine's two usual ports (Ollama 11434, llama-server 8080).
public enum ServerProbe {
    public static let usualAddresses = ["http://127.0.0.1:11434", "http://127.0.0.1:8080"]

    public struct Found: Sendable {
        public var url: URL
        public var api: AssistantSettings.API
        public var models: [String]
    }

    public static func find(url text: String?, api: AssistantSettings.API?) throws -> Found {
        let candidates = text.map { [$0] } ?? usualAddresses
        var reasons: [String] = []
        for candidate in candidates {
            guard let url = URL(string: candidate.hasSuffix("/") ? String(candidate.dropLast()) : candidate),
                ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
            else {
                throw AssistantError("'--url' \(candidate) is not an http:// or https:// address")
            }
            for dialect in api.map({ [$0] }) ?? [.ollama, .openai] {
                do {
                    return Found(url: url, api: dialect, models: try models(at: url, api: dialect))
                } catch {
                    reasons.append("\(dialect.rawValue) at \(candidate): \(error)")
                }
            }
        }
        throw AssistantError(
            "no model server answered (\(reasons.joined(separator: "; "))); start one (Ollama: 'ollama serve', "
                + "llama.cpp: 'llama-server -m MODEL.gguf') or give '--url'")
    }

    static func models(at url: URL, api: AssistantSettings.API) throws -> [String] {
        let policy = HTTPPolicy(
            maxBodyBytes: 256 << 10, idleTimeoutSeconds: 2, totalTimeoutSeconds: 3, retryDelaysSeconds: [])
        let path = api == .ollama ? "api/tags" : "v1/models"
        let body = try HTTPClient().get(url.appendingPathComponent(path), policy: policy).body
        let root = try JSONReader.parse(body, document: "the answer of \(url.absoluteString)/\(path)", maxDepth: 8)
        let list = try root.required(api == .ollama ? "models" : "data").array(maxCount: 1000)
        return try list.map { try $0.required(api == .ollama ? "name" : "id").string(maxBytes: 256) }
    }
}
