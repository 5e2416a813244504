import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import SharedStore
import WidgetDesign
import WidgetRender

/// The Editor's pages and assets: `/editor` (choose or start a design), `/editor/{id}`, its
/// script and sheet, the colour swatches and the symbol font. The API is `DesignAPIRoutes`.
struct EditorRoutes {
    let server: HomeScreenServer

    /// The symbol font is read from its fixed system path, never from anything in a request.
    static let symbolFont: [UInt8]? = FileManager.default.contents(atPath: SymbolMap.fontFile).map { Array($0) }

    @Sendable func chooserPage(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        let html = EditorPage.chooser(
            designs: try workshop.listings(), starters: TemplateCatalogue.all, token: server.token)
        return Routes.body(html, type: "text/html; charset=utf-8")
    }

    @Sendable func editorPage(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        guard let id = context.parameters.get("id"), Routes.isPlainID(id), UUID(uuidString: id) != nil else {
            throw HTTPError(.notFound, "no such design (a design ID is a UUID)")
        }
        do {
            let spec = try workshop.design(id: id.uppercased())
            let html = EditorPage.editor(id: spec.id.uuidString, name: spec.name, token: server.token)
            return Routes.body(html, type: "text/html; charset=utf-8")
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        }
    }

    @Sendable func font(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard let font = Self.symbolFont else {
            throw HTTPError(.notFound, "the symbol font is not installed (\(SymbolMap.fontFile))")
        }
        var response = Routes.bytes(font, type: "font/ttf")
        response.headers[.cacheControl] = "max-age=86400"
        return response
    }

    @Sendable func swatches(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let accent = request.uri.queryParameters.get("accent").flatMap { AccentToken.parse($0) } ?? .blue
        // In the palette the dock draws with: the page asks for the appearance it shows.
        var appearance = server.workshop?.widgetAppearance ?? .dark
        if let name = request.uri.queryParameters.get("appearance") {
            guard let chosen = Appearance(rawValue: name) else {
                throw HTTPError(.badRequest, "'appearance' must be light or dark")
            }
            appearance = chosen
        }
        let table = TokenSwatches.css(appearance: appearance, accent: accent)
        let object = JSONValue.object(table.mapValues { JSONValue.object($0.mapValues { JSONValue.string($0) }) })
        return DesignAPIRoutes.json(object)
    }
}
