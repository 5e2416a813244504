/// A Play Preset design's settings (our own key `presetButton`; the seed app has none): the noise
/// preset its one button plays (`noise play --preset ID`, or a running player switched to it).
/// The id is checked for its form here (it becomes part of a command line); whether such a preset
/// exists is checked where the presets are known: `weaver designs set`, the renderer (which says
/// "No preset") and the press (the player's own refusal).
public struct PresetButtonSpec: Sendable, Hashable {
    public var presetID: String

    public init(presetID: String) { self.presetID = presetID }

    public static let allowed =
        "a preset id: lowercase letters, digits, '-' and '_', at most 64 ('noise presets' lists them)"

    /// Parses a preset id as typed or stored; throws `DesignError` saying what is allowed.
    public static func parse(_ raw: String) throws -> PresetButtonSpec {
        let id = raw.trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty, id.count <= 64,
            id.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            })
        else {
            throw DesignError("'\(raw.prefix(80))' is not a preset id; allowed: \(allowed)")
        }
        return PresetButtonSpec(presetID: id)
    }
}
