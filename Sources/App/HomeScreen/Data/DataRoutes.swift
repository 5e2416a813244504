import BoundedJSON
import DataSources
import Foundation
import Hummingbird
import LoginEntryFiles
import NIOCore
import NoiseControl
import SharedStore
import Snapshots
import WidgetDesign

/// The Data page (`/data`), Steps History (`/data/steps`) and their API. Each action is the call
/// the CLI verb makes: `weaver weather location set NAME [--pick N] | --lat --lon`, `weaver
/// weather refresh --force`, `weaver calendar add|remove|refresh`, `weaver steps import|goal`.
/// Uploaded files are written into the store (calendars) or a private scratch file (steps), never
/// to a path the request names; network answers are read by the services' bounded parsers.
struct DataRoutes {
    let server: HomeScreenServer

    static let smallBody = JSONLimits(maxDepth: 2, maxValueCount: 8, maxStringBytes: 2048)
    /// An uploaded calendar is capped as a downloaded one is; the parser's own limits apply after.
    static let maximumCalendarBytes = CalendarService.downloadLimit

    /// Open-Meteo as `weaver weather` uses it: `$WIDGETWEAVER_OPEN_METEO_URL` when set.
    static func openMeteo() throws -> OpenMeteo { OpenMeteo(baseURL: try OpenMeteo.baseURL(option: nil)) }

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        return Routes.body(
            DataPage.page(root: root, now: Date(), token: server.token), type: "text/html; charset=utf-8")
    }

    @Sendable func setLocation(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let o = try await RequestBody.read(
            request, limits: Self.smallBody, allowed: ["name", "pick", "latitude", "longitude"],
            shape: """
                {"name": PLACE, "pick": N (optional)} or {"latitude": DEG, "longitude": DEG, "name": TEXT \
                (optional)}
                """)
        return try Self.failing {
            let service = WeatherService(root: root, api: try Self.openMeteo())
            let location: WeatherFile.Location
            var name: String?
            if let n = o.text("name") { name = n.trimmingCharacters(in: .whitespacesAndNewlines) }
            if let lat = o.finiteNumber("latitude"), let lon = o.finiteNumber("longitude") {
                guard (-90...90).contains(lat) else {
                    throw HTTPError(.unprocessableContent, "'latitude' must be -90…90; got \(lat)", field: "latitude")
                }
                guard (-180...180).contains(lon) else {
                    throw HTTPError(
                        .unprocessableContent, "'longitude' must be -180…180; got \(lon)", field: "longitude")
                }
                location = WeatherFile.Location(
                    name: name.flatMap { $0.isEmpty ? nil : $0 } ?? String(format: "%.4f, %.4f", lat, lon),
                    latitude: lat, longitude: lon, updatedAt: Date())
            } else {
                guard let name, !name.isEmpty, name.count <= 200 else {
                    throw HTTPError(
                        .unprocessableContent, "give a place name (1…200 characters) or coordinates", field: "name")
                }
                var pick: Int?
                if let p = o.finiteNumber("pick") { pick = Int(exactly: p) ?? -1 }
                let places: [OpenMeteo.Place]
                do { places = try service.api.search(name: name) } catch {
                    throw HTTPError(.badGateway, "cannot look up '\(name)': \(error)")
                }
                switch try WeatherService.resolve(places, pick: pick) {
                case .none:
                    throw HTTPError(
                        .unprocessableContent, "no place called '\(name)'; check the spelling or use coordinates",
                        field: "name")
                case .ambiguous(let choices):
                    return DesignAPIRoutes.json(
                        .object([
                            "error": .string("'\(name)' matches \(choices.count) places; choose one"),
                            "choices": .array(
                                choices.enumerated().map { i, p in
                                    .object([
                                        "pick": .number(Double(i + 1)), "label": .string(p.label),
                                        "latitude": .number(p.latitude), "longitude": .number(p.longitude),
                                        "population": p.population.map { .number(Double($0)) } ?? .null,
                                    ])
                                }),
                        ]), status: .conflict)
                case .chosen(let p, _):
                    location = WeatherFile.Location(
                        name: p.name, latitude: p.latitude, longitude: p.longitude, updatedAt: Date(),
                        timeZone: p.timeZone, country: p.country, admin1: p.admin1)
                }
            }
            try service.setLocation(location)
            server.refresh()
            return LibraryRoutes.message(
                """
                Location: \(location.name) \
                (\(String(format: "%.4f, %.4f", location.latitude, location.longitude))).
                """
            )
        }
    }

    @Sendable func refreshWeather(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        return try Self.failing {
            let outcome = try WeatherService(root: root, api: try Self.openMeteo()).refresh(force: true)
            server.refresh()
            switch outcome {
            case .updated(let f):
                let s = f.snapshot
                return LibraryRoutes.message(
                    """
                    \(f.location?.name ?? "Weather"): \(s?.condition ?? "updated"), \
                    \(s.map { "\(Int($0.temperatureC.rounded()))°C" } ?? "")
                    """
                )
            case .tooSoon(_, _, let next):
                return LibraryRoutes.message(
                    """
                    Not fetched: the next request is allowed in \
                    \(WeatherService.age(next.timeIntervalSinceNow + 59)).
                    """
                )
            case .failed(let f, let error):
                throw HTTPError(.badGateway, error + (f.snapshot == nil ? "" : " (kept the last snapshot)"))
            }
        }
    }

    @Sendable func setAutorefresh(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let (o, on) = try await RequestBody.read(
            request, limits: Self.smallBody, allowed: ["on", "method"],
            shape: #"{"on": true|false, "method": "auto"|"systemd"|"xdg" (optional)}"#, member: { $0.flag("on") })
        var method = "auto"
        if o.has("method") {
            guard let name = o.text("method") else {
                throw HTTPError(.unprocessableContent, "'method' must be auto, systemd or xdg", field: "method")
            }
            method = name
        }
        return try Self.failing {
            let timer = Self.refreshTimer(root)
            let outcome: RefreshTimer.SwitchOutcome
            if on {
                let chosen: RefreshTimer.Method
                do { chosen = try RefreshTimer.method(named: method) } catch {
                    throw HTTPError(
                        .unprocessableContent, "'method' \(method) is not supported; use auto, systemd or xdg",
                        field: "method")
                }
                outcome = try timer.enable(chosen, systemctl: { UserSystemd.run($0) })
            } else {
                outcome = try timer.disable(systemctl: { UserSystemd.run($0) })
            }
            return DesignAPIRoutes.json(
                .object([
                    "message": .string(outcome.message), "on": .bool(timer.isOn),
                    "method": timer.installedMethod.map { .string($0.rawValue) } ?? .null,
                    "notes": .array(outcome.notes.map { .string($0) }),
                ]))
        }
    }

    @Sendable func addCalendar(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let (o, url) = try await RequestBody.read(
            request, limits: Self.smallBody, allowed: ["url", "name"],
            shape: #"{"url": "https://…/calendar.ics", "name": TEXT (optional)}"#, member: { $0.text("url") })
        // Only web addresses: a path typed in a browser must never name a file on this machine.
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("webcal://"),
            url.count <= 2000
        else {
            throw HTTPError(
                .unprocessableContent,
                "the address must start with https://, http:// or webcal:// (upload a file instead)", field: "url")
        }
        var name: String?
        if let n = o.text("name"), !n.trimmingCharacters(in: .whitespaces).isEmpty { name = n }
        return try Self.failing { try Self.addCalendar(root, source: url, name: name, shownAs: url) }
    }

    @Sendable func refreshCalendars(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        return try Self.failing {
            let report = try CalendarService(root: root).refresh()
            server.refresh()
            let events = report.snapshot.calendars.reduce(0) { $0 + $1.events }
            return DesignAPIRoutes.json(
                .object([
                    "message": .string(
                        "Refreshed \(report.snapshot.calendars.count) calendar(s): \(events) event(s)."),
                    "notes": .array(report.notes.map { .string($0) }),
                ]))
        }
    }

    static func addCalendar(_ root: StoreRoot, source: String, name: String?, shownAs: String) throws -> Response {
        let service = CalendarService(root: root)
        return try addedSource(noun: "event", source: source, shownAs: shownAs) {
            let (entry, count, warnings) = try service.add(source, name: name)
            _ = try service.refresh()
            return (entry, count, warnings, [])
        }
    }

    /// What adding a source (a calendar, a task list) answers: 201 with "Added NAME: COUNT NOUNs.",
    /// its id, and as notes its first five warnings (the rest counted, as the CLI says them) and
    /// then `refreshNotes`. `add` adds and refreshes.
    static func addedSource<E: SourceListEntry, Warning>(
        noun: String, source: String, shownAs: String,
        _ add: () throws -> (entry: E, count: Int, warnings: [Warning], refreshNotes: [String])
    ) throws -> Response {
        do {
            let (entry, count, warnings, refreshNotes) = try add()
            var notes = warnings.prefix(5).map { JSONValue.string("\(entry.name): \($0)") }
            if warnings.count > 5 { notes.append(.string("\(entry.name): \(warnings.count - 5) more warnings")) }
            notes += refreshNotes.map { .string($0) }
            return DesignAPIRoutes.json(
                .object([
                    "message": .string("Added \(entry.name): \(count) \(noun)\(count == 1 ? "" : "s")."),
                    "id": .string(entry.id), "notes": .array(notes),
                ]), status: .created)
        } catch let e as DataSourceError {
            // The service names the stored copy's path; the person uploaded a file by its name.
            throw DataSourceError(e.description.replacingOccurrences(of: source, with: shownAs))
        }
    }

    /// An uploaded file's bytes, at most `limit` (more is refused with `tooLarge`), and the safe
    /// name it was sent under (`?name=`).
    static func upload(
        _ request: Request, upTo limit: Int, tooLarge: @autoclosure () -> String
    ) async throws -> (body: ByteBuffer, fileName: String) {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, tooLarge())
        }
        return (body, ImportRoutes.fileName(request.uri.queryParameters.get("name")))
    }

    /// Writes an uploaded source into the store's `folder` under a safe name from the person's
    /// file name (never a path the request names), numbered when the name is taken.
    /// Keeps an uploaded file in the store (`keepUpload`) and adds it as a source with `add`; if
    /// `add` refuses it, the kept copy goes again, so a refused upload leaves nothing behind.
    static func addUpload(
        _ data: Data, named fileName: String, ext: String, in folder: URL, add: (URL) throws -> Response
    ) throws -> Response {
        let target = try keepUpload(data, named: fileName, ext: ext, in: folder)
        do {
            return try add(target)
        } catch {
            try? FileManager.default.removeItem(at: target)
            throw error
        }
    }

    /// A removed source's file goes with it when it is the store's own copy of an upload (under
    /// `uploads`); a typed path is the person's file and stays, as the CLI's `remove` leaves it.
    static func dropUploadedCopy(of source: String, uploads: URL) {
        if source.hasPrefix(uploads.path + "/") { try? FileManager.default.removeItem(atPath: source) }
    }

    static func keepUpload(_ data: Data, named fileName: String, ext: String, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stem = ImportRoutes.safeStem(URL(fileURLWithPath: fileName).deletingPathExtension().lastPathComponent)
        var target = folder.appendingPathComponent("\(stem).\(ext)")
        var n = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = folder.appendingPathComponent("\(stem)-\(n).\(ext)")
            n += 1
        }
        try FileSystem.atomicWrite(data, to: target)
        return target
    }

    /// A data-source refusal as 422 with the service's message (the CLI prints the same text).
    /// The refresh timer for the store this server serves: the units name that store, as the
    /// CLI's name the one `--store` or `$WIDGETWEAVER_HOME` chose (nil for the default store, so
    /// the refresh resolves it itself, as the CLI leaves it out then). The served folder counts
    /// as `--store` unless it is the one the environment resolves to anyway.
    static func refreshTimer(_ root: StoreRoot) -> RefreshTimer {
        let path = root.url.standardizedFileURL.path
        let isDefault = StoreRoot.resolve(override: nil).url.standardizedFileURL.path == path
        return RefreshTimer(
            target: .resolve(executable: RefreshTimer.weaverExecutable(), storePath: isDefault ? nil : path))
    }

    static func failing(_ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let e as DataSourceError {
            throw HTTPError(.unprocessableContent, e.description)
        } catch let e as StoreError {
            throw HTTPError(.unprocessableContent, e.description)
        }
    }
}
