import Foundation
import SharedStore
import SystemCalls

/// Where a data source's bytes come from, shared by calendars and reminders: a local file (read
/// with a size cap) or an http(s) address (fetched through `HTTPClient` with a policy that caps
/// the body and the time). `webcal://` means https, as calendar sites use it.
public enum SourceLocation {
    /// An absolute, standardised path for a file (`~/` read from `$HOME`); the address for
    /// http(s) (webcal → https).
    public static func normalised(
        _ text: String, relativeTo cwd: String = FileManager.default.currentDirectoryPath,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let lower = text.lowercased()
        if lower.hasPrefix("webcal://") { return "https://" + text.dropFirst("webcal://".count) }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return text }
        let path = expandingHome(text, environment: environment)
        let url =
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: cwd).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    /// `~` and `~/…` in the user's home: `$HOME` as the shell reads it, the password database
    /// only without one (`XDGDirectories.home`). Foundation's `homeDirectoryForCurrentUser`
    /// reads the password database first, so a user who set `$HOME` got another folder.
    public static func expandingHome(
        _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = XDGDirectories(environment: environment).home
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + path.dropFirst()
    }

    public static func isWeb(_ source: String) -> Bool { source.hasPrefix("http://") || source.hasPrefix("https://") }

    /// Reads a normalised source: a file (nil-safe: a missing file is an error naming it), or a
    /// download. Network answers and files are untrusted: both are capped at `limitBytes`.
    public static func fetch(_ source: String, client: HTTPClient, policy: HTTPPolicy, accept: String, limitBytes: Int)
        throws -> Data
    {
        if isWeb(source) {
            guard let url = URL(string: source) else { throw DataSourceError("'\(source)' is not a valid address") }
            return try client.get(url, accept: accept, policy: policy).body
        }
        guard let data = try FileSystem.read(URL(fileURLWithPath: source), limit: limitBytes) else {
            throw DataSourceError("\(source): no such file")
        }
        return data
    }

    /// Reads a source for a refresh. A web source's download is kept in `cache`; when a download
    /// fails, that copy is used (and said, with its age) so a refresh while offline still has
    /// data. Returns the bytes (nil when nothing could be read) and the failure to record.
    public static func readForRefresh(
        _ source: String, name: String, cache: URL, cacheLimitBytes: Int, now: Date,
        notes: inout [String], fetch: (String) throws -> Data
    ) -> (data: Data?, failure: String?) {
        do {
            let data = try fetch(source)
            if isWeb(source) { try FileSystem.atomicWrite(data, to: cache) }
            return (data, nil)
        } catch {
            let text = "\(error)"
            if isWeb(source), let cached = try? FileSystem.read(cache, limit: cacheLimitBytes) {
                let age =
                    (try? FileManager.default.attributesOfItem(atPath: cache.path)[.modificationDate] as? Date)
                    .map { " from \(WeatherService.age(now.timeIntervalSince($0))) ago" } ?? ""
                notes.append("\(name): \(text); using the copy downloaded\(age)")
                return (cached, text)
            }
            notes.append("\(name): \(text)")
            return (nil, text)
        }
    }

    /// An id made of a name: lower-case ASCII letters and digits joined by '-', at most 40
    /// characters; `fallback` when nothing is left.
    public static func slug(_ name: String, fallback: String) -> String {
        let s = name.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII ? $0 : "-" }
        let collapsed = String(s).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? fallback : String(collapsed.prefix(40))
    }

    /// `slug(name)`, or `slug-2`, `slug-3`, ... when taken.
    public static func uniqueID(for name: String, fallback: String, taken: (String) -> Bool) -> String {
        let base = slug(name, fallback: fallback)
        var id = base
        var n = 2
        while taken(id) {
            id = "\(base)-\(n)"
            n += 1
        }
        return id
    }

    /// The name a source has when the user gave none and the file names none: the host of an
    /// address, else the file's name without its extension.
    public static func fallbackName(_ source: String) -> String {
        if isWeb(source), let host = URL(string: source)?.host { return host }
        return URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
    }
}
