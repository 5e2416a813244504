import DataSources
import Foundation
import Hummingbird
import NIOCore
import SharedStore
import SizeLimits

/// The two routes calendars and task lists share, written once: an uploaded file (`POST
/// …/upload?name=`) kept in the store's uploads folder and added as a source, and `DELETE …/:id`,
/// which removes a source (its uploaded copy with it) and refreshes so the widget shows the change
/// at once (the CLI asks for a refresh as a second step). A value says what differs.
struct SourceFileRoutes: Sendable {
    let server: HomeScreenServer
    /// What a missing id is called ("calendar", "reminders source").
    let noun: String
    /// The store's folder for uploaded copies, relative to the store ("calendars/uploads").
    let uploads: String
    /// Bytes an upload may have, and what it is called when it has more ("the calendar file"):
    /// said as the CLI says a size, in MiB.
    let maximumUploadBytes: Int
    let uploadNoun: String
    /// The extension an upload is kept under, from the name it was sent with.
    let uploadExtension: @Sendable (String) -> String
    /// Adds the source at a path (the kept upload) and refreshes; the second string is the file's
    /// name as sent, which the answer shows.
    let addSource: @Sendable (StoreRoot, String, String) throws -> Response
    /// Takes the source with this id out of the list (`weaver … remove ID`).
    let removeSource: @Sendable (StoreRoot, String) throws -> any SourceListEntry
    /// Refreshes the snapshot the list feeds.
    let refreshSnapshot: @Sendable (StoreRoot) throws -> Void

    @Sendable func upload(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let (body, fileName) = try await DataRoutes.upload(
            request, upTo: maximumUploadBytes,
            tooLarge: "\(uploadNoun) is \(SizeLimit(bytes: maximumUploadBytes).exceededByStream)")
        let folder = root.url.appendingPathComponent(uploads, isDirectory: true)
        return try DataRoutes.failing {
            try DataRoutes.addUpload(Data(buffer: body), named: fileName, ext: uploadExtension(fileName), in: folder) {
                try addSource(root, $0.path, fileName)
            }
        }
    }

    @Sendable func remove(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        guard let id = context.parameters.get("id"), Routes.isPlainID(id) else {
            throw HTTPError(.notFound, "no such \(noun)")
        }
        return try DataRoutes.failing {
            let removed = try removeSource(root, id)
            DataRoutes.dropUploadedCopy(of: removed.source, uploads: root.url.appendingPathComponent(uploads))
            try refreshSnapshot(root)
            server.refresh()
            return LibraryRoutes.message("Removed \(removed.name).")
        }
    }

    /// Calendars: a file calendar is kept in the store, read again at every refresh.
    static func calendars(_ server: HomeScreenServer) -> SourceFileRoutes {
        SourceFileRoutes(
            server: server, noun: "calendar", uploads: "calendars/uploads",
            maximumUploadBytes: DataRoutes.maximumCalendarBytes, uploadNoun: "the calendar file",
            uploadExtension: { _ in "ics" },
            addSource: { try DataRoutes.addCalendar($0, source: $1, name: nil, shownAs: $2) },
            removeSource: { try CalendarService(root: $0).remove($1) },
            refreshSnapshot: { _ = try CalendarService(root: $0).refresh() })
    }

    /// Task lists: the extension decides how the service reads the file (`.ics` as iCalendar tasks).
    static func reminders(_ server: HomeScreenServer) -> SourceFileRoutes {
        SourceFileRoutes(
            server: server, noun: "reminders source", uploads: "reminders/uploads",
            maximumUploadBytes: ReminderSourceRoutes.maximumUploadBytes, uploadNoun: "the task list",
            uploadExtension: { $0.lowercased().hasSuffix(".ics") ? "ics" : "txt" },
            addSource: { try ReminderSourceRoutes.add($0, source: $1, name: nil, shownAs: $2) },
            removeSource: { try RemindersService(root: $0).remove($1) },
            refreshSnapshot: { _ = try RemindersService(root: $0).refresh() })
    }
}
