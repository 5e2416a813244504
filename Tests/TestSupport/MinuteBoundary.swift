import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Live widgets also redraw when the wall-clock minute turns; a test of another wake-up keeps its
/// measured window clear of that moment, or a minute tick could pass for the wake-up it checks.
public enum MinuteBoundary {
    /// Returns once no wall-clock minute begins within the next `seconds` (at once when none
    /// does; otherwise just after the coming one, at most ~61 s).
    public static func waitUntilNoneWithin(_ seconds: Double) {
        let intoMinute = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
        // Waiting out the wall clock itself: no state to poll for, the passing minute is the point.
        if intoMinute + seconds > 59.5 { usleep(UInt32((60.5 - intoMinute) * 1e6)) }
    }
}
