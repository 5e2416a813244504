/// What a layer's source makes: steady noise (every layer until textures existed), raindrops or
/// a fire's crackle. Textures go through the same cuts, EQ, gain and movement as noise.
public enum TextureKind: UInt8, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    case noise
    /// Poisson arrivals of bubble resonances (see `DropPhysics`), panned across the field.
    case drops
    /// Poisson arrivals of short noise bursts: many clicks, some longer pops.
    case crackle

    public var name: String {
        switch self {
        case .noise: "noise"
        case .drops: "drops"
        case .crackle: "crackle"
        }
    }

    public init?(name: String) {
        guard let k = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = k
    }
}

/// A layer's texture and its two controls.
public struct TextureSettings: Sendable, Equatable, BitwiseCopyable {
    public var kind: TextureKind
    /// Mean events per second (drops or crackles), `densityRange`.
    public var densityPerSecond: Float
    /// Crackle only, 0…1: 0 dull (the bursts coloured pink), 1 bright (white bursts).
    public var brightness: Float

    public init(kind: TextureKind = .noise, densityPerSecond: Float? = nil, brightness: Float? = nil) {
        self.kind = kind
        self.densityPerSecond =
            densityPerSecond ?? (kind == .crackle ? Self.defaultCrackleDensity : Self.defaultDropDensity)
        self.brightness = brightness ?? Self.defaultBrightness
    }

    public static let noise = TextureSettings()

    public static let densityRange: ClosedRange<Float> = 0.5...400
    public static let brightnessRange: ClosedRange<Float> = 0...1
    public static let defaultDropDensity: Float = 40
    public static let defaultCrackleDensity: Float = 8
    public static let defaultBrightness: Float = 0.5

    /// The colour (β) the layer's colour cascade takes for this texture: drops are already shaped
    /// by their resonances (β 0, flat), crackle's bursts are coloured by brightness (β 1…0).
    /// Noise keeps the layer's own colour.
    public func colour(layerColour: Float) -> Float {
        switch kind {
        case .noise: layerColour
        case .drops: 0
        case .crackle: 1 - min(max(brightness, 0), 1)
        }
    }
}
