import Foundation
import SystemCalls

/// Finds presets: one mix file per preset, the file name without `.json` is its id.
///
/// Search order (the first folder holding `ID.json` wins, so users override built-ins):
/// 1. `$XDG_CONFIG_HOME/widgetweaver/presets` (default `~/.config/widgetweaver/presets`): the user's own;
/// 2. `$WIDGETWEAVER_PRESETS`, if set;
/// 3. `<prefix>/share/widgetweaver/presets` next to an installed `bin/noise`;
/// 4. the source tree's `Presets/`, found by walking up from the executable (a `swift build` run).
public struct PresetLibrary: Sendable {
    public let folders: [URL]

    public init(folders: [URL]) { self.folders = folders }

    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = PresetLibrary.executableURL()
    ) -> PresetLibrary {
        var folders: [URL] = []
        let config = XDGDirectories(environment: environment).configHome
        folders.append(URL(fileURLWithPath: config).appendingPathComponent("widgetweaver/presets"))
        if let extra = environment["WIDGETWEAVER_PRESETS"], !extra.isEmpty {
            folders.append(URL(fileURLWithPath: extra))
        }
        let bin = executable.deletingLastPathComponent()
        folders.append(bin.deletingLastPathComponent().appendingPathComponent("share/widgetweaver/presets"))
        var dir = bin
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Presets")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("sleep.json").path) {
                folders.append(candidate)
                break
            }
            dir = dir.deletingLastPathComponent()
        }
        return PresetLibrary(folders: folders)
    }

    public static func executableURL() -> URL {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }

    /// Preset ids: lowercase letters, digits, '-' and '_' (never a path).
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }

    public struct Entry: Sendable {
        public var id: String
        public var url: URL
        public var isUserPreset: Bool
    }

    /// Every preset id with the file that wins for it, sorted by id.
    public func entries() -> [Entry] {
        var seen: [String: Entry] = [:]
        for (index, folder) in folders.enumerated() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where name.hasSuffix(".json") {
                let id = String(name.dropLast(5))
                guard Self.isValidID(id), seen[id] == nil else { continue }
                seen[id] = Entry(id: id, url: folder.appendingPathComponent(name), isUserPreset: index == 0)
            }
        }
        return seen.values.sorted { $0.id < $1.id }
    }

    /// Loads preset `id`, or explains what exists.
    public func load(_ id: String) throws(MixError) -> (entry: Entry, mix: Mix) {
        let all = entries()
        guard Self.isValidID(id), let entry = all.first(where: { $0.id == id }) else {
            let known = all.map(\.id).joined(separator: ", ")
            throw MixError(
                path: "",
                message: "no preset named '\(id)'"
                    + (known.isEmpty
                        ? "; no preset folders were found (looked in \(folders.map(\.path).joined(separator: ", ")))"
                        : "; available: \(known)"))
        }
        return (entry, try Mix.load(path: entry.url.path))
    }
}
