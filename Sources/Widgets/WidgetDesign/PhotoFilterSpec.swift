/// Photo filter presets (the seed app's `PhotoFilterToken`, added 2026-01-28). Raw values are
/// the JSON values; `none` means no filter and is never stored.
public enum PhotoFilterToken: String, DesignToken {
    case none, noir, mono, chrome, fade, instant, process, transfer, sepia
}

/// A non-destructive filter on a design's photo: `image.filter = {token, intensity}`.
/// `intensity` is the blend amount, 0 (original) … 1 (fully filtered), default 1. A filter with
/// token `none` or intensity 0 is no filter: the model holds nil instead, as the seed app does.
public struct PhotoFilterSpec: Sendable, Hashable {
    public var token: PhotoFilterToken
    /// Within `FieldLimits.filterIntensity`.
    public var intensity: Double = 1

    /// Nil when the filter does nothing.
    public var effective: PhotoFilterSpec? {
        let i = min(max(intensity.isFinite ? intensity : 0, 0), 1)
        guard token != .none, i > 0 else { return nil }
        return PhotoFilterSpec(token: token, intensity: i)
    }
}
