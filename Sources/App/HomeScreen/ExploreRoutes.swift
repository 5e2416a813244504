import Foundation
import Hummingbird
import NIOCore
import WidgetDesign

/// Explore (`/explore`): the catalogue of `weaver templates`, each starter drawn by the renderer
/// at small, medium and large, its named remixes drawn beside it (the ones `weaver templates add
/// ID --remix R` adds) and its seeded remixes (`ExploreRemixes`: `weaver remix` with a seed fixed
/// per template), "Add to Library" (`POST /api/library/add`, the same call), and the data set-up
/// entry points with their state. Pictures are kept once drawn (`ExplorePictureCache`).
struct ExploreRoutes: AppRoutes {
    let server: HomeScreenServer

    /// Templates shown first, as the app's "featured" row: the ones that show live data.
    static let featured = ["weather", "next-up", "steps", "noise-machine"]

    func register(on router: Router<BasicRequestContext>) {
        router.get("/explore") { _, _ in
            guard server.workshop != nil else { return Routes.error(.notFound, "this server has no design library") }
            let setup = server.storeRoot.map { DataStatus.read($0, now: Date()) } ?? []
            let cap = server.library.flatMap { try? LibraryRoutes.capText($0) } ?? ""
            return Routes.body(Self.page(setup: setup, cap: cap, token: server.token), type: "text/html; charset=utf-8")
        }
        // `/api/explore/TEMPLATE.svg?family=F&remix=R`: the starter (or its remix) drawn as a draft.
        router.get("/api/explore/:file") { request, context in
            guard let workshop = server.workshop else {
                return Routes.error(.notFound, "this server has no design library")
            }
            guard let file = context.parameters.get("file"), file.hasSuffix(".svg"),
                let template = TemplateCatalogue.all.first(where: { $0.id == String(file.dropLast(4)) })
            else {
                return Routes.error(.notFound, "no such template; choose one of: \(TemplateCatalogue.ids)")
            }
            let query = request.uri.queryParameters
            let remix = query.get("remix")
            if let remix, template.remix(named: remix) == nil {
                return Routes.error(.notFound, "template '\(template.id)' has no remix '\(remix)'")
            }
            var seeded: (seed: UInt64, number: Int)?
            if query.get("seed") != nil || query.get("variant") != nil {
                guard remix == nil, let seed = ExploreRemixes.parseSeed(query.get("seed")),
                    let number = query.get("variant").flatMap({ Int($0) }), (1...Remixer.maxCount).contains(number)
                else {
                    return Routes.error(
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
                return Routes.error(.notFound, e.description)
            }
        }
    }

    /// The seeded remixes: `weaver remix` of the starter with the template's seed, drawn; "Add"
    /// saves one as a new design (`weaver remix … --save K`).
    static func seededRow(_ t: CatalogueTemplate) -> String {
        let e = Page.escape
        let id = e(t.id)
        let seed = ExploreRemixes.seed(for: t)
        var html =
            "<h4 class=\"remix-title\">Seeded remixes <span class=\"muted\">(weaver remix --seed \(seed))</span></h4>"
        html += "<ul class=\"remix-row seeded\" data-seed=\"\(seed)\">"
        for k in 1...ExploreRemixes.count {
            html +=
                """
                <li class=\"remix\" data-variant=\"\(k)\"><img \
                src=\"/api/explore/\(id).svg?family=small&amp;seed=\(seed)&amp;variant=\(k)\" alt=\"\(e(t.name)), \
                remix \(k) of seed \(seed)\" loading=\"lazy\">
                """
            html += "<span>Remix \(k)</span>"
            html +=
                """
                <button type=\"button\" class=\"btn\" data-add-template=\"\(id)\" data-add-seed=\"\(seed)\" \
                data-add-variant=\"\(k)\">Add</button></li>
                """
        }
        return html + "</ul>\n"
    }

    static func page(setup: [DataStatus], cap: String, token: String) -> String {
        let e = Page.escape
        var html = "<div class=\"page-head\"><div><h1 class=\"page-title\">Explore</h1>\n"
        html +=
            """
            <p class=\"page-lede\">Templates and remixes, drawn by the widget renderer. Add one to your Library, \
            then edit it.\u{20}
            """
        html += "<span id=\"library-cap\">\(e(cap))</span></p></div></div>\n"
        html += "<p id=\"notice\" class=\"notice\" role=\"status\" hidden><span id=\"notice-text\"></span></p>\n"
        html +=
            """
            <section aria-labelledby=\"setup-title\"><h2 id=\"setup-title\">Set up your data</h2>\n<ul \
            class=\"setup-grid\">\n
            """
        for s in setup {
            html += "<li class=\"card setup-card\" data-source=\"\(e(s.id))\"><h3>\(e(s.title))</h3>"
            html += "<p class=\"setup-state \(s.state.rawValue)\">\(e(s.summary))</p>"
            if let detail = s.detail { html += "<p class=\"muted\">\(e(detail))</p>" }
            html += "<a class=\"btn\" href=\"\(e(s.link))\">\(s.state == .unconfigured ? "Set up" : "Open")</a></li>\n"
        }
        html += "</ul></section>\n"
        let ordered =
            featured.compactMap { id in TemplateCatalogue.all.first { $0.id == id } }
            + TemplateCatalogue.all.filter { !featured.contains($0.id) }
        html += "<section aria-labelledby=\"featured-title\"><h2 id=\"featured-title\">Featured and templates</h2>\n"
        for t in ordered {
            let id = e(t.id)
            html += "<article class=\"card template-card\" data-template=\"\(id)\">\n"
            html +=
                """
                <div \
                class=\"template-head\"><div><h3>\(e(t.name))\
                \(featured.contains(t.id) ? " <span class=\"pill\">Featured</span>" : "")</h3>
                """
            html += "<p class=\"muted\">\(e(t.summary))</p></div>"
            html +=
                """
                <button type=\"button\" class=\"btn primary\" data-add-template=\"\(id)\">Add to \
                Library</button></div>\n
                """
            html += "<div class=\"template-sizes\">"
            for family in ["small", "medium", "large"] {
                html +=
                    """
                    <img src=\"/api/explore/\(id).svg?family=\(family)\" class=\"explore-\(family)\" \
                    alt=\"\(e(t.name)), \(family)\" loading=\"lazy\">
                    """
            }
            html += "</div>\n"
            if !t.remixes.isEmpty {
                html += "<h4 class=\"remix-title\">Remixes</h4><ul class=\"remix-row\">"
                for r in t.remixes {
                    html +=
                        """
                        <li class=\"remix\" data-remix=\"\(e(r.id))\"><img \
                        src=\"/api/explore/\(id).svg?family=small&amp;remix=\(e(r.id))\" alt=\"\(e(t.name)) – \
                        \(e(r.name))\" loading=\"lazy\">
                        """
                    html += "<span>\(e(r.name))</span>"
                    html +=
                        """
                        <button type=\"button\" class=\"btn\" data-add-template=\"\(id)\" \
                        data-add-remix=\"\(e(r.id))\">Add</button></li>
                        """
                }
                html += "</ul>\n"
            }
            html += seededRow(t)
            html += "</article>\n"
        }
        html += "</section>\n"
        return AppShell.page(
            title: "Explore", active: .explore, token: token, body: html,
            stylesheets: ["/static/pages.css"], scripts: ["/static/library.js"])
    }
}
