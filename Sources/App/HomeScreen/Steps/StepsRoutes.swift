import DataSources
import Foundation
import Hummingbird
import NIOCore
import SharedStore
import WidgetDesign

/// Steps History (`/data/steps`) and the steps API the Data page's Steps card and this page use: `weaver steps
/// import` (an uploaded CSV or JSON, read from a private scratch file), `weaver steps goal`, and pinning a day as a
/// design.
struct StepsRoutes {
    let server: HomeScreenServer

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let workshop = try server.requireWorkshop(.noStore)
        let file = try? StepsService(root: root).load()
        let keys = workshop.variables(now: Date()).filter { $0.key.hasPrefix("__steps_") }
        let html = StepsHistory.page(
            file: file ?? nil, keys: Dictionary(keys.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }),
            today: StepsHistory.localDate(Date()), token: server.token)
        return Routes.body(html, type: "text/html; charset=utf-8")
    }

    @Sendable func importSteps(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let (body, fileName) = try await DataRoutes.upload(
            request, upTo: StepsService.maxFileBytes,
            tooLarge: "the steps file is larger than \(StepsService.maxFileBytes) bytes")
        return try DataRoutes.failing {
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

    @Sendable func setGoal(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let (o, weekday) = try await RequestBody.read(
            request, limits: DataRoutes.smallBody, allowed: ["weekday", "weekend"],
            shape: #"{"weekday": STEPS, "weekend": STEPS (optional)}"#, member: { $0.finiteNumber("weekday") })
        var weekend: Int?
        if let w = o.finiteNumber("weekend") { weekend = Int(exactly: w) ?? 0 }
        guard let goal = Int(exactly: weekday) else {
            throw HTTPError(
                .unprocessableContent, "the goal must be a whole number of steps in 1…200000", field: "weekday")
        }
        return try DataRoutes.failing {
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

    @Sendable func pinDay(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let library = try server.requireLibrary(.noStore)
        let (_, date) = try await RequestBody.read(
            request, limits: DataRoutes.smallBody, allowed: ["date"], shape: #"{"date": "yyyy-MM-dd"}"#,
            member: { $0.text("date") })
        guard let day = (try? StepsService(root: root).load())?.history?.first(where: { $0.date == date }) else {
            throw HTTPError(.unprocessableContent, "no steps recorded on '\(date)'", field: "date")
        }
        return try LibraryRoutes.refusing {
            let spec = try StepsHistory.pinnedDesign(
                day: day, goal: StepsHistory.goal(for: date, in: try? StepsService(root: root).load()), now: Date())
            try library.add([spec])
            server.refresh()
            return DesignAPIRoutes.json(
                .object(["id": .string(spec.id.uuidString), "message": .string("Pinned \(date) as \(spec.name).")]),
                status: .created)
        }
    }
}
