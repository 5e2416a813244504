import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// What `noise autostart` and the data-source refresh timer share about the login and timer entries
/// they write (systemd user units, XDG desktop entries, `sh -c` strings): quoting, so a path with a
/// space, `$`, `%` or a quote reaches the program as the one word it is, and removal.
public enum LoginEntries {
    public struct Unquotable: Error, CustomStringConvertible, Sendable {
        public var argument: String
        public var description: String {
            "cannot put \"\(argument)\" in a unit or desktop file: it contains a line break or control character"
        }
    }

    /// No format here can carry a line break or control character in a word.
    static func refuseControl(_ s: String) throws(Unquotable) {
        guard !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Unquotable(argument: s)
        }
    }

    /// A systemd command-line word: double-quoted, C escapes for `\` and `"`, `%%` for `%`
    /// (specifiers) and `$$` for `$` (variable expansion).
    public static func systemdWord(_ s: String) throws(Unquotable) -> String {
        try refuseControl(s)
        var out = "\""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "%": out += "%%"
            case "$": out += "$$"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    /// A desktop-entry Exec word: quoted with `"`, `` ` ``, `$` and `\` backslash-escaped, then the
    /// string-value escape applied on top (so a backslash becomes four), and `%%` for `%`.
    public static func desktopWord(_ s: String) throws(Unquotable) -> String {
        try refuseControl(s)
        var quoted = ""
        for c in s {
            switch c {
            case "\"", "`", "$", "\\": quoted += "\\" + String(c)
            case "%": quoted += "%%"
            default: quoted.append(c)
            }
        }
        var escaped = ""
        for c in quoted { escaped += c == "\\" ? "\\\\" : String(c) }
        return "\"\(escaped)\""
    }

    /// A POSIX shell word: single quotes, with `'` written as `'\''`.
    public static func shellWord(_ s: String) throws(Unquotable) -> String {
        try refuseControl(s)
        var out = "'"
        for c in s { out += c == "'" ? "'\\''" : String(c) }
        return out + "'"
    }

    /// Removes those of `urls` that exist (a dangling link counts: `fileExists` follows links), then
    /// `wantsFolder` if that left it empty, as `systemctl disable` does. Returns what was removed.
    public static func remove(_ urls: [URL], wantsFolder: URL) throws -> [URL] {
        var removed: [URL] = []
        for url in urls {
            let present =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
                || FileManager.default.fileExists(atPath: url.path)
            guard present else { continue }
            try FileManager.default.removeItem(at: url)
            removed.append(url)
        }
        rmdir(wantsFolder.path)  // only succeeds when empty
        return removed
    }

    /// Writes an entry file (atomically; its folder made first).
    public static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    /// The `*.target.wants/` link that `systemctl --user enable` would make, pointing at the unit
    /// beside the folder (`../UNIT`): works without a user bus.
    public static func enable(link: URL, unitName: String) throws {
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../\(unitName)")
    }

    /// `$XDG_CONFIG_HOME` (default `~/.config`): where both kinds of entry live.
    public static func configHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: XDGDirectories(environment: environment).configHome)
    }

    /// systemd's own test (`sd_booted`): it runs the system when this folder exists.
    public static func systemdIsRunning() -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: "/run/systemd/system", isDirectory: &isDirectory)
            && isDirectory.boolValue
    }
}
