import Foundation
import SharedStore

/// An entry of a data-source list (`calendars/sources.json`, `reminders/sources.json`).
public protocol SourceListEntry {
    var id: String { get }
    var name: String { get }
    /// The normalised file path or address (`SourceLocation.normalised`).
    var source: String { get }
    var lastRefreshAt: Date? { get set }
    var lastSuccessAt: Date? { get set }
    var lastError: String? { get set }
}

/// A data-source list document (`CalendarSources`, `ReminderSources`): its entries, and the empty
/// list a missing file reads as.
public protocol SourceListDocument: Codable, Sendable {
    associatedtype Entry: SourceListEntry
    var entries: [Entry] { get set }
    init()
}

/// The rules both source lists follow, once: a source is added once, ids are unique slugs of the
/// name, and an entry is found by id first, then by name.
public enum SourceList {
    /// Throws when `source` is already in `entries`, naming the entry that has it.
    public static func checkNew<E: SourceListEntry>(_ source: String, in entries: [E]) throws {
        if let existing = entries.first(where: { $0.source == source }) {
            throw DataSourceError("\(source) is already added as '\(existing.name)' (id \(existing.id))")
        }
    }

    /// A free id for `name` (`SourceLocation.uniqueID`).
    public static func newID<E: SourceListEntry>(for name: String, fallback: String, in entries: [E]) -> String {
        SourceLocation.uniqueID(for: name, fallback: fallback) { id in entries.contains { $0.id == id } }
    }

    /// The index of the entry whose id, else name, is `key`; throws naming what is there.
    /// - Parameter noun: what an entry is called in the message ("calendar", "reminders source").
    public static func index<E: SourceListEntry>(of key: String, in entries: [E], noun: String) throws -> Int {
        guard let i = entries.firstIndex(where: { $0.id == key }) ?? entries.firstIndex(where: { $0.name == key })
        else {
            let known = entries.map(\.id).joined(separator: ", ")
            throw DataSourceError("no \(noun) '\(key)'" + (known.isEmpty ? " (none are added)" : "; added: \(known)"))
        }
        return i
    }
}

/// What a refresh of every source wrote, and what it has to say per source (the parsers'
/// warnings, "used the cached copy", ...).
public struct SourceRefreshReport<Snapshot: Sendable>: Sendable {
    public var snapshot: Snapshot
    public var notes: [String]
}

/// A service's source list on disk: `FOLDER/sources.json`, plus the last good download of each
/// web source in `FOLDER/ID.ics` (so a refresh while offline still has something to read). What
/// calendars and reminders do with their lists, written once.
struct SourceListFile<Document: SourceListDocument>: Sendable {
    let folder: URL
    let document: JSONDocument<Document>

    init(root: StoreRoot, folder name: String) {
        folder = root.url.appendingPathComponent(name, isDirectory: true)
        document = JSONDocument(root: root, url: folder.appendingPathComponent("sources.json"), sizeLimit: 1 << 20)
    }

    func cacheURL(_ id: String) -> URL { folder.appendingPathComponent("\(id).ics") }

    /// The entries; a file that does not read is set aside, said through `note`, and reads as none.
    func list(note: (String) -> Void) throws -> [Document.Entry] {
        switch try document.load() {
        case .missing: return []
        case .loaded(let s): return s.entries
        case .setAside(let reason, let at):
            note(SetAsideNotice.text(document.url, reason: reason, movedTo: at))
            return []
        }
    }

    /// Appends the entry `make` builds for a free id (a slug of `name`, else `fallbackID`), under
    /// the document's lock, after `check` (which may refuse, seeing the entries there are); a
    /// source already in the list is refused. A web source's bytes `data` are kept as its cache.
    func add(
        _ source: String, name: String, fallbackID: String, data: Data,
        check: ([Document.Entry]) throws -> Void = { _ in }, make: (_ id: String) -> Document.Entry
    ) throws -> Document.Entry {
        var added: Document.Entry?
        try document.update { current in
            var s = current ?? Document()
            try SourceList.checkNew(source, in: s.entries)
            try check(s.entries)
            let entry = make(SourceList.newID(for: name, fallback: fallbackID, in: s.entries))
            s.entries.append(entry)
            added = entry
            return s
        }
        if SourceLocation.isWeb(source) { try FileSystem.atomicWrite(data, to: cacheURL(added!.id)) }
        return added!
    }

    /// Takes the entry `key` (id or name) out of the list under the document's lock, then deletes
    /// its cached download; the source file itself is left alone. Returns the removed entry.
    /// - Parameter noun: what an entry is called in the message ("calendar", "reminders source").
    func remove(_ key: String, noun: String) throws -> Document.Entry {
        var removed: Document.Entry?
        try document.update { current in
            var s = current ?? Document()
            let i = try SourceList.index(of: key, in: s.entries, noun: noun)
            removed = s.entries.remove(at: i)
            return s
        }
        try? FileManager.default.removeItem(at: cacheURL(removed!.id))
        return removed!
    }

    /// What one source's read during a refresh came to: its error (nil when it read) and how many
    /// events or tasks it held.
    struct Outcome {
        var error: String?
        var count: Int
    }

    /// Records a refresh at `now` in the entries that were read (`outcomes` by id): the time, the
    /// error and, when it read, the time of success and the `count`.
    func recordRefresh(
        now: Date, outcomes: [String: Outcome], count: WritableKeyPath<Document.Entry, Int?>
    ) throws {
        try document.update { current in
            var s = current ?? Document()
            for i in s.entries.indices {
                guard let u = outcomes[s.entries[i].id] else { continue }
                s.entries[i].lastRefreshAt = now
                s.entries[i].lastError = u.error
                if u.error == nil {
                    s.entries[i].lastSuccessAt = now
                    s.entries[i][keyPath: count] = u.count
                }
            }
            return s
        }
    }
}

extension CalendarSources.Entry: SourceListEntry {}
extension ReminderSources.Entry: SourceListEntry {}

extension CalendarSources: SourceListDocument {
    public var entries: [Entry] {
        get { calendars }
        set { calendars = newValue }
    }
}

extension ReminderSources: SourceListDocument {
    public var entries: [Entry] {
        get { sources }
        set { sources = newValue }
    }
}
