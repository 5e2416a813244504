import Foundation
import Hummingbird
import NIOCore
import WidgetDesign

/// Explore (`/explore`): the catalogue of `weaver templates`, each starter drawn by the renderer
/// at small, medium and large, its named remixes drawn beside it (the ones `weaver templates add
/// ID --remix R` adds) and its seeded remixes (`ExploreRemixes`: `weaver remix` with a seed fixed
/// per template), "Add to Library" (`POST /api/library/add`, the same call), and the data set-up
/// entry points with their state. Pictures are kept once drawn (`ExplorePictureCache`).
struct ExploreRoutes {
    let server: HomeScreenServer

    /// Templates shown first, as the app's "featured" row: the ones that show live data.
    static let featured = ["weather", "next-up", "steps", "noise-machine"]

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        _ = try server.requireWorkshop()
        let setup = server.storeRoot.map { DataStatus.read($0, now: Date()) } ?? []
        let cap = server.library.flatMap { try? LibraryRoutes.capText($0) } ?? ""
        return Routes.body(Self.page(setup: setup, cap: cap, token: server.token), type: "text/html; charset=utf-8")
    }

    @Sendable func picture(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        guard let file = context.parameters.get("file"), file.hasSuffix(".svg"),
            let template = TemplateCatalogue.all.first(where: { $0.id == String(file.dropLast(4)) })
        else {
            throw HTTPError(.notFound, "no such template; choose one of: \(TemplateCatalogue.ids)")
        }
        let query = request.uri.queryParameters
        let remix = query.get("remix")
        if let remix, template.remix(named: remix) == nil {
            throw HTTPError(.notFound, "template '\(template.id)' has no remix '\(remix)'")
        }
        var seeded: (seed: UInt64, number: Int)?
        if query.get("seed") != nil || query.get("variant") != nil {
            guard remix == nil, let seed = ExploreRemixes.parseSeed(query.get("seed")),
                let number = query.get("variant").flatMap({ Int($0) }), (1...Remixer.maxCount).contains(number)
            else {
                throw HTTPError(
                    .badRequest,
                    "a seeded remix needs seed=0…2^64-1 and variant=1…\(Remixer.maxCount), without remix=")
            }
            seeded = (seed, number)
        }
        let family = query.get("family") ?? "small"
        let key = ExplorePictureCache.Key(
            template: template.id, family: family,
            variant: seeded.map { "seed:\($0.seed):\($0.number)" } ?? remix.map { "remix:\($0)" } ?? "")
        let etag = server.explorePictures.etag(key)
        if request.headers[.ifNoneMatch] == etag {
            var response = Response(status: .notModified)
            response.headers[.eTag] = etag
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        do {
            let picture = try server.explorePictures.picture(key) {
                let spec =
                    try seeded.map {
                        try ExploreRemixes.variant(of: template, seed: $0.seed, number: $0.number, now: Date())
                            .variant
                    } ?? template.design(remix: remix, now: Date())
                return try workshop.renderDraft(
                    spec, family: family, format: .svg, scale: 2, trial: [:], sample: false, now: Date()
                ).bytes
            }
            var response = Routes.bytes(picture.bytes, type: DraftFormat.svg.contentType)
            // Revalidated at each use: the ETag changes when the pictures' inputs do.
            response.headers[.cacheControl] = "no-cache"
            response.headers[.eTag] = etag
            response.headers[.init("X-WidgetWeaver-Cache")!] = picture.wasCached ? "hit" : "miss"
            return response
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        }
    }

    static let templates = HTMLTemplates(PackageResources.explore_html, file: "Explore/explore.html")

    /// The seeded remixes: `weaver remix` of the starter with the template's seed, drawn; "Add"
    /// saves one as a new design (`weaver remix … --save K`).
    static func seededRow(_ t: CatalogueTemplate) -> HTML {
        let seed = "\(ExploreRemixes.seed(for: t))"
        let items = (1...ExploreRemixes.count).map { k in
            templates.render("variant", ["k": k, "id": t.id, "seed": seed, "name": t.name])
        }
        return templates.render("seeded", ["seed": seed, "items": items])
    }

    static func page(setup: [DataStatus], cap: String, token: String) -> String {
        let x = templates
        let cards = setup.map { s in
            x.render(
                "setup",
                [
                    "id": s.id, "title": s.title, "state": s.state.rawValue, "summary": s.summary,
                    "detail": s.detail.map { x.render("detail", ["detail": $0]) } ?? .empty, "link": s.link,
                    "action": s.state == .unconfigured ? "Set up" : "Open",
                ])
        }
        let ordered =
            featured.compactMap { id in TemplateCatalogue.all.first { $0.id == id } }
            + TemplateCatalogue.all.filter { !featured.contains($0.id) }
        let articles = ordered.map { t in
            let remixes = t.remixes.map { r in
                x.render("remix", ["remix": r.id, "id": t.id, "name": t.name, "remixName": r.name])
            }
            return x.render(
                "template",
                [
                    "id": t.id, "name": t.name, "summary": t.summary,
                    "featured": featured.contains(t.id) ? x.render("featured") : .empty,
                    "sizes": ["small", "medium", "large"].map {
                        x.render("size", ["id": t.id, "family": $0, "name": t.name])
                    },
                    "remixes": remixes.isEmpty ? .empty : x.render("remixes", ["items": remixes]),
                    "seeded": seededRow(t),
                ])
        }
        let html = x.render("explore", ["cap": cap, "setup": cards, "templates": articles])
        return AppShell.page(
            title: "Explore", active: .explore, token: token, body: html.description,
            stylesheets: ["/static/pages.css"], scripts: ["/static/library.js"])
    }
}
