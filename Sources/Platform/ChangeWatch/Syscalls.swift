import CChangeWatch
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call in the watcher's older wording ("inotify_add_watch(/x) failed: Permission denied"),
/// kept because `weaver render --watch` users and ChangeWatcherTests see it; the call, path and errno are
/// the `SystemCallError` every module reports.
public struct ChangeWatchError: Error, CustomStringConvertible, Sendable, Equatable {
    public var failed: SystemCallError
    public var call: String { failed.call }
    public var path: String? { failed.path }
    public var code: Int32 { failed.code }

    public init(_ call: String, path: String? = nil, code: Int32 = errno) {
        failed = SystemCallError(call, path: path, code: code)
    }

    public var description: String {
        let reason = SystemCallError.text(code)
        if let path { return "\(call)(\(path)) failed: \(reason)" }
        return "\(call) failed: \(reason)"
    }
}

/// Every system call the watcher makes, wrapped once: EINTR is retried, failure becomes a
/// `ChangeWatchError` naming the call.
enum Syscalls {
    static func inotifyInit() throws(ChangeWatchError) -> Int32 {
        let fd = retryOnInterrupt { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        guard fd >= 0 else { throw ChangeWatchError("inotify_init1") }
        return fd
    }

    /// Returns the watch descriptor, or throws (ENOENT/ENOTDIR when the folder is gone).
    static func inotifyAddWatch(_ fd: Int32, _ path: String, _ mask: UInt32) throws(ChangeWatchError) -> Int32 {
        let wd = retryOnInterrupt { inotify_add_watch(fd, path, mask) }
        guard wd >= 0 else { throw ChangeWatchError("inotify_add_watch", path: path) }
        return wd
    }

    /// Removing a watch the kernel already dropped (its folder was deleted) fails with EINVAL; that
    /// is the state we wanted, so it is not reported.
    static func inotifyRemoveWatch(_ fd: Int32, _ wd: Int32) {
        _ = retryOnInterrupt { inotify_rm_watch(fd, wd) }
    }

    static func timerCreate() throws(ChangeWatchError) -> Int32 {
        let fd = retryOnInterrupt { ccw_timerfd_create_realtime() }
        guard fd >= 0 else { throw ChangeWatchError("timerfd_create") }
        return fd
    }

    static func timerArm(_ fd: Int32, atUnixSeconds t: Double) throws(ChangeWatchError) {
        let whole = t.rounded(.down)
        let nanos = Int64(((t - whole) * 1e9).rounded(.down))
        guard retryOnInterrupt({ ccw_timerfd_arm_absolute(fd, Int64(whole), min(max(nanos, 0), 999_999_999)) }) == 0
        else {
            throw ChangeWatchError("timerfd_settime")
        }
    }

    /// Stops a timer armed by `timerArm` (an all-zero expiry disarms it).
    static func timerDisarm(_ fd: Int32) throws(ChangeWatchError) {
        guard retryOnInterrupt({ ccw_timerfd_arm_absolute(fd, 0, 0) }) == 0 else {
            throw ChangeWatchError("timerfd_settime")
        }
    }

    static func eventCreate() throws(ChangeWatchError) -> Int32 {
        let fd = retryOnInterrupt { ccw_eventfd() }
        guard fd >= 0 else { throw ChangeWatchError("eventfd") }
        return fd
    }

    /// A pidfd for `pid` (readable once the process has exited), or the errno of the failure:
    /// ESRCH when the process is gone, ENOSYS/EPERM where the kernel or a seccomp filter refuses.
    static func pidfdOpen(_ pid: Int32) -> Result<Int32, ChangeWatchError> {
        let fd = retryOnInterrupt { ccw_pidfd_open(pid) }
        guard fd >= 0 else { return .failure(ChangeWatchError("pidfd_open", path: "pid \(pid)")) }
        return .success(fd)
    }

    /// Waits until one of `fds` is readable or `timeoutMilliseconds` pass (-1: no timeout).
    /// Returns the readable flags in `fds` order.
    static func poll(_ fds: [Int32], timeoutMilliseconds: Int32) throws(ChangeWatchError) -> [Bool] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let n = retryOnInterrupt {
            entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        }
        guard n >= 0 else { throw ChangeWatchError("poll") }
        return entries.map { $0.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 }
    }

    /// Reads what is available into `buffer`; 0 when nothing is (EAGAIN).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, call: String) throws(ChangeWatchError)
        -> Int
    {
        let n = retryOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        if n < 0 {
            if errno == EAGAIN { return 0 }
            throw ChangeWatchError(call)
        }
        return n
    }

    static func close(_ fd: Int32) {
        // Linux closes the descriptor even when close reports EINTR: never retry it.
        _ = Glibc.close(fd)
    }
}
