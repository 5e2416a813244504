import CivilDates
import Foundation

/// What a Countdown design counts down to (`countdown.target`, our own key `countdown.target` in
/// the design file): a fixed time, a variable holding one, or the noise sleep timer's end.
public enum CountdownTarget: Sendable, Hashable, CustomStringConvertible {
    /// An ISO 8601 time with its offset (`2026-12-31T23:59:00Z`, `2026-12-31T23:59:00+01:00`).
    case instant(Date)
    /// `{{key}}`: a variable holding an ISO 8601 time (or anything the variables' date parser reads).
    case variable(String)
    /// `sleep-timer`: the end of the running noise player's sleep timer.
    case sleepTimer

    public static let sleepTimerSpelling = "sleep-timer"
    public static let allowed =
        "an ISO 8601 time with offset (2026-12-31T23:59:00Z), a variable as {{key}}, or sleep-timer"

    /// Parses a target as typed or stored; throws `DesignError` saying what is allowed.
    public static func parse(_ raw: String) throws -> CountdownTarget {
        let t = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard t.count <= FieldLimits.maxCountdownTargetCharacters else {
            throw DesignError("longer than \(FieldLimits.maxCountdownTargetCharacters) characters; allowed: \(allowed)")
        }
        if ["sleep-timer", "sleeptimer", "sleep_timer", "sleep"].contains(t.lowercased()) { return .sleepTimer }
        if t.hasPrefix("{{"), t.hasSuffix("}}"), t.count > 4 {
            let key = t.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.count <= FieldLimits.maxVariableKeyCharacters,
                key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == " " })
            else {
                throw DesignError(
                    "'\(raw)' does not name a variable (letters, digits, '_', '-', '.'); allowed: \(allowed)")
            }
            return .variable(key)
        }
        // Whole seconds, as the file writes them, so a decoded target re-encodes exactly.
        if let d = ISODate.parse(t) { return .instant(WidgetSpec.wholeSeconds(d)) }
        throw DesignError("'\(raw)' is not a countdown target; allowed: \(allowed)")
    }

    /// The stored spelling (parses back to the same target).
    public var description: String {
        switch self {
        case .instant(let d): ISODate.format(d)
        case .variable(let key): "{{\(key)}}"
        case .sleepTimer: Self.sleepTimerSpelling
        }
    }
}

/// A Countdown design's settings (our own key `countdown`; the seed app has no such template).
public struct CountdownSpec: Sendable, Hashable {
    public var target: CountdownTarget

    public init(target: CountdownTarget) { self.target = target }
}
