import Foundation

/// Where the watcher reads the wall-clock time for its minute ticks.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// The system clock shifted so that it read `start` when it was made: time runs at the real rate.
/// Lets tests (and `--now`-style previews) put the next minute boundary a moment away.
public struct OffsetWallClock: WallClock {
    public let offsetSeconds: Double

    public init(startingAt start: Date) {
        offsetSeconds = start.timeIntervalSinceNow
    }

    public func now() -> Date { Date().addingTimeInterval(offsetSeconds) }
}
