/// Moving a running sleep timer by an amount: `noise timer +15m` / `-15m` and the Noise widget's
/// ±15 buttons ask for the same request and are refused with the same words.
public enum TimerChange {
    public struct Refused: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The request that sets the timer to `remainingSeconds + changeSeconds`. Refused when there is
    /// no timer to shorten, when the change would end it now (stopping is `noise stop`'s job, with
    /// its fade) or when it would pass the longest timer, 24 h.
    /// - Parameter changeText: the change as the user gave it ("-15m"), for the messages.
    public static func request(
        remainingSeconds: Double?, changeSeconds: Double, changeText: String, fadeSeconds: Double? = nil
    ) throws(Refused) -> ControlRequest {
        if remainingSeconds == nil && changeSeconds < 0 {
            throw Refused(
                description:
                    "no sleep timer is running, so there is nothing to shorten; set one with 'noise timer 30m'")
        }
        let seconds = (remainingSeconds ?? 0) + changeSeconds
        guard seconds >= ControlRequest.timerRange.lowerBound else {
            throw Refused(
                description:
                    """
                    the timer has \(StatusFormatter.duration(remainingSeconds ?? 0)) left: \(changeText) would end \
                    it now; use 'noise stop' to stop
                    """
            )
        }
        guard seconds <= ControlRequest.timerRange.upperBound else {
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
