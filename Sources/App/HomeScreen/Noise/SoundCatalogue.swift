import FieldTable
import Foundation
import NoiseEngine

/// One card of the Noise page's board: a sound the engine makes, as the one layer a tap adds.
public struct Sound: Equatable, Sendable, Encodable {
    /// Where the sound comes from: a noise colour, a texture, or a built-in preset's signature layer.
    public enum Kind: String, Sendable, Encodable { case colour, texture, preset }

    /// The card's `data-sound`: a colour's name, a texture's or a built-in preset's id.
    public var id: String
    public var name: String
    /// One line under the name (a preset's description; a colour's or texture's field help).
    public var detail: String
    public var kind: Kind
    /// The layer a tap adds (enabled, at the table's default volume).
    public var layer: Mix.Layer

    /// Whether `other` plays this sound, whatever its volume and on/off switch: a texture ignores
    /// the colour, and an explicit `noise` texture is the same as none.
    public func matches(_ other: Mix.Layer) -> Bool {
        Self.shape(layer) == Self.shape(other)
    }

    /// A layer no card plays, in words: its texture, or its noise colour ("Pink to brown noise").
    public static func describe(_ l: Mix.Layer) -> String {
        if let t = l.texture, t != .noise { return SoundCatalogue.capitalised(t.rawValue) }
        return ColourName.capitalised(l.colour) + " noise"
    }

    static func shape(_ l: Mix.Layer) -> Mix.Layer {
        var s = l
        s.enabled = true
        s.volume = 0
        if s.texture == .noise { s.texture = nil }
        if s.texture != nil { s.colour = 0 }
        return s
    }
}

/// Every sound the engine makes, read from the engine rather than listed here, so a texture or a
/// built-in preset added to the engine appears on the board by itself:
/// 1. the named noise colours: each whole step of the colour field's range (0 white, 1 pink, 2 brown),
///    named by `ColourName`;
/// 2. every texture of the mix table's texture choices (`MixFields.texture.allowed`) but plain noise;
/// 3. each built-in preset (never a user's) whose id is not taken above, as its signature layer: its first
///    layer with a texture, else its first layer (rain's drops, campfire's crackle, ocean's swell).
public enum SoundCatalogue {
    public static func sounds(presets: PresetLibrary) -> [Sound] {
        var sounds: [Sound] = []
        let volume = MixFields.volume.defaultNumber
        let colours = MixFields.colour.numberRange
        var c = colours.lowerBound.rounded(.up)
        while c <= colours.upperBound {
            let name = ColourName.of(c)
            sounds.append(
                Sound(
                    id: name, name: ColourName.capitalised(c), detail: "\(ColourName.capitalised(c)) noise",
                    kind: .colour, layer: Mix.Layer(enabled: true, volume: volume, colour: c)))
            c += 1
        }
        for choice in MixFields.texture.allowed {
            guard let texture = Mix.Texture(rawValue: choice), texture != .noise else { continue }
            sounds.append(
                Sound(
                    id: choice, name: capitalised(choice), detail: "The \(choice) texture", kind: .texture,
                    layer: Mix.Layer(enabled: true, volume: volume, texture: texture)))
        }
        // Built-in folders only: a user's preset of the same id would hide the built-in one.
        let builtIn = PresetLibrary(folders: Array(presets.folders.dropFirst()))
        for entry in builtIn.entries() where !sounds.contains(where: { $0.id == entry.id }) {
            guard let mix = try? Mix.load(path: entry.url.path) else { continue }
            guard var layer = mix.layers.first(where: { $0.enabled && $0.texture != nil }) ?? mix.layers.first
            else { continue }
            layer.enabled = true
            layer.volume = volume
            sounds.append(Sound(id: entry.id, name: mix.name, detail: mix.description, kind: .preset, layer: layer))
        }
        return sounds
    }

    static func capitalised(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}
