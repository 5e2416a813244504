import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import SharedStore

/// The home screen (`/`): every design as live widgets, their pictures (`/widgets/ID.svg|png`), their buttons
/// (`POST /api/designs/ID/tap`) and the list of designs they are drawn from.
struct HomeRoutes {
    let server: HomeScreenServer

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let tiles = try server.board.tiles(now: Date())
        let html = Page.home(tiles: tiles, mixer: server.mixer.state(), token: server.token)
        return Routes.body(html, type: "text/html; charset=utf-8")
    }

    @Sendable func designs(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        Routes.bytes(try server.board.designsJSON(), type: "application/json")
    }

    @Sendable func picture(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let file = context.parameters.get("file") else { throw HTTPError(.notFound, "no such widget") }
        let id: String, format: PictureFormat
        do { (id, format) = try Routes.widgetFile(file) } catch { throw HTTPError(.notFound, "\(error)") }
        let query = request.uri.queryParameters
        let family = query.get("family") ?? "small"
        guard let scale = Int(query.get("scale") ?? "2"), (1...3).contains(scale) else {
            throw HTTPError(.badRequest, "'scale' must be 1, 2 or 3")
        }
        do {
            let picture = try server.board.picture(
                designID: id, family: family, scale: scale, format: format, now: Date())
            var response = Routes.bytes(picture, type: format.contentType)
            response.headers[.cacheControl] = "no-cache"
            return response
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        }
    }

    @Sendable func tap(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), Routes.isPlainID(id) else {
            throw HTTPError(.notFound, "no such design")
        }
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        let limits = JSONLimits(maxDepth: 4, maxValueCount: 64, maxStringBytes: 4096)
        guard
            let object = RequestBody.object(
                body, limits: limits, allowed: ["family", "x", "y"], required: ["family", "x", "y"]),
            let family = object.text("family"), let x = object.finiteNumber("x"), let y = object.finiteNumber("y")
        else {
            throw HTTPError(.badRequest, "the body must be {\"family\": NAME, \"x\": POINTS, \"y\": POINTS}")
        }
        do {
            let result = try server.board.tapResult(designID: id, family: family, x: x, y: y, now: Date())
            server.refresh()
            var answer: [String: JSONValue] = ["message": .string(result.message)]
            if let link = result.open { answer["open"] = .string(link) }
            if let undo = result.undo {
                answer["undo"] = .string("/api/undo/" + server.undoOffers.offer(undo))
                answer["undoSeconds"] = .number(UndoOffers.shownSeconds)
            }
            return DesignAPIRoutes.json(.object(answer))
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        } catch let e as NothingToTap {
            throw HTTPError(.unprocessableContent, e.description)
        } catch {
            throw HTTPError(.unprocessableContent, "\(error)")
        }
    }

    /// The notice's Undo: takes the press back only while the file still holds exactly what the press
    /// wrote (`WidgetActionPerformer.undo`, as the desktop widget's Undo); otherwise 409 with why,
    /// nothing written. An offer is used once and expires (404).
    @Sendable func undo(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let token = context.parameters.get("token"), let undo = server.undoOffers.take(token) else {
            throw HTTPError(
                .notFound, "Not undone: this Undo is no longer offered (each is used once, within seconds)")
        }
        do {
            let message = try undo()
            server.refresh()
            return DesignAPIRoutes.json(.object(["message": .string(message)]))
        } catch {
            throw HTTPError(.conflict, "Not undone: \(error)")
        }
    }
}
