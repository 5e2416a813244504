import Foundation
import NoiseEngine
import ShareLinks

/// A mix link (`noise share`) pasted into the Noise page or opened as `/noise#ww1.mix.…`: read here, on
/// the server, by `ShareLink.read` (version, checksum, size) and the strict mix reader (`Mix.decode`), so
/// the page never reads a link itself. Refusals carry ShareLinks' own words.
public enum SharedMixLink {
    public static func read(_ text: String) throws(BoardError) -> Mix {
        let link: ShareLink
        do { link = try ShareLink.read(text) } catch { throw BoardError(.badRequest, error.message, field: "link") }
        guard link.kind == .mix else {
            throw BoardError(
                .badRequest,
                "the link carries a \(link.kind.rawValue), not a mix: open it in the Library's Import (or 'weaver "
                    + "import LINK')", field: "link")
        }
        do { return try Mix.decode(link.json, file: "the link") } catch {
            throw BoardError(.badRequest, "\(error)", field: "link")
        }
    }

    /// What the page shows before anything plays: the mix whole (as its JSON), its name and description,
    /// and each layer named by the board's card when one plays it.
    public static func summary(_ mix: Mix, sounds: [Sound]) -> [String: Any] {
        let mixJSON = (try? JSONSerialization.jsonObject(with: mix.encodedJSON())) ?? [:]
        let layers = mix.layers.enumerated().map { i, layer -> [String: Any] in
            let sound = sounds.first { $0.matches(layer) }
            return [
                "layer": i + 1, "enabled": layer.enabled, "volume": layer.volume,
                "sound": sound?.id ?? NSNull(), "name": sound?.name ?? Sound.describe(layer),
            ]
        }
        let loudness = mix.predictedLoudness().loudnessLufs
        return [
            "name": mix.name, "description": mix.description, "mix": mixJSON, "layers": layers,
            "loudnessLufs": loudness.isFinite ? (loudness * 10).rounded() / 10 : NSNull(),
        ]
    }
}
