import Foundation

/// A countdown at one render clock: its text, whether it is in its last seconds or over, and the
/// next moment the text changes, which is what a live host waits for: each second in the last
/// minute, each whole-minute crossing before that, nothing once it has ended or while the clock
/// stands still (a paused sleep timer).
public struct CountdownReading: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        /// More than `warningSeconds` left.
        case running
        /// `warningSeconds` or fewer left: the seed's red.
        case lastSeconds
        /// The target has passed: the text is "end".
        case ended
    }

    /// The last seconds drawn red (the seed's Timer widget: 10).
    public static let warningSeconds = 10
    public static let endText = "end"

    public var text: String
    public var phase: Phase
    /// Whole seconds shown (remaining time rounded up, so the last second reads 0:01, never 0:00).
    public var shownSeconds: Int
    public var nextChange: Date?

    /// - Parameters:
    ///   - ticking: false when the remaining time does not run (a paused sleep timer): no next change.
    public static func at(_ now: Date, target: Date, ticking: Bool = true) -> CountdownReading {
        let remaining = target.timeIntervalSince(now)
        guard remaining > 0 else {
            return CountdownReading(text: endText, phase: .ended, shownSeconds: 0, nextChange: nil)
        }
        // Held below ~31 years, so the integer conversion cannot trap on an absurd target.
        let shown = Int(min(remaining, 1e9).rounded(.up))
        let phase: Phase = shown <= warningSeconds ? .lastSeconds : .running
        var next: Date?
        if ticking {
            if shown <= 60 {
                // The text changes when the remaining time crosses the next whole second.
                next = target.addingTimeInterval(-Double(shown - 1))
            } else {
                // Before the last minute a live host draws at each whole-minute crossing only.
                let minutesLeft = (shown + 59) / 60 - 1
                next = target.addingTimeInterval(-Double(minutesLeft * 60))
            }
        }
        return CountdownReading(text: format(shown), phase: phase, shownSeconds: shown, nextChange: next)
    }

    /// `m:ss` under an hour, `h:mm:ss` from an hour.
    public static func format(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
