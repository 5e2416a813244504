import Foundation
import NoiseEngine
import SharedStore

/// Saves a mix as a user preset: `$XDG_CONFIG_HOME/widgetweaver/presets/ID.json`, the folder
/// `PresetLibrary` searches first, so the new preset also overrides a built-in of the same id.
public enum PresetWriter {
    public struct Exists: Error, CustomStringConvertible, Sendable {
        public var url: URL
        public var description: String {
            "a preset of yours already has this name (\(url.path)); add '--force' to replace it"
        }
    }

    public struct OverridesBuiltIn: Error, CustomStringConvertible, Sendable {
        public var id: String
        public var description: String {
            """
            '\(id)' is a built-in preset; add '--force' to save yours over it (it then plays instead of the \
            built-in, until 'noise presets delete \(id)'), or choose another name
            """
        }
    }

    public struct NotFound: Error, CustomStringConvertible, Sendable {
        public var id: String
        public var isBuiltIn: Bool
        public var description: String {
            isBuiltIn
                ? "'\(id)' is a built-in preset, not one of yours; built-in presets cannot be deleted"
                : "no preset of yours is named '\(id)' ('noise presets' lists them, marked 'yours')"
        }
    }

    /// True when a folder after the user's holds preset `id` (a built-in or system-wide one).
    public static func hasBuiltIn(_ id: String, library: PresetLibrary = .standard()) -> Bool {
        library.folders.dropFirst().contains {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("\(id).json").path)
        }
    }

    /// Removes the user's preset `id`. Returns the file removed and whether a built-in of the same
    /// id now plays again.
    @discardableResult
    public static func delete(id: String, library: PresetLibrary = .standard()) throws -> (
        url: URL, builtInReturns: Bool
    ) {
        guard PresetLibrary.isValidID(id), let folder = library.folders.first else {
            throw NotFound(id: id, isBuiltIn: false)
        }
        let url = folder.appendingPathComponent("\(id).json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw NotFound(id: id, isBuiltIn: hasBuiltIn(id, library: library))
        }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw MixError(path: url.path, message: "cannot delete: \(error.localizedDescription)")
        }
        return (url, hasBuiltIn(id, library: library))
    }

    /// - Parameters:
    ///   - id: a preset id (`PresetLibrary.isValidID`).
    ///   - replace: overwrite an existing user preset with this id.
    /// - Returns: the file written.
    @discardableResult
    public static func save(
        _ mix: Mix, id: String, replace: Bool = false,
        library: PresetLibrary = .standard()
    ) throws -> URL {
        guard PresetLibrary.isValidID(id) else {
            throw MixError(
                path: "NAME", message: "'\(id.prefix(80))' is not a preset id; use 1 to 64 of a-z, 0-9, '-' and '_'")
        }
        try mix.validate()
        guard let folder = library.folders.first else { throw MixError(path: "NAME", message: "no user preset folder") }
        let url = folder.appendingPathComponent("\(id).json")
        if !replace, FileManager.default.fileExists(atPath: url.path) { throw Exists(url: url) }
        if !replace, hasBuiltIn(id, library: library) { throw OverridesBuiltIn(id: id) }
        var data = mix.encodedJSON()
        data.append(0x0A)
        try FileSystem.atomicWrite(data, to: url, mode: 0o644)
        return url
    }
}
