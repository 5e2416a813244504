import BoundedJSON
import DataSources
import Foundation
import Hummingbird
import SharedStore

/// The Data page's Reminders API for adding a source by web address or path: the call `weaver
/// reminders add` makes (`RemindersService`), followed by a refresh so the Reminders widget shows
/// the change at once (the CLI asks for `weaver reminders refresh` as a second step). Uploads and
/// removal are the routes calendars share (`SourceFileRoutes`).
///
/// A source is a web address, an uploaded file (kept in the store's `reminders/uploads/`, as an
/// uploaded calendar is) or a path. Unlike a calendar, a path is accepted: the widget completes a
/// todo.txt row in the person's own file, which an uploaded copy cannot give. The path must be
/// absolute (or `~/…`), name an existing regular file called `*.txt` or `*.ics`, and lie outside
/// the store, so a request cannot make the server read `/etc/passwd` or a key file as tasks.
struct ReminderSourceRoutes {
    let server: HomeScreenServer

    /// Bytes of an uploaded task list: the download cap the service applies to web sources.
    static let maximumUploadBytes = RemindersService.downloadLimit
    /// File names a typed path may end in.
    static let pathExtensions = ["txt", "ics"]

    @Sendable func addSource(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let (o, text) = try await RequestBody.read(
            request, limits: DataRoutes.smallBody, allowed: ["source", "name"],
            shape: #"{"source": "~/todo.txt" or "https://…/tasks.ics", "name": TEXT (optional)}"#,
            member: { $0.text("source") })
        var name: String?
        if let n = o.text("name"), !n.trimmingCharacters(in: .whitespaces).isEmpty {
            name = String(n.prefix(200))
        }
        let source: String
        switch Self.checkedSource(text.trimmingCharacters(in: .whitespacesAndNewlines), store: root) {
        case .failure(let refusal): throw HTTPError(.unprocessableContent, refusal.description, field: "source")
        case .success(let s): source = s
        }
        return try DataRoutes.failing {
            try Self.add(root, source: source, name: name, shownAs: source)
        }
    }

    @Sendable func refresh(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        return try DataRoutes.failing {
            let service = RemindersService(root: root)
            guard !(try service.list()).isEmpty else {
                throw DataSourceError("no reminders sources yet: add a todo.txt file or an .ics with tasks")
            }
            let report = try service.refresh()
            server.refresh()
            return DesignAPIRoutes.json(
                .object([
                    "message": .string(Self.summary(report)),
                    "notes": .array(report.notes.prefix(10).map { .string($0) }),
                ]))
        }
    }

    /// "Refreshed 2 sources: 5 open tasks." and the first failure, as the page's notice.
    static func summary(_ report: RemindersService.RefreshReport) -> String {
        let s = report.snapshot
        let open = s.items.filter { !$0.done }.count
        var text =
            """
            Refreshed \(s.sources.count) source\(s.sources.count == 1 ? "" : "s"): \(open) open \
            task\(open == 1 ? "" : "s").
            """
        if let error = s.lastError { text += " Could not read \(error)" }
        return text
    }

    /// `weaver reminders add SOURCE [--name N]`, then a refresh; the answer names the file as the
    /// person gave it (an upload by its own name, not the store's copy).
    static func add(_ root: StoreRoot, source: String, name: String?, shownAs: String) throws -> Response {
        let service = RemindersService(root: root)
        return try DataRoutes.addedSource(noun: "task", source: source, shownAs: shownAs) {
            let (entry, count, warnings) = try service.add(source, name: name)
            let report = try service.refresh()
            // The refresh's notes on other sources; this one's are its warnings, said already.
            return (entry, count, warnings, Array(report.notes.filter { !$0.hasPrefix("\(entry.name):") }.prefix(5)))
        }
    }

    /// A typed source made safe to hand to the service: an http(s)/webcal address as it is; a
    /// path expanded (`~/`), absolute, an existing regular `*.txt`/`*.ics` file outside the store.
    static func checkedSource(_ text: String, store: StoreRoot) -> Result<String, DataSourceError> {
        guard !text.isEmpty, text.utf8.count <= 2000 else {
            return .failure(DataSourceError("give a todo.txt path or an .ics address (1…2000 characters)"))
        }
        let lower = text.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("webcal://") {
            return .success(text)
        }
        // `~/` from $HOME, as the CLI reads it (Foundation's home on Linux is the password file's).
        let path = SourceLocation.expandingHome(text)
        guard path.hasPrefix("/") else {
            return .failure(
                DataSourceError(
                    "'\(text)' is neither an address (https://, webcal://) nor an absolute path (/… or ~/…)"))
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        guard pathExtensions.contains(url.pathExtension.lowercased()) else {
            return .failure(DataSourceError("\(text): only .txt (todo.txt) and .ics files can be added by path"))
        }
        let storePath = store.url.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        guard !url.path.hasPrefix(storePath) else {
            return .failure(DataSourceError("\(text) is inside the store; upload the file instead"))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
            return .failure(DataSourceError("\(text): no such file"))
        }
        return .success(path)
    }
}
