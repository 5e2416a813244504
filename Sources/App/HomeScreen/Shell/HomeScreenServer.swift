import Foundation
import Hummingbird
import Logging
import NIOCore
import NetworkAddress
import ServiceLifecycle
import Synchronization

/// `weaver serve`: the home screen, the mixer, the widget pictures and the live event stream.
public final class HomeScreenServer: Sendable {
    /// Request bodies above this are refused (413): a tap or a mixer change is a few dozen bytes.
    public static let maximumBodyBytes = 16 << 10
    /// Idle `/events` streams get a comment this often, so a closed tab is noticed and proxies keep
    /// the connection open.
    static let keepAliveSeconds = 15.0

    public let listen: ListenAddress
    public let token: String
    public let board: any WidgetBoard
    public let mixer: Mixer
    public let hub = EventHub()
    /// The Editor's unsaved drafts (`/api/drafts/…`).
    public let drafts = DraftStore()
    /// Uploaded packages waiting in the Import Review (`/api/import`).
    public let reviews = ImportReviews()
    /// Presses the home screen's notice can take back (`/api/undo/…`).
    public let undoOffers = UndoOffers()
    /// Explore's drawn catalogue, emptied at every `refresh` (its inputs changed).
    let explorePictures = ExplorePictureCache()
    /// Noise → Calibrate's hearing calibration, one at a time.
    let calibration: CalibrationDesk

    private struct Published {
        var tiles: [String: WidgetTile] = [:]
        var order: [String] = []
        var mixer: MixerState?
    }
    private let published = Mutex(Published())
    private let boundPort = Atomic<Int>(0)

    public init(listen: ListenAddress, token: String = AccessPolicy.newToken(), board: any WidgetBoard, mixer: Mixer) {
        self.listen = listen
        self.token = token
        self.board = board
        self.mixer = mixer
        calibration = CalibrationDesk(root: mixer.root, client: mixer.client)
    }

    /// The port actually bound (differs from `listen.port` when that was 0); 0 before start.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// The access rules for the address actually bound (Host must carry the real port).
    public var policy: AccessPolicy {
        let bound = port
        return AccessPolicy(
            listen: ListenAddress(host: listen.host, port: bound != 0 ? bound : listen.port), token: token)
    }

    // MARK: Live updates

    /// Draws every tile again and publishes the ones whose picture changed, and the mixer when it
    /// changed. Called by the file watcher, the minute tick and after every tap or mixer change.
    /// Draws every tile and publishes what changed. Returns the earliest moment a tile asked to
    /// be drawn again (`WidgetTile.redrawAt`), for the watcher.
    @discardableResult
    public func refresh(now: Date = Date()) -> Date? {
        explorePictures.invalidate()
        let tiles = (try? board.tiles(now: now)) ?? []
        let mixerState = mixer.state(now: now)
        var events: [ServerEvent] = []
        published.withLock { p in
            let order = tiles.map(\.key)
            if !p.order.isEmpty && order != p.order {
                events.append(ServerEvent(name: "layout", data: "{}"))
            } else {
                for t in tiles where p.tiles[t.key] != t {
                    events.append(ServerEvent(name: "widget", data: Self.json(["key": t.key, "html": Page.tile(t)])))
                }
            }
            p.order = order
            p.tiles = Dictionary(tiles.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
            if p.mixer != mixerState {
                p.mixer = mixerState
                events.append(ServerEvent(name: "mixer", data: Self.mixerJSON(mixerState)))
            }
        }
        for e in events { hub.publish(e) }
        return tiles.compactMap(\.redrawAt).min()
    }

    static func mixerJSON(_ state: MixerState) -> String {
        struct Wire: Encodable {
            var state: MixerState
            var summary: String
            func encode(to encoder: any Encoder) throws {
                try state.encode(to: encoder)
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(summary, forKey: .summary)
            }
            enum Key: String, CodingKey { case summary }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Wire(state: state, summary: Page.mixerSummary(state)))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func json(_ object: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Running

    /// Serves until SIGINT/SIGTERM (or until the task is cancelled).
    /// - Parameters:
    ///   - services: run beside the server and shut down with it (e.g. the file watcher).
    ///   - onRunning: called once the socket is bound, with the URL to open.
    public func run(services: [any Service] = [], onRunning: @escaping @Sendable (String) -> Void) async throws {
        var logger = Logger(label: "weaver.serve")
        logger.logLevel =
            ProcessInfo.processInfo.environment["WIDGETWEAVER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? .warning
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: AccessMiddleware(server: self))
        // Inside the access check, so a refusal a handler throws still gets its security headers.
        router.add(middleware: HTTPErrorMiddleware())
        Routes(server: self).register(on: router)
        let server = self
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? server.listen.port
                server.boundPort.store(port, ordering: .releasing)
                var shown = server.listen
                shown.port = port
                var url = shown.url
                if !shown.isLoopback { url += "?token=\(server.token)" }
                onRunning(url)
            },
            logger: logger
        )
        // A service group stops its services in reverse order: the event streams end first, then
        // the watcher, then the server, so shutdown never waits for an open tab.
        let group = ServiceGroup(
            configuration: .init(
                services: [app] + services + [EventStreamCloser(hub: hub)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        refresh()
        try await group.run()
    }
}

/// Ends every `/events` stream when shutdown begins.
struct EventStreamCloser: Service {
    let hub: EventHub
    func run() async throws {
        try? await gracefulShutdown()
        hub.finishAll()
    }
}

/// Host, Origin, token and security headers for every request (see `AccessPolicy`).
struct AccessMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let server: HomeScreenServer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var hosts = request.headers[values: .init("Host")!]
        if let authority = request.head.authority, hosts.isEmpty { hosts = [authority] }
        let cookie = request.headers[values: .cookie].flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(AccessPolicy.cookieName + "=") }
            .map { String($0.dropFirst(AccessPolicy.cookieName.count + 1)) }
        let policy = server.policy
        let verdict = policy.check(
            method: request.method.rawValue, hosts: hosts,
            origin: request.headers[.origin],
            tokenHeader: request.headers[.init(AccessPolicy.tokenHeader)!],
            tokenQuery: request.uri.queryParameters.get("token"),
            tokenCookie: cookie)
        var response: Response
        switch verdict {
        case .forbidden(let why):
            response = Routes.error(.forbidden, why)
        case .allowed:
            response = try await next(request, context)
        case .allowedSetCookie:
            response = try await next(request, context)
            response.headers[.setCookie] =
                "\(AccessPolicy.cookieName)=\(policy.token); Path=/; HttpOnly; SameSite=Strict"
        }
        response.headers[.contentSecurityPolicy] =
            """
            default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' blob:; \
            font-src 'self'; connect-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
            """
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
