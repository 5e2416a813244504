import Foundation
import NoiseEngine
import SharedStore

/// Saves a mix as a user preset: `$XDG_CONFIG_HOME/widgetweaver/presets/ID.json`, the folder
/// `PresetLibrary` searches first, so the new preset also overrides a built-in of the same id.
public enum PresetWriter {
    public struct Exists: Error, CustomStringConvertible, Sendable {
        public var url: URL
        public var description: String { "a preset of yours already has this name (\(url.path)); add '--force' to replace it" }
    }

    /// - Parameters:
    ///   - id: a preset id (`PresetLibrary.isValidID`).
    ///   - replace: overwrite an existing user preset with this id.
    /// - Returns: the file written.
    @discardableResult
    public static func save(_ mix: Mix, id: String, replace: Bool = false,
                            library: PresetLibrary = .standard()) throws -> URL {
        guard PresetLibrary.isValidID(id) else {
            throw MixError(path: "NAME", message: "'\(id.prefix(80))' is not a preset id; use 1 to 64 of a-z, 0-9, '-' and '_'")
        }
        try mix.validate()
        guard let folder = library.folders.first else { throw MixError(path: "NAME", message: "no user preset folder") }
        let url = folder.appendingPathComponent("\(id).json")
        if !replace, FileManager.default.fileExists(atPath: url.path) { throw Exists(url: url) }
        var data = mix.encodedJSON()
        data.append(0x0A)
        try FileSystem.atomicWrite(data, to: url, mode: 0o644)
        return url
    }
}
