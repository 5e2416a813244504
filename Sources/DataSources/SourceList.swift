import Foundation
import SharedStore

/// An entry of a data-source list (`calendars/sources.json`, `reminders/sources.json`).
public protocol SourceListEntry {
    var id: String { get }
    var name: String { get }
    /// The normalised file path or address (`SourceLocation.normalised`).
    var source: String { get }
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

    /// Takes the entry `key` (id or name) out of the list at `list` in `document`, under the
    /// document's lock, then deletes its cached download (`cache`); the source file itself is left
    /// alone. Returns the removed entry.
    static func remove<Document: Codable, E: SourceListEntry>(
        _ key: String, from document: JSONDocument<Document>, list: WritableKeyPath<Document, [E]>,
        empty: Document, noun: String, cache: (E) -> URL
    ) throws -> E {
        var removed: E?
        try document.update { current in
            var s = current ?? empty
            let i = try index(of: key, in: s[keyPath: list], noun: noun)
            removed = s[keyPath: list].remove(at: i)
            return s
        }
        try? FileManager.default.removeItem(at: cache(removed!))
        return removed!
    }
}

extension CalendarSources.Entry: SourceListEntry {}
extension ReminderSources.Entry: SourceListEntry {}
