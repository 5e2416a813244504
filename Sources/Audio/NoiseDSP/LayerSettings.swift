/// One layer's controls as the DSP sees them (already validated by the mix model).
public struct LayerSettings: Sendable, Equatable, BitwiseCopyable {
    public var isEnabled: Bool
    /// Slider position 0…1 (see `VolumeCurve`).
    public var volume: Float
    /// Spectral exponent β of 1/f^β: 0 white, 1 pink, 2 brown, continuous between.
    public var colour: Float
    /// High-pass corner in Hz, nil when off.
    public var lowCutHz: Float?
    /// Low-pass corner in Hz, nil when off.
    public var highCutHz: Float?
    public var eqLowDb: Float
    public var eqMidDb: Float
    public var eqHighDb: Float
    /// Slow swells of level and high cut (`.still` by default: nothing moves).
    public var movement: MovementSettings
    /// What the layer's source makes (`.noise` by default: coloured noise, as before textures).
    public var texture: TextureSettings

    public init(
        isEnabled: Bool = true, volume: Float = 1, colour: Float = 1, lowCutHz: Float? = nil,
        highCutHz: Float? = nil, eqLowDb: Float = 0, eqMidDb: Float = 0, eqHighDb: Float = 0,
        movement: MovementSettings = .still, texture: TextureSettings = .noise
    ) {
        self.isEnabled = isEnabled
        self.volume = volume
        self.colour = colour
        self.lowCutHz = lowCutHz
        self.highCutHz = highCutHz
        self.eqLowDb = eqLowDb
        self.eqMidDb = eqMidDb
        self.eqHighDb = eqHighDb
        self.movement = movement
        self.texture = texture
    }

    /// The β the colour cascade runs at: the layer's colour for noise, the texture's otherwise.
    public var effectiveColour: Float { texture.colour(layerColour: colour) }

    public static let off = LayerSettings(isEnabled: false, volume: 0)

    /// The seed app's EQ: low shelf at 160 Hz, a one-octave peak at 1.2 kHz, high shelf at 6 kHz.
    public static let eqLowShelfHz = 160.0
    public static let eqMidHz = 1200.0
    /// One octave between the −3 dB points of the analog prototype.
    public static let eqMidQ = 1.4142
    public static let eqHighShelfHz = 6000.0
}
