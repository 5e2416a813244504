import DataSources
import SharedStore

/// What `weaver calendar add` and `weaver reminders add` say about a source they read: its first
/// five warnings, and the rest counted, not hidden (as `refresh` says them).
func printSourceWarnings<Warning>(_ warnings: [Warning], source name: String) {
    for w in warnings.prefix(5) { printError("warning: \(name): \(w)") }
    if warnings.count > 5 { printError("warning: \(name): \(warnings.count - 5) more warnings") }
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
