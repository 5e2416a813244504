/// Every numeric and length limit of the design model, described once. Decoding clamps to these
/// ranges (and reports it); the editor refuses values outside them.
public enum FieldLimits {
    public static let symbolSizePoints: ClosedRange<Double> = 8...96
    public static let imageHeightPoints: ClosedRange<Double> = 0...512
    public static let imageCornerRadiusPoints: ClosedRange<Double> = 0...128
    public static let spacingPoints: ClosedRange<Double> = 0...32
    public static let primaryLineLimitSmall: ClosedRange<Int> = 1...8
    public static let primaryLineLimit: ClosedRange<Int> = 1...10
    public static let secondaryLineLimitSmall: ClosedRange<Int> = 1...8
    public static let secondaryLineLimit: ClosedRange<Int> = 1...10
    public static let paddingPoints: ClosedRange<Double> = 0...32
    public static let styleCornerRadiusPoints: ClosedRange<Double> = 0...44
    public static let overlayOpacity: ClosedRange<Double> = 0...1
    public static let styleSymbolSizePoints: ClosedRange<Double> = 8...96
    public static let incrementAmount: ClosedRange<Int> = -99...99
    public static let weatherScale: ClosedRange<Double> = 0.6...1.4
    public static let filterIntensity: ClosedRange<Double> = 0...1
    public static let normalisedCoordinate: ClosedRange<Double> = 0...1
    public static let pixelDimension: ClosedRange<Int> = 1...100_000
    public static let smartPhotoAlgorithmVersion: ClosedRange<Int> = 0...1_000_000
    /// A Smart Photo render's straightening, degrees (the app's slider stays well inside).
    public static let straightenDegrees: ClosedRange<Double> = -360...360
    /// A Smart Photo render's quarter turns (read modulo 4 when drawn).
    public static let rotationQuarterTurns: ClosedRange<Int> = -1_000...1_000

    public static let maxActions = 2
    public static let maxNameCharacters = 120
    public static let maxTextCharacters = 2_000
    public static let maxSymbolNameCharacters = 128
    public static let maxActionTitleCharacters = 24
    public static let maxVariableKeyCharacters = 128
    public static let maxCountdownTargetCharacters = 160
    /// A `resetVariable` action's value.
    public static let maxResetValueCharacters = 256
    /// An `openURL` action's link, in UTF-8 bytes.
    public static let maxURLCharacters = 2_048
}
