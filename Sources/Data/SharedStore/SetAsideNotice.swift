import Foundation

/// The one wording for a store file that could not be read and was moved out of the way, whichever
/// command or library found it (`noise status` and `weaver render` used to word the same corrupt
/// status.json differently): `<file> could not be read (<why>); it was moved to <where>`.
public enum SetAsideNotice {
    public static func text(_ file: URL, reason: String, movedTo: URL) -> String {
        "\(file.path) could not be read (\(reason)); it was moved to \(movedTo.path)"
    }

    /// The same, when only where the file went is known (`NAME.corrupt-<stamp>` beside the original,
    /// as `FileSystem.setAside` names it).
    public static func text(reason: String, movedTo: URL) -> String {
        let name = movedTo.lastPathComponent.components(separatedBy: ".corrupt-").first ?? movedTo.lastPathComponent
        return text(movedTo.deletingLastPathComponent().appendingPathComponent(name), reason: reason, movedTo: movedTo)
    }
}
