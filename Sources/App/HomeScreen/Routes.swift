import BoundedJSON
import Foundation
import Hummingbird
import NIOCore
import SharedStore

/// Every route of the app. Anything else is 404 (the router's default); no route reads a path
/// from the request into the file system.
///
/// Layout: this file holds the shell's own routes (its stylesheet, the event stream) and the home
/// screen and mixer; each other area of the app (the Editor, and the pages that follow it) has
/// its own `…Routes` type in its own file, listed in `areas` below.
struct Routes {
    let server: HomeScreenServer

    /// The app's areas beyond the home screen, each registering its pages and API routes.
    var areas: [any AppRoutes] {
        [
            EditorRoutes(server: server), DesignAPIRoutes(server: server),
            LibraryRoutes(server: server), ImportRoutes(server: server), ExploreRoutes(server: server),
            DataRoutes(server: server), ReminderSourceRoutes(server: server), PageAssetRoutes(),
        ]
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in
            let tiles = try server.board.tiles(now: Date())
            let html = Page.home(tiles: tiles, mixer: server.mixer.state(), token: server.token)
            return Self.body(html, type: "text/html; charset=utf-8")
        }
        router.get("/noise") { _, _ in
            Self.body(Page.noise(mixer: server.mixer.state(), token: server.token), type: "text/html; charset=utf-8")
        }
        router.get(.init(stringLiteral: AppShell.stylesheetPath)) { _, _ in
            Self.body(ShellStyle.css, type: "text/css; charset=utf-8")
        }
        router.get("/static/app.js") { _, _ in Self.body(Assets.js, type: "text/javascript; charset=utf-8") }
        router.get("/static/app.css") { _, _ in Self.body(Assets.css, type: "text/css; charset=utf-8") }
        for area in areas { area.register(on: router) }
        router.get("/events") { _, _ in events() }
        FieldsRoute.register(on: router)
        router.get("/api/designs") { _, _ in
            Self.bytes(try server.board.designsJSON(), type: "application/json")
        }
        router.get("/api/mixer") { _, _ in
            Self.body(HomeScreenServer.mixerJSON(server.mixer.state()), type: "application/json")
        }
        router.post("/api/mixer") { request, _ in
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            let change: MixerChange
            do { change = try MixerChange.decode(Data(buffer: body)) } catch {
                return Self.error(.badRequest, "\(error)")
            }
            do {
                let message = try server.mixer.apply(change)
                server.refresh()
                return Self.body(HomeScreenServer.json(["message": message]), type: "application/json")
            } catch {
                return Self.error(.unprocessableContent, "\(error)")
            }
        }
        router.get("/widgets/:file") { request, context in
            guard let file = context.parameters.get("file") else { return Self.error(.notFound, "no such widget") }
            let id: String, format: PictureFormat
            do { (id, format) = try Self.widgetFile(file) } catch { return Self.error(.notFound, "\(error)") }
            let query = request.uri.queryParameters
            let family = query.get("family") ?? "small"
            guard let scale = Int(query.get("scale") ?? "2"), (1...3).contains(scale) else {
                return Self.error(.badRequest, "'scale' must be 1, 2 or 3")
            }
            do {
                let picture = try server.board.picture(
                    designID: id, family: family, scale: scale, format: format, now: Date())
                var response = Self.bytes(picture, type: format.contentType)
                response.headers[.cacheControl] = "no-cache"
                return response
            } catch let e as NotFound {
                return Self.error(.notFound, e.description)
            }
        }
        router.post("/api/designs/:id/tap") { request, context in
            guard let id = context.parameters.get("id"), Self.isPlainID(id) else {
                return Self.error(.notFound, "no such design")
            }
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            let limits = JSONLimits(maxDepth: 4, maxValueCount: 64, maxStringBytes: 4096)
            guard
                let object = RequestBody.object(
                    body, limits: limits, allowed: ["family", "x", "y"], required: ["family", "x", "y"]),
                let family = object.text("family"), let x = object.finiteNumber("x"), let y = object.finiteNumber("y")
            else {
                return Self.error(.badRequest, "the body must be {\"family\": NAME, \"x\": POINTS, \"y\": POINTS}")
            }
            do {
                let result = try server.board.tapResult(designID: id, family: family, x: x, y: y, now: Date())
                server.refresh()
                var answer = ["message": result.message]
                if let link = result.open { answer["open"] = link }
                return Self.body(HomeScreenServer.json(answer), type: "application/json")
            } catch let e as NotFound {
                return Self.error(.notFound, e.description)
            } catch let e as NothingToTap {
                return Self.error(.unprocessableContent, e.description)
            } catch {
                return Self.error(.unprocessableContent, "\(error)")
            }
        }
    }

    /// `text/event-stream`: `hello` with the page token at once, then `widget`, `mixer` and `layout`
    /// events as things change; a comment every 15 s while idle.
    private func events() -> Response {
        guard let stream = server.hub.subscribe() else {
            return Self.error(.serviceUnavailable, "too many open event streams (limit \(EventHub.maximumSubscribers))")
        }
        let hello = ServerEvent(name: "hello", data: HomeScreenServer.json(["token": server.token]))
        let mixer = ServerEvent(name: "mixer", data: HomeScreenServer.mixerJSON(server.mixer.state()))
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n" + hello.wire + mixer.wire))
            // One writer, two inputs: the hub's events and this stream's own keep-alive ticks.
            let (merged, input) = AsyncStream<ServerEvent?>.makeStream()
            let forward = Task {
                for await event in stream { input.yield(event) }
                input.finish()
            }
            let keepAlive = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(HomeScreenServer.keepAliveSeconds))
                    input.yield(nil)
                }
            }
            defer {
                forward.cancel()
                keepAlive.cancel()
            }
            for await event in merged {
                try await writer.write(ByteBuffer(string: event?.wire ?? ": keep-alive\n\n"))
            }
            try await writer.finish(nil)
        }
        var response = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: body)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `ID.svg` / `ID.png`, where ID is a library ID or `noise-machine`.
    static func widgetFile(_ file: String) throws -> (String, PictureFormat) {
        for format in [PictureFormat.svg, .png] where file.hasSuffix("." + format.rawValue) {
            let id = String(file.dropLast(format.rawValue.count + 1))
            if isPlainID(id) { return (id, format) }
        }
        throw NotFound("no such widget '\(file)' (expected ID.svg or ID.png)")
    }

    /// IDs are UUIDs, their prefixes, or `noise-machine`: letters, digits and '-', at most 64.
    static func isPlainID(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64
            && s.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" }
    }

    static func body(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func bytes(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: HomeScreenServer.json(["error": message]))))
    }
}

/// One area of the app (a page and the API routes it uses), registered by `Routes`. Each lives in
/// its own file, so areas can be added without touching each other's code.
protocol AppRoutes {
    func register(on router: Router<BasicRequestContext>)
}
