import NoiseControl

/// What MPRIS `Seek(Offset)` does to a noise player: it moves the sleep timer's end by Offset, so
/// `playerctl position 900+` (and a desktop's "forward" control) gives 15 minutes more and
/// `position 900-` 15 minutes less, the same as `noise timer +15m` / `-15m`.
///
/// Why the end and not the spec's literal position (which would make +15 min end the timer 15
/// minutes *sooner*): a listener only ever wants to move when the noise stops, and "+" reading as
/// "more" is what every sleep-timer control does. The timer shows as a track (`mpris:length` its
/// length, Position how far into it) that restarts at every change, so after a Seek the client is
/// told (Seeked) that the position is back at 0 of a new length: nothing it shows jumps backwards.
public enum TimerSeek {
    public struct Refused: Error, CustomStringConvertible {
        public var description: String
    }

    /// The new time left: `remaining` moved by the offset, at least 1 s (the shortest timer; a Seek
    /// past the end leaves a second rather than stopping without the fade) and at most 24 h.
    public static func newRemainingSeconds(remaining: Double, offsetMicroseconds: Int64) throws -> Double {
        let range = ControlRequest.timerRange
        let seconds = remaining + Double(offsetMicroseconds) / 1_000_000
        guard seconds.isFinite else { throw Refused(description: "Offset \(offsetMicroseconds) is not usable") }
        return min(max(seconds, range.lowerBound), range.upperBound)
    }
}
