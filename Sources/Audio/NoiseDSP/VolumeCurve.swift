#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The volume slider's curve: amplitude = v³.
///
/// The seed app maps its slider linearly to amplitude, which puts half the slider within the top
/// 6 dB and leaves quiet settings crowded at the bottom. A cubic gives −18 dB at half travel,
/// −9.3 dB at 0.7, −60 dB at 0.1 and true silence at 0, close to equal loudness steps, and it is
/// the same curve PulseAudio uses for its software volume, so our slider feels like the system's.
public enum VolumeCurve {
    @inlinable
    public static func amplitude(_ volume: Float) -> Float {
        let v = min(max(volume, 0), 1)
        return v * v * v
    }

    /// The curve in decibels: 60·log10(v).
    public static func gainDb(_ volume: Double) -> Double {
        volume <= 0 ? -.infinity : 60 * log10(min(volume, 1))
    }
}
