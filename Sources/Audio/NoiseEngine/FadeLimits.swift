/// The longest fades the player takes, defined once for every way in (`noise play --fade-in`,
/// `noise set --preset X --fade`, the control socket's `crossfadeSeconds`, `noise schedule add
/// --fade`): a scheduled "sleep at 23:00" fades in over minutes, not seconds. Half an hour covers
/// every slow fade people ask for, and a ramp that long still lands exactly (`ParameterRamp`).
public enum FadeLimits {
    /// `noise play --fade-in` (and a schedule's fade): 0 s … 30 min.
    public static let fadeInSeconds: ClosedRange<Double> = 0...1800
    /// A preset crossfade (`noise set --preset X --fade`, `crossfadeSeconds`): 0 s … 30 min.
    public static let crossfadeSeconds: ClosedRange<Double> = 0...1800
    /// How the upper limits read in messages.
    public static let longestText = "30m"
}
