import BoundedJSON
import CivilDates
import Foundation
import Hummingbird
import NIOCore
import SharedStore
import WidgetDesign

/// The Library (`/library`) and its API. Every action calls the `DesignLibrary` function the
/// `weaver designs` verb calls (list --search, default, duplicate, set name=, delete, restore,
/// templates add), so the free-tier cap, the trash and the default behave as on the command line.
/// Writes pass `AccessMiddleware` (Host, Origin, token) first; bodies are capped and parsed with
/// limits; IDs in paths must be UUIDs.
struct LibraryRoutes {
    let server: HomeScreenServer

    static let smallBody = JSONLimits(maxDepth: 2, maxValueCount: 8, maxStringBytes: 2048)

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        let html = LibraryPage.page(
            rows: try LibraryRoutes.rows(library), cap: try LibraryRoutes.capText(library), token: server.token,
            setAside: library.setAsideFiles())
        return Routes.body(html, type: "text/html; charset=utf-8")
    }

    @Sendable func list(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        let search = request.uri.queryParameters.get("search")
        return DesignAPIRoutes.json(try LibraryRoutes.listing(library, search: search))
    }

    @Sendable func add(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        let (o, templateID) = try await RequestBody.read(
            request, limits: Self.smallBody, allowed: ["template", "remix", "seed", "variant", "default"],
            shape: """
                {"template": ID, "remix": ID or "seed": "S" and "variant": K (optional), "default": BOOL \
                (optional)}
                """,
            member: { $0.text("template") })
        // `weaver templates add ID [--remix R] [--default]`.
        guard let template = TemplateCatalogue.find(templateID) else {
            throw HTTPError(
                .unprocessableContent, "unknown template '\(templateID)'; choose one of: \(TemplateCatalogue.ids)",
                field: "template")
        }
        var remix: String?
        if o.has("remix") {
            guard let s = o.text("remix"), template.remix(named: s) != nil else {
                throw HTTPError(
                    .unprocessableContent,
                    "'remix' must be one of: \(template.remixes.map(\.id).joined(separator: ", "))", field: "remix")
            }
            remix = s
        }
        // A seeded remix: `weaver remix STARTER --seed S --save K`, the starter not saved.
        var seeded: (seed: UInt64, number: Int)?
        if o.has("seed") || o.has("variant") {
            guard remix == nil, let text = o.text("seed"), let seed = ExploreRemixes.parseSeed(text),
                let k = o.finiteNumber("variant"), let number = Int(exactly: k),
                (1...Remixer.maxCount).contains(number)
            else {
                throw HTTPError(
                    .unprocessableContent,
                    """
                    a seeded remix needs \"seed\": \"0…18446744073709551615\" (a string) and \"variant\": \
                    1…\(Remixer.maxCount), without \"remix\"
                    """, field: "seed")
            }
            seeded = (seed, number)
        }
        return try Self.refusing {
            let spec: WidgetSpec
            if let seeded {
                let made = try ExploreRemixes.variant(
                    of: template, seed: seeded.seed, number: seeded.number, now: Date())
                spec = Remixer.saved(made.variant, number: seeded.number, of: made.original, now: Date())
            } else {
                spec = try template.design(remix: remix, now: Date())
            }
            try library.add([spec])
            if o.flag("default") == true { try library.setDefault(spec.id) }
            server.refresh()
            return Self.created(spec, message: "Added \(spec.name) to the Library.")
        }
    }

    @Sendable func makeDefault(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withID(context) { library, id in
            try library.setDefault(id)
            server.refresh()
            let name = try library.load(id).name
            return Self.message("Default design: \(name).")
        }
    }

    @Sendable func duplicate(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withID(context) { library, id in
            let copy = try library.duplicate(id, now: Date())
            server.refresh()
            return Self.created(copy, message: "Created \(copy.name).")
        }
    }

    @Sendable func rename(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        return try withID(context) { library, id in
            guard let o = RequestBody.object(body, limits: Self.smallBody, allowed: ["name"], required: ["name"]),
                let name = o.text("name")
            else {
                throw HTTPError(.badRequest, "the body must be {\"name\": TEXT}")
            }
            // `weaver designs set ID name=TEXT`: checked on a copy first, then written under the lock.
            var probe = try library.load(id)
            do { try DesignEditor.apply(["name=" + name], to: &probe) } catch let e as DesignError {
                throw HTTPError(.unprocessableContent, e.message, field: "name")
            }
            let saved = try library.update(id, now: Date()) { try DesignEditor.apply(["name=" + name], to: &$0) }
            server.refresh()
            return Self.message("Renamed to \(saved.name).")
        }
    }

    @Sendable func delete(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withID(context) { library, id in
            let name = try library.load(id).name
            let wasDefault = try library.delete(id)
            server.refresh()
            return DesignAPIRoutes.json(
                .object([
                    "message": .string(
                        "Moved \(name) to the trash."
                            + (wasDefault ? " It was the default design; no default is set now." : "")),
                    // Undo puts the default back too (issue 41.9: after an undo no design was the default).
                    "undo": .string("/api/library/\(id.uuidString)/restore" + (wasDefault ? "?default=1" : "")),
                    "wasDefault": .bool(wasDefault),
                ]))
        }
    }

    @Sendable func restore(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw) else {
            throw HTTPError(.notFound, "no such design (a design ID is a UUID)")
        }
        return try Self.refusing {
            let spec = try library.restore(id.uuidString)
            // `?default=1`: the undo of deleting the default design, which makes it the default again unless
            // another design became the default meanwhile.
            let wasDefault = request.uri.queryParameters.get("default") == "1"
            if wasDefault, try library.defaultID() == nil { try library.setDefault(spec.id) }
            server.refresh()
            return Self.message("Restored \(spec.name)." + (wasDefault ? " It is the default design again." : ""))
        }
    }

    /// Runs `body` for a design ID in the path that is in the library.
    func withID(_ context: BasicRequestContext, _ body: (DesignLibrary, UUID) throws -> Response) throws -> Response {
        let library = try server.requireLibrary()
        guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw) else {
            throw HTTPError(.notFound, "no such design (a design ID is a UUID)")
        }
        guard try library.summaries().contains(where: { $0.id == id }) else {
            throw HTTPError(.notFound, "no design with ID \(id.uuidString)")
        }
        return try Self.refusing { try body(library, id) }
    }

    /// A library refusal (the free-tier cap, a trash conflict) as 422 with the CLI's message.
    static func refusing(_ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let e as DesignError {
            throw HTTPError(.unprocessableContent, e.message)
        }
    }

    static func message(_ text: String) -> Response {
        DesignAPIRoutes.json(.object(["message": .string(text)]))
    }

    /// 201 for a design the Library gained (from a template, or a copy): its id, name and `message`.
    static func created(_ spec: WidgetSpec, message: String) -> Response {
        DesignAPIRoutes.json(
            .object([
                "id": .string(spec.id.uuidString), "name": .string(spec.name), "message": .string(message),
            ]), status: .created)
    }

    /// A library row as the page and API show it.
    struct Row {
        var summary: DesignSummary
        var isDefault: Bool
    }

    /// Default first, then newest first (the home screen's order); `search` as `designs list --search`.
    static func rows(_ library: DesignLibrary, search: String? = nil) throws -> [Row] {
        let defaultID = try library.defaultID()
        var rows = try search.map { try library.search($0) } ?? library.summaries()
        if let d = defaultID, let i = rows.firstIndex(where: { $0.id == d }) { rows.insert(rows.remove(at: i), at: 0) }
        return rows.map { Row(summary: $0, isDefault: $0.id == defaultID) }
    }

    /// "3 of 3 designs; Pro: unlimited" on the free tier; "N designs (Pro: unlimited)" with Pro.
    static func capText(_ library: DesignLibrary) throws -> String {
        let count = try library.summaries().count
        if library.freeSlotsLeft(currentCount: count) == nil {
            return "\(count) design\(count == 1 ? "" : "s") (Pro: unlimited)"
        }
        return "\(count) of \(DesignLibrary.maxFreeDesigns) designs; Pro: unlimited"
    }

    static func listing(_ library: DesignLibrary, search: String?) throws -> JSONValue {
        let count = try library.summaries().count
        let left = library.freeSlotsLeft(currentCount: count)
        return .object([
            "designs": .array(
                try rows(library, search: search).map { r in
                    .object([
                        "id": .string(r.summary.id.uuidString), "name": .string(r.summary.name),
                        "template": .string(r.summary.template.rawValue),
                        "updatedAt": .string(ISODate.format(r.summary.updatedAt)),
                        "hasImage": .bool(r.summary.hasImage), "isDefault": .bool(r.isDefault),
                        "repairs": .array(r.summary.repairs.map { .string($0) }),
                    ])
                }),
            "count": .number(Double(count)),
            "freeSlots": left.map { .number(Double($0)) } ?? .null,
            "cap": .string(try capText(library)),
        ])
    }
}

extension HomeScreenServer {
    /// The store's design library, as `weaver designs` opens it; nil when the board has no store.
    var library: DesignLibrary? { (board as? RenderedBoard).map { DesignLibrary(root: $0.root) } }
    /// The store the board draws from.
    var storeRoot: StoreRoot? { (board as? RenderedBoard)?.root }
}
