import Foundation

/// Live widgets also redraw when the wall-clock minute turns; a test of another wake-up keeps its
/// measured window clear of that moment, or a minute tick could pass for the wake-up it checks.
public enum MinuteBoundary {
    /// Returns once no wall-clock minute begins within the next `seconds` (at once when none
    /// does; otherwise half a second after the coming one, so its tick falls before the window too:
    /// at most ~61 s).
    public static func waitUntilNoneWithin(_ seconds: Double) {
        let now = Date().timeIntervalSince1970
        let intoMinute = now.truncatingRemainder(dividingBy: 60)
        guard intoMinute + seconds > 59.5 else { return }
        let after = now - intoMinute + 60.5
        // The condition is the wall clock's own: polled until it has passed that moment.
        _ = eventually(62) { Date().timeIntervalSince1970 >= after }
    }
}
