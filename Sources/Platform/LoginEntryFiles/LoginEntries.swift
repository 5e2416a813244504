import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// What every login and timer entry of both tools shares (`noise autostart`, `noise schedule`, the
/// data refresh timer, `weaver desktop --autostart`; what they point at is `LoginEntryTarget`)
/// about the files they write (systemd user units, XDG desktop entries, `sh -c` strings):
/// quoting, so a path with a space, `$`, `%` or a quote reaches the program as the one word it
/// is, and removal.
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

    /// A command line for `ExecStart=`: each word a `systemdWord`.
    public static func systemdLine(_ words: [String]) throws -> String {
        try words.map { try systemdWord($0) }.joined(separator: " ")
    }

    /// A command line for a desktop entry's `Exec=`: each word a `desktopWord`.
    public static func desktopLine(_ words: [String]) throws -> String {
        try words.map { try desktopWord($0) }.joined(separator: " ")
    }

    /// A command line for `sh -c`: each word a `shellWord`.
    public static func shellLine(_ words: [String]) throws -> String {
        try words.map { try shellWord($0) }.joined(separator: " ")
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

    /// Writes each text to its file, then (for a unit) the `*.target.wants/` link that enables
    /// `link.unitName`; returns the files written, the link last.
    public static func install(_ files: [(text: String, url: URL)], enabling link: (url: URL, unitName: String)? = nil)
        throws -> [URL]
    {
        for file in files { try write(file.text, to: file.url) }
        guard let link else { return files.map(\.url) }
        try enable(link: link.url, unitName: link.unitName)
        return files.map(\.url) + [link.url]
    }

    /// An XDG autostart entry that runs `exec` (an `Exec=` value, quoted with `desktopWord`) at
    /// login, kept out of menus.
    public static func autostartEntry(name: String, comment: String, exec: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(name)
        Comment=\(comment)
        Exec=\(exec)
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
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
