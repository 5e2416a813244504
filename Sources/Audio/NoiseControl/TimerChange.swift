/// Moving a running sleep timer by an amount: `noise timer +15m` / `-15m` and the Noise widget's
/// ±15 buttons ask for the same request and are refused with the same words; MPRIS `Seek` (a
/// media key) moves it the same way but keeps the new time within the timer's range instead.
public enum TimerChange {
    public struct Refused: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// What a change that would leave the timer outside `ControlRequest.timerRange` (1 s…24 h)
    /// does.
    public enum OutOfRange: Sendable {
        /// Refused with the reason: the CLI and the widget's buttons, where the user can try
        /// another amount.
        case refuse
        /// Kept within the range: a Seek past the end leaves a second (the shortest timer, so the
        /// player still fades out) and one past 24 h leaves 24 h. A media key must not fail.
        case clamp
    }

    /// The request that sets the timer to `remainingSeconds + changeSeconds`. With `.refuse`,
    /// refused when there is no timer to shorten, when the change would end it now (stopping is
    /// `noise stop`'s job, with its fade) or when it would pass the longest timer, 24 h; with
    /// `.clamp`, refused only when the change is not a number.
    /// - Parameter changeText: the change as the user gave it ("-15m"), for the messages.
    public static func request(
        remainingSeconds: Double?, changeSeconds: Double, changeText: String, fadeSeconds: Double? = nil,
        outOfRange: OutOfRange = .refuse
    ) throws(Refused) -> ControlRequest {
        let range = ControlRequest.timerRange
        let seconds = (remainingSeconds ?? 0) + changeSeconds
        if outOfRange == .clamp {
            guard seconds.isFinite else { throw Refused(description: "\(changeText) is not usable") }
            return .timer(seconds: min(max(seconds, range.lowerBound), range.upperBound), fadeSeconds: fadeSeconds)
        }
        if remainingSeconds == nil && changeSeconds < 0 {
            throw Refused(
                description:
                    "no sleep timer is running, so there is nothing to shorten; set one with 'noise timer 30m'")
        }
        guard seconds >= range.lowerBound else {
            throw Refused(
                description:
                    """
                    the timer has \(StatusFormatter.duration(remainingSeconds ?? 0)) left: \(changeText) would end \
                    it now; use 'noise stop' to stop
                    """
            )
        }
        guard seconds <= range.upperBound else {
            throw Refused(
                description:
                    """
                    \(StatusFormatter.duration(remainingSeconds ?? 0)) left \(changeText) is more than the longest \
                    timer, 24h
                    """
            )
        }
        return .timer(seconds: seconds, fadeSeconds: fadeSeconds)
    }
}
