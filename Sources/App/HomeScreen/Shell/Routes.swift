import Foundation
import Hummingbird
import NIOCore
import SharedStore

/// Every route of the app. Anything else is 404 (the router's default); no route reads a path
/// from the request into the file system.
///
/// Layout: a folder per area of the app (Home, Noise, Editor, Library, Explore, Import, Data, Steps), each with
/// its route collection (`…Routes`, a named method per route), every path and method listed in one table
/// (`Routes.table`, RouteTable.swift); this file holds the shell's own routes (its
/// static files, the event stream) and the helpers every area answers with. Handlers throw `HTTPError` for a
/// refusal; `HTTPErrorMiddleware` answers it.
struct Routes {
    let server: HomeScreenServer

    func register(on router: Router<BasicRequestContext>) {
        WebAssets.register(on: router)
        for route in table { router.on(route.path, method: route.method, use: route.handler) }
        router.get("/events") { _, _ in try events() }
    }

    /// `text/event-stream`: `hello` with the page token at once, then `widget`, `mixer` and `layout`
    /// events as things change; a comment every 15 s while idle.
    private func events() throws -> Response {
        guard let stream = server.hub.subscribe() else {
            throw HTTPError(.serviceUnavailable, "too many open event streams (limit \(EventHub.maximumSubscribers))")
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
