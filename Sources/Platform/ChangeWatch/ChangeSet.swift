import Foundation

/// What one callback of `ChangeWatcher` reports: everything that changed since the last one.
public struct ChangeSet: Sendable, Equatable {
    /// Watched files that were written, replaced (renamed over), created or deleted; for watched
    /// directories, the entries inside them that changed. Absolute, standardised paths.
    public var paths: Set<String> = []
    /// Set when a wall-clock minute began (minute ticks on): the minute's start, by the watcher's clock.
    public var minute: Date?
    /// The kernel's event queue overflowed, so events were lost: `paths` then holds every target.
    public var overflowed = false
    /// Set when the process given to `ChangeWatcher.watchProcess` exited (or was gone already): its pid.
    public var exitedProcess: Int32?
    /// Set when the moment given to `ChangeWatcher.wake(at:)` came (or the clock was set before it): that moment.
    public var deadline: Date?

    public var isEmpty: Bool {
        paths.isEmpty && minute == nil && !overflowed && exitedProcess == nil && deadline == nil
    }
}
