import BoundedJSON
import Foundation
import Hummingbird
import NIOCore

/// The Noise page's board of sounds, presets and shared links (listed after `NoiseRoutes` in `Routes.table`):
///
/// - `GET /api/board`: the sounds (each with the layer a tap adds) and the board's state;
/// - `POST /api/board/add` `{"sound": ID, "replaceLayer": 1…4 (optional)}`, `POST /api/board/remove`
///   `{"sound": ID}`, `POST /api/board/play` and `/pause` `{}`;
/// - `POST /api/presets` `{"name": NAME}` (save the mix), `POST /api/presets/:id/rename` `{"name": NAME}`,
///   `DELETE /api/presets/:id`;
/// - `POST /api/share/open` `{"link": LINK}` (what the mix is; nothing plays) and `/api/share/play`.
///
/// Every change answers `{"message": …, "board": STATE}`; a refusal `{"error": …, "field": …}`.
struct BoardRoutes {
    let server: HomeScreenServer

    var board: SoundBoard { SoundBoard(mixer: server.mixer) }

    static let smallBody = JSONLimits(maxDepth: 2, maxValueCount: 8, maxStringBytes: 1024)
    /// A link over a share link's 2,000 characters still reaches ShareLinks, which says so in its words.
    static let linkBody = JSONLimits(maxDepth: 2, maxValueCount: 4, maxStringBytes: 12 << 10)

    @Sendable func state(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let object: [String: Any] = [
            "sounds": try Self.object(board.sounds), "board": try Self.object(board.state()),
        ]
        return Self.json(object)
    }

    @Sendable func add(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let o = try await Self.body(
            request, allowed: ["sound", "replaceLayer"], required: ["sound"],
            shape: #"{"sound": ID, "replaceLayer": 1…4 (optional)}"#)
        guard let sound = o.text("sound") else {
            throw HTTPError(.badRequest, "'sound' must be a string", field: "sound")
        }
        var replacing: Int?
        if o.has("replaceLayer") {
            let limit = SoundBoard.maximumLayers
            guard let n = o.finiteNumber("replaceLayer"), n == n.rounded(), (1...Double(limit)).contains(n) else {
                throw HTTPError(
                    .badRequest, "'replaceLayer' must be a whole number; allowed 1…\(limit)", field: "replaceLayer")
            }
            replacing = Int(n)
        }
        return try change { try board.add(sound, replacing: replacing) }
    }

    @Sendable func remove(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let o = try await Self.body(request, allowed: ["sound"], required: ["sound"], shape: #"{"sound": ID}"#)
        guard let sound = o.text("sound") else {
            throw HTTPError(.badRequest, "'sound' must be a string", field: "sound")
        }
        return try change { try board.remove(sound) }
    }

    @Sendable func play(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        _ = try await Self.body(request, allowed: [], shape: "{}")
        return try change { try board.play() }
    }

    @Sendable func pause(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        _ = try await Self.body(request, allowed: [], shape: "{}")
        return try change { try board.pause() }
    }

    @Sendable func savePreset(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let name = try await Self.name(request)
        return try change { try board.savePreset(name: name) }
    }

    @Sendable func renamePreset(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try Self.presetID(context)
        let name = try await Self.name(request)
        return try change { try board.renamePreset(id, to: name) }
    }

    @Sendable func deletePreset(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try Self.presetID(context)
        return try change { try board.deletePreset(id) }
    }

    @Sendable func openLink(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let link = try await Self.link(request)
        let mix = try Self.mapped { try SharedMixLink.read(link) }
        return Self.json(SharedMixLink.summary(mix, sounds: board.sounds))
    }

    @Sendable func playLink(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let link = try await Self.link(request)
        let mix = try Self.mapped { try SharedMixLink.read(link) }
        return try change { try board.play(mix) }
    }

    // MARK: Helpers

    /// Runs a board change, publishes the new state to every page and answers with it.
    func change(_ body: () throws -> String) throws -> Response {
        let message = try Self.mapped(body)
        server.refresh()
        return Self.json(["message": message, "board": try Self.object(board.state())])
    }

    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as BoardError {
            let status: HTTPResponse.Status
            switch error.status {
            case .badRequest: status = .badRequest
            case .conflict: status = .conflict
            case .notFound: status = .notFound
            case .unprocessable: status = .unprocessableContent
            }
            throw HTTPError(status, error.message, field: error.field)
        }
    }

    static func body(
        _ request: Request, limits: JSONLimits = smallBody, allowed: Set<String>, required: Set<String> = [],
        shape: String
    ) async throws -> JSONReader {
        try await RequestBody.read(request, limits: limits, allowed: allowed, required: required, shape: shape)
    }

    static func name(_ request: Request) async throws -> String {
        let o = try await body(request, allowed: ["name"], required: ["name"], shape: #"{"name": NAME}"#)
        guard let name = o.text("name") else {
            throw HTTPError(
                .badRequest,
                "'name' must be a string of \(SoundBoard.nameRange.lowerBound) to "
                    + "\(SoundBoard.nameRange.upperBound) characters", field: "name")
        }
        return name
    }

    static func link(_ request: Request) async throws -> String {
        let o = try await body(
            request, limits: linkBody, allowed: ["link"], required: ["link"], shape: #"{"link": LINK}"#)
        guard let link = o.text("link") else { throw HTTPError(.badRequest, "'link' must be a string", field: "link") }
        return link
    }

    static func presetID(_ context: BasicRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty else {
            throw HTTPError(.badRequest, "the path needs a preset id")
        }
        return id
    }

    static func object(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: [.fragmentsAllowed])
    }

    static func json(_ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Routes.body(String(decoding: data, as: UTF8.self), type: "application/json")
    }
}
