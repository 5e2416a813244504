#if canImport(Glibc)
    import Glibc
#endif

/// A counting semaphore (POSIX `sem_t`) a waiting thread sleeps on until something happens.
///
/// `post()` is async-signal-safe and takes no lock, so a signal handler or the render thread (as
/// it leaves its loop) may call it. It lets the player's main thread block instead of polling.
public final class WakeSignal: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    public func post() { sem_post(semaphore) }

    /// Sleeps until a `post()`, a signal or `seconds` pass. True when it was posted.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let whole = Int(seconds)
        deadline.tv_sec += whole
        deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return sem_timedwait(semaphore, &deadline) == 0
    }
}
