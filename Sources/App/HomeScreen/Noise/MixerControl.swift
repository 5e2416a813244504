import FieldTable
import NoiseEngine

/// A mixer page slider's bounds, read from the mix table: the parameter's range and step, plus,
/// for a cut (which may be off), one step past the range that means off.
struct MixerControl: Equatable {
    let min: Double
    let max: Double
    let step: Double
    /// The slider position that switches the parameter off (sent as 0), or nil.
    let offValue: Double?

    init(_ param: MixParameter) {
        let field = param.field
        let range = field.numberRange
        step = field.step ?? 1
        // A high-pass does nothing at its bottom, a low-pass at its top: off sits on that side.
        // Only a cut is off when absent; an absent density takes the texture's own, which the
        // page shows as the slider's value.
        switch (field.isOptional, param) {
        case (true, .highCutHz):
            (min, max, offValue) = (range.lowerBound, range.upperBound + step, range.upperBound + step)
        case (true, .lowCutHz):
            (min, max, offValue) = (range.lowerBound - step, range.upperBound, range.lowerBound - step)
        default:
            (min, max, offValue) = (range.lowerBound, range.upperBound, nil)
        }
    }
}
