import BoundedJSON
import DataSources
import Foundation
import Hummingbird
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
struct DataRoutes: AppRoutes {
    let server: HomeScreenServer

    static let smallBody = JSONLimits(maxDepth: 2, maxValueCount: 8, maxStringBytes: 2048)
    /// An uploaded calendar is capped as a downloaded one is; the parser's own limits apply after.
    static let maximumCalendarBytes = CalendarService.downloadLimit

    /// Open-Meteo as `weaver weather` uses it: `$WIDGETWEAVER_OPEN_METEO_URL` when set.
    static func openMeteo() throws -> OpenMeteo { OpenMeteo(baseURL: try OpenMeteo.baseURL(option: nil)) }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/data") { _, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            return Routes.body(
                DataPage.page(root: root, now: Date(), token: server.token), type: "text/html; charset=utf-8")
        }
        router.get("/data/steps") { _, _ in
            guard let root = server.storeRoot, let workshop = server.workshop else {
                return Routes.error(.notFound, "this server has no store")
            }
            let file = try? StepsService(root: root).load()
            let keys = workshop.variables(now: Date()).filter { $0.key.hasPrefix("__steps_") }
            let html = StepsHistory.page(
                file: file ?? nil, keys: Dictionary(keys.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }),
                today: StepsHistory.localDate(Date()), token: server.token)
            return Routes.body(html, type: "text/html; charset=utf-8")
        }

        // Weather
        router.post("/api/data/weather/location") { request, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            guard
                let o = RequestBody.object(
                    body, limits: Self.smallBody, allowed: ["name", "pick", "latitude", "longitude"])
            else {
                return Routes.error(
                    .badRequest,
                    """
                    the body must be {\"name\": PLACE, \"pick\": N (optional)} or {\"latitude\": DEG, \
                    \"longitude\": DEG, \"name\": TEXT (optional)}
                    """
                )
            }
            return try Self.failing {
                let service = WeatherService(root: root, api: try Self.openMeteo())
                let location: WeatherFile.Location
                var name: String?
                if let n = o.text("name") { name = n.trimmingCharacters(in: .whitespacesAndNewlines) }
                if let lat = o.finiteNumber("latitude"), let lon = o.finiteNumber("longitude") {
                    guard (-90...90).contains(lat) else {
                        return DesignAPIRoutes.fieldError("latitude", "'latitude' must be -90…90; got \(lat)")
                    }
                    guard (-180...180).contains(lon) else {
                        return DesignAPIRoutes.fieldError("longitude", "'longitude' must be -180…180; got \(lon)")
                    }
                    location = WeatherFile.Location(
                        name: name.flatMap { $0.isEmpty ? nil : $0 } ?? String(format: "%.4f, %.4f", lat, lon),
                        latitude: lat, longitude: lon, updatedAt: Date())
                } else {
                    guard let name, !name.isEmpty, name.count <= 200 else {
                        return DesignAPIRoutes.fieldError(
                            "name",
                            "give a place name (1…200 characters) or coordinates")
                    }
                    var pick: Int?
                    if let p = o.finiteNumber("pick") { pick = Int(exactly: p) ?? -1 }
                    let places: [OpenMeteo.Place]
                    do { places = try service.api.search(name: name) } catch {
                        return Routes.error(.badGateway, "cannot look up '\(name)': \(error)")
                    }
                    switch try WeatherService.resolve(places, pick: pick) {
                    case .none:
                        return DesignAPIRoutes.fieldError(
                            "name", "no place called '\(name)'; check the spelling or use coordinates")
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
        router.post("/api/data/weather/refresh") { _, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
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
                    return Routes.error(.badGateway, error + (f.snapshot == nil ? "" : " (kept the last snapshot)"))
                }
            }
        }

        // Auto-refresh on or off: the call `weaver weather autorefresh enable|disable` makes.
        router.post("/api/data/weather/autorefresh") { request, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            guard let o = RequestBody.object(body, limits: Self.smallBody, allowed: ["on", "method"]),
                let on = o.flag("on")
            else {
                return Routes.error(
                    .badRequest,
                    "the body must be {\"on\": true|false, \"method\": \"auto\"|\"systemd\"|\"xdg\" (optional)}")
            }
            var method = "auto"
            if o.has("method") {
                guard let name = o.text("method") else {
                    return DesignAPIRoutes.fieldError("method", "'method' must be auto, systemd or xdg")
                }
                method = name
            }
            return try Self.failing {
                let timer = Self.refreshTimer(root)
                let outcome: RefreshTimer.SwitchOutcome
                if on {
                    let chosen: RefreshTimer.Method
                    do { chosen = try RefreshTimer.method(named: method) } catch {
                        return DesignAPIRoutes.fieldError(
                            "method", "'method' \(method) is not supported; use auto, systemd or xdg")
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

        // Calendar
        router.post("/api/data/calendar") { request, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            guard let o = RequestBody.object(body, limits: Self.smallBody, allowed: ["url", "name"]),
                let url = o.text("url")
            else {
                return Routes.error(
                    .badRequest, "the body must be {\"url\": \"https://…/calendar.ics\", \"name\": TEXT (optional)}")
            }
            // Only web addresses: a path typed in a browser must never name a file on this machine.
            let lower = url.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("webcal://"),
                url.count <= 2000
            else {
                return DesignAPIRoutes.fieldError(
                    "url", "the address must start with https://, http:// or webcal:// (upload a file instead)")
            }
            var name: String?
            if let n = o.text("name"), !n.trimmingCharacters(in: .whitespaces).isEmpty { name = n }
            return try Self.failing { try Self.addCalendar(root, source: url, name: name, shownAs: url) }
        }
        router.post("/api/data/calendar/upload") { request, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: Self.maximumCalendarBytes) } catch {
                return Routes.error(
                    .contentTooLarge, "the calendar file is larger than \(Self.maximumCalendarBytes) bytes")
            }
            let fileName = ImportRoutes.fileName(request.uri.queryParameters.get("name"))
            // Kept in the store: a file calendar is read again at every refresh.
            let folder = root.url.appendingPathComponent("calendars/uploads", isDirectory: true)
            return try Self.failing {
                let target = try Self.keepUpload(Data(buffer: body), named: fileName, ext: "ics", in: folder)
                do {
                    return try Self.addCalendar(root, source: target.path, name: nil, shownAs: fileName)
                } catch {
                    try? FileManager.default.removeItem(at: target)
                    throw error
                }
            }
        }
        router.delete("/api/data/calendar/:id") { _, context in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            guard let id = context.parameters.get("id"), Routes.isPlainID(id) else {
                return Routes.error(.notFound, "no such calendar")
            }
            return try Self.failing {
                let service = CalendarService(root: root)
                let removed = try service.remove(id)
                // An uploaded file is the store's own copy: it goes with the calendar.
                let uploads = root.url.appendingPathComponent("calendars/uploads").path + "/"
                if removed.source.hasPrefix(uploads) { try? FileManager.default.removeItem(atPath: removed.source) }
                _ = try service.refresh()
                server.refresh()
                return LibraryRoutes.message("Removed \(removed.name).")
            }
        }
        router.post("/api/data/calendar/refresh") { _, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
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

        // Steps
        router.post("/api/data/steps/import") { request, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: StepsService.maxFileBytes) } catch {
                return Routes.error(
                    .contentTooLarge, "the steps file is larger than \(StepsService.maxFileBytes) bytes")
            }
            let fileName = ImportRoutes.fileName(request.uri.queryParameters.get("name"))
            return try Self.failing {
                // `importFile` reads a path and names the file in its messages by its last
                // component: a private scratch folder holds the upload under its own name.
                let scratch = root.url.appendingPathComponent(".uploads-\(AccessPolicy.newToken())", isDirectory: true)
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: scratch) }
                let file = scratch.appendingPathComponent(fileName)
                try FileSystem.atomicWrite(Data(buffer: body), to: file)
                let r = try StepsService(root: root).importFile(file)
                server.refresh()
                return LibraryRoutes.message(
                    "Imported \(r.imported) day\(r.imported == 1 ? "" : "s") (\(r.firstDate) … \(r.lastDate))"
                        + (r.replaced > 0 ? ", \(r.replaced) replacing stored days" : "")
                        + (r.today.map { ". Today: \($0.steps) steps" } ?? "") + ".")
            }
        }
        router.post("/api/data/steps/goal") { request, _ in
            guard let root = server.storeRoot else { return Routes.error(.notFound, "this server has no store") }
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            guard let o = RequestBody.object(body, limits: Self.smallBody, allowed: ["weekday", "weekend"]),
                let weekday = o.finiteNumber("weekday")
            else {
                return Routes.error(.badRequest, "the body must be {\"weekday\": STEPS, \"weekend\": STEPS (optional)}")
            }
            var weekend: Int?
            if let w = o.finiteNumber("weekend") { weekend = Int(exactly: w) ?? 0 }
            guard let goal = Int(exactly: weekday) else {
                return DesignAPIRoutes.fieldError("weekday", "the goal must be a whole number of steps in 1…200000")
            }
            return try Self.failing {
                let f = try StepsService(root: root).setGoal(weekday: goal, weekend: weekend)
                server.refresh()
                return LibraryRoutes.message(
                    """
                    Goal: \(f.goalWeekday ?? goal) steps on weekdays, \(f.goalWeekend ?? f.goalWeekday ?? goal) at \
                    weekends.
                    """
                )
            }
        }
        router.post("/api/data/steps/pin") { request, _ in
            guard let root = server.storeRoot, let library = server.library else {
                return Routes.error(.notFound, "this server has no store")
            }
            let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
            guard let o = RequestBody.object(body, limits: Self.smallBody, allowed: ["date"]), let date = o.text("date")
            else {
                return Routes.error(.badRequest, "the body must be {\"date\": \"yyyy-MM-dd\"}")
            }
            guard let day = (try? StepsService(root: root).load())?.history?.first(where: { $0.date == date }) else {
                return DesignAPIRoutes.fieldError("date", "no steps recorded on '\(date)'")
            }
            return try LibraryRoutes.refusing {
                let spec = try StepsHistory.pinnedDesign(
                    day: day, goal: StepsHistory.goal(for: date, in: try? StepsService(root: root).load()), now: Date())
                try library.add([spec])
                server.refresh()
                var response = DesignAPIRoutes.json(
                    .object(["id": .string(spec.id.uuidString), "message": .string("Pinned \(date) as \(spec.name).")]))
                response.status = .created
                return response
            }
        }
    }

    static func addCalendar(_ root: StoreRoot, source: String, name: String?, shownAs: String) throws -> Response {
        let service = CalendarService(root: root)
        do {
            let (entry, count, warnings) = try service.add(source, name: name)
            _ = try service.refresh()
            var notes = warnings.prefix(5).map { JSONValue.string("\(entry.name): \($0)") }
            if warnings.count > 5 { notes.append(.string("\(entry.name): \(warnings.count - 5) more warnings")) }
            var response = DesignAPIRoutes.json(
                .object([
                    "message": .string("Added \(entry.name): \(count) event\(count == 1 ? "" : "s")."),
                    "id": .string(entry.id), "notes": .array(notes),
                ]))
            response.status = .created
            return response
        } catch let e as DataSourceError {
            // The service names the stored copy's path; the person uploaded a file by its name.
            throw DataSourceError(e.description.replacingOccurrences(of: source, with: shownAs))
        }
    }

    /// Writes an uploaded source into the store's `folder` under a safe name from the person's
    /// file name (never a path the request names), numbered when the name is taken.
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
            return Routes.error(.unprocessableContent, e.description)
        } catch let e as StoreError {
            return Routes.error(.unprocessableContent, e.description)
        }
    }
}
