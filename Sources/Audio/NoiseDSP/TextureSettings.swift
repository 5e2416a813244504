/// What a layer's source makes: steady noise (every layer until textures existed), raindrops or
/// a fire's crackle. Textures go through the same cuts, EQ, gain and movement as noise.
public enum TextureKind: UInt8, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    case noise
    /// Poisson arrivals of bubble resonances (see `DropPhysics`), panned across the field.
    case drops
    /// Poisson arrivals of short noise bursts: many clicks, some longer pops.
    case crackle
    /// Statistics-driven kinds (`TextureBed` and `TextureProfile`): rain (a patter bed, impact
    /// taps, some ringing drops), surf (undertow and breaking waves), wind (gusts, flutter,
    /// whistle), fire (roar, hiss, crackles, flaring), fan (blade pass, motor line), stream, thunder
    /// (a storm's rare rolling rumbles).
    case rain, surf, wind, fire, fan, stream, thunder

    public var name: String {
        switch self {
        case .noise: "noise"
        case .drops: "drops"
        case .crackle: "crackle"
        case .rain: "rain"
        case .surf: "surf"
        case .wind: "wind"
        case .fire: "fire"
        case .fan: "fan"
        case .stream: "stream"
        case .thunder: "thunder"
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
    /// Crackle, 0…1: 0 dull (the bursts coloured pink), 1 bright (white bursts). Statistics-driven
    /// kinds: the hardness of what the taps hit (0 a tent's cloth, 1 glass).
    public var brightness: Float

    public init(kind: TextureKind = .noise, densityPerSecond: Float? = nil, brightness: Float? = nil) {
        self.kind = kind
        self.densityPerSecond =
            densityPerSecond ?? Self.defaultDensity(kind)
        self.brightness = brightness ?? Self.defaultBrightness
    }

    public static let noise = TextureSettings()

    public static let densityRange: ClosedRange<Float> = 0.5...400
    public static let brightnessRange: ClosedRange<Float> = 0...1
    public static let defaultDropDensity: Float = 40
    public static let defaultCrackleDensity: Float = 8
    public static let defaultBrightness: Float = 0.5
    /// Events a second for the statistics-driven kinds when none is set (their beds carry the rest).
    public static func defaultDensity(_ kind: TextureKind) -> Float {
        switch kind {
        case .noise, .drops: defaultDropDensity
        case .crackle: defaultCrackleDensity
        case .rain: 150
        case .fire: 30
        case .stream: 60
        case .surf, .wind, .fan: 1
        case .thunder: 400
        }
    }

    /// True for the kinds built on `TextureBed`.
    /// The kinds `TextureProfile.of` has a profile for. A switch, not `of(kind) != nil`: that
    /// copied a whole profile out of its static (a `memmove` and a `swift_once`) on every sub-block.
    public var isStatistical: Bool {
        switch kind {
        case .noise, .drops, .crackle: false
        case .rain, .surf, .wind, .fire, .fan, .stream, .thunder: true
        }
    }

    /// The colour (β) the layer's colour cascade takes for this texture: drops are already shaped
    /// by their resonances (β 0, flat), crackle's bursts are coloured by brightness (β 1…0).
    /// Noise keeps the layer's own colour.
    public func colour(layerColour: Float) -> Float {
        switch kind {
        case .noise: layerColour
        case .drops: 0
        case .crackle: 1 - min(max(brightness, 0), 1)
        case .rain, .surf, .wind, .fire, .fan, .stream, .thunder: 0
        }
    }
}
