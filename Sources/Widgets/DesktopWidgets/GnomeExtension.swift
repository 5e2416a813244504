import Foundation
import SharedStore

/// The GNOME Shell extension that shows the desktop widgets on GNOME (which has no layer-shell):
/// its files, in the form a shell version loads. The sources are written once, as GNOME 45's ES
/// modules (`data/gnome-shell/<uuid>/`); for GNOME 43 and 44 the entry point is
/// `extension-43.js` and the shared `desktop.js` has its `export`s turned into the legacy
/// importer's `var`s here, so one file of code serves both.
public enum GnomeExtension {
    public static let uuid = "widgetweaver@conornolan.com"
    /// The oldest shell the extension runs on (the 43 form also declares 44).
    public static let oldestShell = 43
    /// The first shell that loads extensions as ES modules.
    public static let moduleShell = 45
    static let sourceFiles = ["metadata.json", "extension.js", "extension-43.js", "desktop.js"]

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Where the sources are: `<prefix>/share/widgetweaver/gnome-shell/<uuid>` beside an installed
    /// weaver, else the source tree's `data/gnome-shell/<uuid>` above a `swift build` one.
    public static func sourceFolder(executable: URL) -> URL? {
        let bin = executable.deletingLastPathComponent()
        var candidates = [
            bin.deletingLastPathComponent().appendingPathComponent("share/widgetweaver/gnome-shell/\(uuid)")
        ]
        var dir = bin
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("data/gnome-shell/\(uuid)"))
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("desktop.js").path)
        }
    }

    /// The extension's files for GNOME Shell `shellMajor`, naming `weaver` as the command it runs.
    public static func files(from source: URL, shellMajor: Int, weaver: String) throws -> [(name: String, data: Data)] {
        guard shellMajor >= oldestShell else {
            throw Failure("GNOME Shell \(shellMajor) is too old: the extension needs \(oldestShell) or later")
        }
        func read(_ name: String) throws -> String {
            let url = source.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw Failure("cannot read \(url.path): the extension's sources are incomplete; reinstall weaver")
            }
            return text
        }
        let modules = shellMajor >= moduleShell
        let versions = modules ? (moduleShell...max(shellMajor, 48)).map(String.init) : ["43", "44"]
        let metadata = try Self.metadata(read("metadata.json"), shellVersions: versions, weaver: weaver)
        let entry = try read(modules ? "extension.js" : "extension-43.js")
        let desktop = try read("desktop.js")
        return [
            ("metadata.json", metadata), ("extension.js", Data(entry.utf8)),
            ("desktop.js", Data((modules ? desktop : try legacyScript(desktop)).utf8)),
        ]
    }

    /// metadata.json with the shell versions and the weaver to run filled in.
    static func metadata(_ text: String, shellVersions: [String], weaver: String) throws -> Data {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw Failure("the extension's metadata.json is not a JSON object; reinstall weaver")
        }
        object["shell-version"] = shellVersions
        object["weaver-executable"] = weaver
        return try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) + Data("\n".utf8)
    }

    /// An ES module's top-level `export`s as the GNOME 43 importer's exported names: `export class X`
    /// becomes `var X = class X`, `export const`/`let` become `var`, `export function` a plain
    /// function (top-level `var`s and functions are what `imports.x` exposes). Anything else
    /// module-only is refused, so a source that would not load on 43 fails here, not in the shell.
    public static func legacyScript(_ module: String) throws -> String {
        var out: [String] = []
        for (number, line) in module.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var l = String(line)
            if l.hasPrefix("import ") || l.hasPrefix("export default") || l.hasPrefix("export {") {
                throw Failure(
                    "desktop.js line \(number + 1): '\(l.prefix(40))' has no GNOME 43 form; pass the shell's modules in"
                )
            }
            if l.hasPrefix("export class ") {
                let name = l.dropFirst("export class ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                l = "var \(name) = class " + l.dropFirst("export class ".count)
            } else if l.hasPrefix("export const ") || l.hasPrefix("export let ") {
                l = "var " + l.drop { $0 != " " }.dropFirst().drop { $0 != " " }.dropFirst()
            } else if l.hasPrefix("export function ") {
                l = String(l.dropFirst("export ".count))
            }
            out.append(l)
        }
        return "// Generated from desktop.js by weaver for GNOME Shell 43-44: edit desktop.js.\n"
            + out.joined(separator: "\n")
    }

    /// Writes the extension into `extensions/<uuid>`, replacing an earlier copy's files.
    /// - Returns: the files written.
    @discardableResult
    public static func install(
        into extensions: URL, from source: URL, shellMajor: Int, weaver: String
    ) throws -> [URL] {
        let files = try files(from: source, shellMajor: shellMajor, weaver: weaver)
        let folder = extensions.appendingPathComponent(uuid)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Failure("cannot create \(folder.path): \(error.localizedDescription)")
        }
        var written: [URL] = []
        for (name, data) in files {
            let url = folder.appendingPathComponent(name)
            try FileSystem.atomicWrite(data, to: url, mode: 0o644)
            written.append(url)
        }
        return written
    }

    /// The running GNOME Shell's major version from `gnome-shell --version` ("GNOME Shell 43.9").
    public static func parseShellVersion(_ text: String) -> Int? {
        guard let range = text.range(of: "GNOME Shell ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// `~/.local/share/gnome-shell/extensions` (XDG_DATA_HOME's).
    public static func userFolder(environment: [String: String]) -> URL {
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: data).appendingPathComponent("gnome-shell/extensions")
    }

    public enum State: Sendable, Equatable {
        case missing, enabled, notEnabled
    }

    /// The state in `gdbus call … org.gnome.Shell.Extensions.GetExtensionInfo UUID`'s answer:
    /// `({'uuid': <'…'>, 'state': <1.0>, …},)`; an empty dictionary when the shell has no such
    /// extension. State 1 is ENABLED on GNOME 43–44 and ACTIVE on 45 and later.
    public static func parseExtensionState(_ reply: String) -> State? {
        guard reply.hasPrefix("(") else { return nil }
        guard let range = reply.range(of: "'state': <") else { return .missing }
        let number = reply[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        guard let state = Double(number) else { return nil }
        return state == 1 ? .enabled : .notEnabled
    }

    /// GNOME on Wayland, where no layer-shell exists and the widgets need this extension.
    public static func isGnomeWayland(_ environment: [String: String]) -> Bool {
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        return desktops.contains("GNOME") && environment["WAYLAND_DISPLAY"]?.isEmpty == false
    }
}
