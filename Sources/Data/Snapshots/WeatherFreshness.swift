import Foundation

/// How old weather data may be shown (the seed's rules), counted from the last good fetch
/// (`snapshot.fetchedAt`): the current temperature goes 3 hours after it, everything becomes
/// unknown ("?") after 6. The Weather template's "Weather data is old" greying and the Forecast
/// template's hiding both use it.
///
/// The one rule for "stale". The Weather template used to count data as old only *after* 3
/// hours (`>`), the Forecast template *from* 3 hours (`>=`); data exactly 3 hours old was current
/// in one widget and hidden in the other. It is stale from 3 hours in both now: the Forecast
/// rule, which the tests pinned at the boundary.
public enum WeatherFreshness: Sendable, Hashable {
    case fresh, currentHidden, unknown

    public static let currentHiddenAfterSeconds: Double = 3 * 3600
    public static let unknownAfterSeconds: Double = 6 * 3600

    public static func at(_ now: Date, fetchedAt: Date?) -> WeatherFreshness {
        guard let fetchedAt else { return .unknown }
        let age = now.timeIntervalSince(fetchedAt)
        if age >= unknownAfterSeconds { return .unknown }
        if age >= currentHiddenAfterSeconds { return .currentHidden }
        return .fresh
    }
}
