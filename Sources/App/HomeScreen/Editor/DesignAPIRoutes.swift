import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import SharedStore
import WidgetDesign
import WidgetRender

/// The Editor's API (docs/editor.md lists it). Every write passes `AccessMiddleware` (Host,
/// Origin and token) first; bodies are capped before they are read and parsed with limits; IDs
/// in paths must be library UUIDs, so no request names a file.
struct DesignAPIRoutes {
    let server: HomeScreenServer

    /// A design file is a few KiB; 2,000-character texts in every field stay far below this.
    static let maximumDesignBytes = 256 << 10
    static let designLimits = JSONLimits(maxDepth: 12, maxValueCount: 4096, maxStringBytes: 16 << 10)

    @Sendable func design(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withDesign(context) { workshop, id in
            Self.json(try workshop.design(id: id).jsonValue)
        }
    }

    @Sendable func saveDesign(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maximumDesignBytes)
        return try withDesign(context) { workshop, id in
            _ = try workshop.design(id: id)
            let spec: WidgetSpec
            switch Self.strictDesign(Data(buffer: body)) {
            case .failure(let refusal): return refusal.response
            case .success(let s): spec = s
            }
            let saved = try workshop.save(id: id, spec, now: Date())
            server.drafts.discard(id)
            server.refresh()
            return Self.json(.object(["design": saved.jsonValue, "unsaved": .bool(false)]))
        }
    }

    @Sendable func createDesign(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        let limits = JSONLimits(maxDepth: 2, maxValueCount: 8, maxStringBytes: 1024)
        guard let o = RequestBody.object(body, limits: limits, allowed: ["template", "name"]),
            let template = o.text("template")
        else {
            throw HTTPError(
                .badRequest,
                """
                the body must be {\"template\": ID, \"name\": TEXT (optional)}; templates: \
                \(TemplateCatalogue.ids)
                """
            )
        }
        var name: String?
        if let n = try? o.member("name") {
            guard let s = try? n.string(maxBytes: .max) else {
                throw HTTPError(.unprocessableContent, "the name must be text", field: "name")
            }
            name = s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : s
        }
        do {
            let spec = try workshop.create(starter: template, name: name, now: Date())
            server.refresh()
            return Self.json(
                .object([
                    "id": .string(spec.id.uuidString), "editor": .string("/editor/\(spec.id.uuidString)"),
                    "design": spec.jsonValue,
                ]), status: .created)
        } catch let e as DesignError {
            throw HTTPError(.unprocessableContent, e.message, field: e.message.hasPrefix("name:") ? "name" : "template")
        }
    }

    @Sendable func draft(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withDesign(context) { workshop, id in
            let draft = server.drafts.draft(id)
            return draftAnswer(try draft ?? workshop.design(id: id), unsaved: draft != nil, notices: [])
        }
    }

    @Sendable func replaceDraft(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maximumDesignBytes)
        return try withDesign(context) { workshop, id in
            let saved = try workshop.design(id: id)
            switch Self.strictDesign(Data(buffer: body)) {
            case .failure(let refusal): return refusal.response
            case .success(var spec):
                spec.id = saved.id
                server.drafts.set(id, spec)
                return draftAnswer(spec, unsaved: true, notices: [])
            }
        }
    }

    @Sendable func discardDraft(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withDesign(context) { workshop, id in
            server.drafts.discard(id)
            return draftAnswer(try workshop.design(id: id), unsaved: false, notices: [])
        }
    }

    @Sendable func editDraft(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        return try withDesign(context) { workshop, id in
            guard let edits = Self.edits(Data(buffer: body)), let field = edits.first?.field else {
                throw HTTPError(
                    .badRequest,
                    """
                    the body must be {\"field\": KEY, \"value\": TEXT} or {\"edits\": [{\"field\": KEY, \
                    \"value\": TEXT}, …]} (at most \(Self.maximumEditsAtOnce))
                    """
                )
            }
            var spec = try server.drafts.draft(id) ?? workshop.design(id: id)
            do {
                // Together or not at all (a crop rectangle moved is its x and y at once).
                try DesignEditor.apply(edits, to: &spec)
            } catch let e as DesignError {
                throw HTTPError(.unprocessableContent, e.message, field: field)
            }
            server.drafts.set(id, spec)
            return draftAnswer(
                spec, unsaved: true, notices: EditorNotices.after(field: field, in: spec, isPro: workshop.isPro))
        }
    }

    @Sendable func tryDraft(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        return try withDesign(context) { workshop, id in
            let limits = JSONLimits(
                maxDepth: 3, maxValueCount: 4 + 2 * Self.maximumTrialVariables, maxStringBytes: 1024)
            guard let o = RequestBody.object(body, limits: limits, allowed: ["family", "x", "y", "trial"]),
                let family = o.text("family"), let x = o.finiteNumber("x"), let y = o.finiteNumber("y"),
                let trial = o.has("trial") ? Self.trialObject(try? o.member("trial")) : [:]
            else {
                throw HTTPError(
                    .badRequest,
                    "the body must be {\"family\": NAME, \"x\": POINTS, \"y\": POINTS, \"trial\": {KEY: TEXT}}")
            }
            let spec = try server.drafts.draft(id) ?? workshop.design(id: id)
            do {
                let press = try workshop.tryButton(spec, family: family, x: x, y: y, trial: trial, now: Date())
                var answer: [String: JSONValue] = ["message": .string(press.message)]
                if let key = press.key, let value = press.value {
                    answer["key"] = .string(key)
                    answer["value"] = .string(value)
                }
                return Self.json(.object(answer))
            } catch let e as NothingToTap {
                throw HTTPError(.unprocessableContent, e.description)
            }
        }
    }

    @Sendable func renderDraft(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maximumDesignBytes)
        return try withDesign(context) { workshop, id in
            let query = request.uri.queryParameters
            let familyName = query.get("family") ?? "small"
            guard let format = DraftFormat(rawValue: query.get("format") ?? "png") else {
                throw HTTPError(.badRequest, "'format' must be png, svg or json")
            }
            // The page asks for its screen's pixel density (a 1× screen needs a quarter of the pixels).
            guard let scale = Int(query.get("scale") ?? "2"), (1...3).contains(scale) else {
                throw HTTPError(.badRequest, "'scale' must be 1, 2 or 3")
            }
            // The held draft, else the saved design (read once: this runs six times per edit).
            let held = server.drafts.draft(id)
            var spec = try held ?? workshop.design(id: id)
            if body.readableBytes > 0 {
                switch Self.strictDesign(Data(buffer: body)) {
                case .failure(let refusal): return refusal.response
                case .success(let s): spec = s
                }
            }
            spec.id = UUID(uuidString: id) ?? spec.id
            guard let trial = Self.trialVariables(request.headers[.init("X-WidgetWeaver-Try")!]) else {
                throw HTTPError(
                    .badRequest,
                    """
                    X-WidgetWeaver-Try must be a percent-encoded JSON object of at most \
                    \(Self.maximumTrialVariables) text values
                    """
                )
            }
            guard let data = query.get("data").map({ $0 == "sample" ? true : $0 == "live" ? false : nil }) ?? false
            else {
                throw HTTPError(.badRequest, "'data' must be live or sample")
            }
            var appearance: Appearance?
            if let name = query.get("appearance") {
                guard let chosen = Appearance(rawValue: name) else {
                    throw HTTPError(.badRequest, "'appearance' must be light or dark")
                }
                appearance = chosen
            }
            // The page names each redraw of its dock (`draw`): its pictures share one read of the store.
            let redraw = try query.get("draw").map { token in
                guard (1...32).contains(token.utf8.count), token.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw HTTPError(.badRequest, "'draw' must be a number of 1 to 32 digits")
                }
                return "\(id)#\(token)"
            }
            let drawn = try workshop.renderDraft(
                spec, family: familyName, format: format, scale: scale, trial: trial, sample: data,
                appearance: appearance, redraw: redraw, now: Date())
            var response = Routes.bytes(drawn.bytes, type: format.contentType)
            // The renderer's warnings ride along, so one request gives the page the picture and
            // what to say beside it. Percent-encoded JSON: header values must be plain ASCII.
            let warnings = String(
                decoding: JSONValue.array(drawn.warnings.map { .string($0) }).prettyPrinted(), as: UTF8.self)
            response.headers[.init("X-WidgetWeaver-Warnings")!] =
                warnings.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "%5B%5D"
            // The buttons, in points, so the page can put a real button over each to try it.
            let buttons = JSONValue.array(
                drawn.buttons.map { b in
                    .object([
                        "label": .string(b.label), "x": .number(b.x), "y": .number(b.y), "width": .number(b.width),
                        "height": .number(b.height),
                    ])
                })
            response.headers[.init("X-WidgetWeaver-Buttons")!] =
                String(decoding: buttons.prettyPrinted(), as: UTF8.self)
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "%5B%5D"
            return response
        }
    }

    @Sendable func addImage(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        // Capped before reading; the pixel count is checked from the header before decoding.
        let body = try await request.body.collect(upTo: DesignImages.maximumFileBytes)
        do {
            let image = try workshop.importImage(Data(buffer: body))
            var answer: [String: JSONValue] = [
                "fileName": .string(image.fileName), "width": .number(Double(image.pixelWidth)),
                "height": .number(Double(image.pixelHeight)),
            ]
            if let w = image.scaledFromWidth, let h = image.scaledFromHeight {
                answer["scaledFrom"] = .object(["width": .number(Double(w)), "height": .number(Double(h))])
            }
            if let damage = image.damage { answer["damage"] = .string(damage) }
            return Self.json(.object(answer), status: .created)
        } catch let e as DesignImages.Failure {
            throw HTTPError(.unprocessableContent, e.description, field: "image")
        } catch let e as DesignError {
            throw HTTPError(.unprocessableContent, e.message, field: "image")
        }
    }

    @Sendable func imageTheme(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withPicture(context) { workshop, name in
            let theme = try workshop.photoTheme(fileName: name)
            return Self.json(
                .object([
                    "palette": .array(theme.palette.map { .string($0) }),
                    "accent": .string(theme.accent.rawValue), "background": .string(theme.background.rawValue),
                ]))
        }
    }

    @Sendable func image(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try withPicture(context) { workshop, name in
            let file = try workshop.imageFile(fileName: name)
            var response = Routes.bytes(file.bytes, type: file.contentType)
            response.headers[.init("X-Content-Type-Options")!] = "nosniff"
            return response
        }
    }

    /// A route on one stored picture (`/api/images/:name…`): `body` gets the workshop and the file
    /// name; a picture that is not there is 404, one that cannot be read 422 on the image field.
    private func withPicture(
        _ context: BasicRequestContext, _ body: (any DesignWorkshop, String) throws -> Response
    ) throws -> Response {
        let workshop = try server.requireWorkshop()
        guard let name = context.parameters.get("name") else { throw HTTPError(.notFound, "no such picture") }
        do {
            return try body(workshop, name)
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        } catch let e as DesignError {
            throw HTTPError(.unprocessableContent, e.message, field: "image")
        }
    }

    @Sendable func variables(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        let now = Date()
        var list = workshop.variables(now: now).map {
            JSONValue.object(["key": .string($0.key), "value": .string($0.value)])
        }
        // Keys without data are listed too, saying what they wait for (a design can use them first).
        list += workshop.keysNotSetUp(now: now).map {
            JSONValue.object(["key": .string($0.key), "value": .string(""), "notSetUp": .string($0.reason)])
        }
        return Self.json(.object(["variables": .array(list), "pro": .bool(workshop.isPro)]))
    }

    @Sendable func unlockPro(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        do {
            try workshop.unlockPro(now: Date())
        } catch {
            throw HTTPError(.internalServerError, "could not unlock Pro: \(error)")
        }
        server.refresh()
        return Self.json(.object(["pro": .bool(workshop.isPro)]))
    }

    @Sendable func symbols(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        // Each name with the glyph the renderer draws for it (the page draws it in the same font).
        return Self.json(
            .array(
                workshop.symbolNames().map { name in
                    let glyph = SymbolMap.glyph(name)
                    return JSONValue.object([
                        "name": .string(name), "material": .string(glyph.materialName),
                        "glyph": .string(glyph.character),
                    ])
                }))
    }

    /// Runs `body` for an ID that is a plain library ID, turning `NotFound` into 404 and other
    /// refusals into 422 with their message.
    func withDesign(_ context: BasicRequestContext, _ body: (any DesignWorkshop, String) throws -> Response) throws
        -> Response
    {
        let workshop = try server.requireWorkshop()
        guard let id = context.parameters.get("id"), Routes.isPlainID(id), UUID(uuidString: id) != nil else {
            throw HTTPError(.notFound, "no such design (a design ID is a UUID)")
        }
        do {
            return try body(workshop, id.uppercased())
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        } catch let e as DesignError {
            throw HTTPError(.unprocessableContent, e.message)
        }
    }

    /// A crop rectangle is four fields; more at once is not an edit the page makes.
    static let maximumEditsAtOnce = 8

    /// `{"field": KEY, "value": TEXT}`, or `{"edits": [{"field": KEY, "value": TEXT}, …]}`.
    static func edits(_ data: Data) -> [DesignEditor.Edit]? {
        let limits = JSONLimits(maxDepth: 3, maxValueCount: 4 + 3 * maximumEditsAtOnce, maxStringBytes: 8192)
        guard let body = RequestBody.object(data, limits: limits, allowed: ["field", "value", "edits"]) else {
            return nil
        }
        guard body.has("edits") else { return edit(body).map { [$0] } }
        // All or nothing: one malformed edit refuses the whole list.
        guard RequestBody.object(body, allowed: ["edits"]) != nil,
            let list = try? body.required("edits").array(maxCount: maximumEditsAtOnce), !list.isEmpty
        else { return nil }
        let parsed = list.compactMap(edit)
        return parsed.count == list.count ? parsed : nil
    }

    /// One `{"field": KEY, "value": TEXT}`: both strings, nothing else.
    static func edit(_ value: JSONReader) -> DesignEditor.Edit? {
        guard let e = RequestBody.object(value, allowed: ["field", "value"]),
            let field = e.text("field"), let text = e.text("value")
        else { return nil }
        return DesignEditor.Edit(field: field, value: text)
    }

    /// Tried variables a page may send: few and short (they only ever hold what a button wrote).
    static let maximumTrialVariables = 16

    /// `{KEY: TEXT, …}`: at most `maximumTrialVariables` names of at most 128 characters, each
    /// with a string of at most 256; anything else refuses the whole object.
    static func trialObject(_ value: JSONReader?) -> [String: String]? {
        guard let value, let members = try? JSONMembers(value), members.keys.count <= maximumTrialVariables else {
            return nil
        }
        var out: [String: String] = [:]
        for key in members.keys {
            guard key.count <= 128, let text = value.text(key), text.count <= 256 else { return nil }
            out[key] = text
        }
        return out
    }

    /// The `X-WidgetWeaver-Try` header: absent is none; otherwise a percent-encoded JSON object.
    static func trialVariables(_ header: String?) -> [String: String]? {
        guard let header, !header.isEmpty else { return [:] }
        guard header.utf8.count <= 8192, let text = header.removingPercentEncoding else { return nil }
        return trialObject(
            try? JSONReader.parse(
                Data(text.utf8), document: "X-WidgetWeaver-Try", maxDepth: 2,
                maxValues: 2 * maximumTrialVariables + 1, maxStringBytes: 1024))
    }

    struct Refusal: Error {
        var response: Response
    }

    /// The strict reader: the tolerant decoder's findings are refusals here, each with its field
    /// path, so nothing that `weaver designs import` would have to repair is ever saved.
    static func strictDesign(_ data: Data) -> Result<WidgetSpec, Refusal> {
        let decoded: (WidgetSpec, [Finding])
        do {
            decoded = try WidgetSpec.decode(data, fallbackDate: Date(), limits: designLimits)
        } catch {
            return .failure(Refusal(response: Routes.error(.badRequest, "the body is not a design: \(error)")))
        }
        guard decoded.1.isEmpty else {
            let errors = decoded.1.map {
                JSONValue.object(["field": .string($0.path), "message": .string($0.message)])
            }
            let first = decoded.1[0]
            return .failure(
                Refusal(
                    response: json(
                        .object([
                            "error": .string(first.description), "field": .string(first.path),
                            "errors": .array(errors),
                        ]), status: .unprocessableContent)))
        }
        return .success(decoded.0)
    }

    func draftAnswer(_ spec: WidgetSpec, unsaved: Bool, notices: [EditorNotices.Notice]) -> Response {
        let resolved = server.workshop?.resolvedTexts(spec, now: Date()) ?? [:]
        return Self.json(
            .object([
                "design": spec.jsonValue, "unsaved": .bool(unsaved),
                "resolved": .object(resolved.mapValues { JSONValue.string($0) }),
                "notices": .array(
                    notices.map { .object(["field": .string($0.field), "message": .string($0.message)]) }),
            ]))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: Array(value.prettyPrinted()))))
    }
}
