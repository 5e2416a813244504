import CivilDates
import DataSources
import Foundation
import SharedStore

/// What `weaver calendar add` and `weaver reminders add` say about a source they read: its first
/// five warnings, and the rest counted, not hidden (as `refresh` says them).
func printSourceWarnings<Warning>(_ warnings: [Warning], source name: String) {
    for w in warnings.prefix(5) { printError("warning: \(name): \(w)") }
    if warnings.count > 5 { printError("warning: \(name): \(warnings.count - 5) more warnings") }
}

/// What `weaver calendar add` and `weaver reminders add` do with what `add` read: its warnings,
/// "Added 'NAME' (id ID<details>): COUNT NOUNs in SOURCE", then `next` (what writes the
/// snapshot); a failure is the command's one-line error.
func addSource<E: SourceListEntry, Warning>(
    noun: String, next: String, details: (E) -> String = { _ in "" }, _ add: () throws -> (E, Int, [Warning])
) throws {
    do {
        let (entry, count, warnings) = try add()
        printSourceWarnings(warnings, source: entry.name)
        print(
            """
            Added '\(entry.name)' (id \(entry.id)\(details(entry))): \(count) \(noun)\(count == 1 ? "" : "s") in \
            \(entry.source)
            """
        )
        print(next)
    } catch {
        throw dataSourceCommandError(error)
    }
}

/// What `weaver calendar refresh` and `weaver reminders refresh` do before saying what they
/// wrote: refuse with `none` when no source is added, refresh, print the notes as warnings.
func refreshSources<E, Snapshot>(
    _ entries: [E], none: String, _ refresh: () throws -> SourceRefreshReport<Snapshot>
) throws -> Snapshot {
    guard !entries.isEmpty else { throw CommandError(none) }
    let report = try refresh()
    for n in report.notes { printError("warning: \(n)") }
    return report.snapshot
}

/// A data source's failure (fetch, parse, store) as the command's one-line error; anything else
/// passes through unchanged.
func dataSourceCommandError(_ error: any Error) -> any Error {
    switch error {
    case let e as HTTPError: CommandError("\(e)")
    case let e as DataSourceError: CommandError(e.description)
    case let e as StoreError: CommandError(e.description)
    default: error
    }
}

/// What `weaver calendar list` and `weaver reminders list` print: `empty` when there are no
/// sources, else a tab-separated line per source — id, name, the command's own `columns`, last
/// refresh (with the last error when there is one), source.
func printSourceList<E: SourceListEntry>(_ entries: [E], empty: String, columns: (E) -> [String]) {
    if entries.isEmpty {
        print(empty)
        return
    }
    for e in entries {
        let refreshed = e.lastRefreshAt.map { ISODate.format($0) } ?? "never refreshed"
        let fields =
            [e.id, e.name] + columns(e) + [refreshed + (e.lastError.map { "\terror: \($0)" } ?? ""), e.source]
        print(fields.joined(separator: "\t"))
    }
}

/// What `weaver calendar remove` and `weaver reminders remove` print after `remove` took the
/// source out; `refreshCommand` is the one that updates the snapshot.
func removeSource<E: SourceListEntry>(refreshCommand: String, _ remove: () throws -> E) throws {
    do {
        let e = try remove()
        print("Removed '\(e.name)' (id \(e.id)). '\(refreshCommand)' updates the snapshot.")
    } catch let e as DataSourceError { throw CommandError(e.description) }
}
