import Foundation

/// Polling with a deadline, for states another process reaches (a file written, a server up).
public enum Wait {
    /// Calls `probe` every `interval` seconds until it returns a value; nil after `seconds`.
    public static func until<T>(_ seconds: Double, interval: Double = 0.02, _ probe: () -> T?) -> T? {
        let end = Date().addingTimeInterval(seconds)
        repeat {
            if let value = probe() { return value }
            // The polling interval: the one sleep every wait on a condition is built on.
            Thread.sleep(forTimeInterval: interval)
        } while Date() < end
        return probe()
    }
}

/// Whether `condition` held for the whole of `seconds` (polled every 10 ms; false at the first poll
/// it does not): a quiet window in which something must not happen, where time passing is what is
/// tested, so it fails as soon as the thing happens instead of after a fixed sleep. For `#expect`.
public func throughout(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    Wait.until(seconds, interval: 0.01) { condition() ? nil : false } == nil
}

/// Whether `condition` came to hold within `seconds` (polled every 10 ms): for `#expect`.
public func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    Wait.until(seconds, interval: 0.01) { condition() ? true : nil } ?? false
}

/// `value` once it has stayed the same for `quietSeconds` (polled every `interval`), or nil when it
/// kept changing for `seconds`: the end of a burst (of callbacks, of start-up writes) as a condition,
/// not a guess at how long the burst takes.
public func steady<T: Equatable>(
    for quietSeconds: Double, within seconds: Double = 5, interval: Double = 0.01, _ value: () -> T
) -> T? {
    var last = value()
    var since = Date()
    return Wait.until(seconds, interval: interval) { () -> T? in
        let now = value()
        if now != last {
            last = now
            since = Date()
            return nil
        }
        return Date().timeIntervalSince(since) >= quietSeconds ? now : nil
    }
}
