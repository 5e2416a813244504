import CChangeWatch
import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Watches files and folders with inotify and reports, in one callback per burst, what changed.
///
/// - Files are watched through their parent folder and picked out by name: writers that replace a
///   file atomically (a temporary renamed over it) create a new inode each time, which a watch on
///   the file itself would lose.
/// - A folder that does not exist yet is waited for on its nearest existing ancestor; the watch moves
///   down as folders appear (and back up when they are deleted or moved away).
/// - Bursts are coalesced: a callback comes once events have been quiet for `debounceSeconds`, and
///   never later than `maximumDelaySeconds` after the first event of the burst.
/// - With `minuteTicks`, a callback also comes at every wall-clock minute boundary (a CLOCK_REALTIME
///   timerfd, so a suspend or a clock change does not leave a stale minute).
/// - `watchProcess` adds a process whose exit calls back (a pidfd), and `wake(at:)` a moment that
///   does (a second CLOCK_REALTIME timerfd): for what changes without a file being written, such as
///   a player that dies without updating its status.
/// - No polling: one `poll` on the inotify, timer, pidfd and stop descriptors.
///
/// Hidden entries (names starting with '.') inside watched folders are ignored: they are editors'
/// and atomic writers' temporaries. Symbolic links are not followed.
public final class ChangeWatcher: @unchecked Sendable {
    public enum StopReason: Sendable, Equatable {
        /// `stop()` was called.
        case stopped
        /// One of the signals given to `stopOnSignals` arrived.
        case signal(Int32)
    }

    public let files: Set<String>
    public let directories: Set<String>
    public let debounceSeconds: Double
    public let maximumDelaySeconds: Double
    public let minuteTicks: Bool
    public let clock: any WallClock

    private let inotifyFD: Int32
    private let stopFD: Int32
    private let timerFD: Int32
    /// The `wake(at:)` timer, and the moment it is armed for.
    private let deadlineFD: Int32
    private var deadline: Date?
    /// The `watchProcess` pidfd (-1: none), its pid, and a pid found gone when it was to be watched
    /// (reported by the next wait without waiting).
    private var processFD: Int32 = -1
    private var watchedPID: Int32?
    private var goneBeforeWatch: Int32?
    /// Watch descriptor → watched folder, and back.
    private var folderByWatch: [Int32: String] = [:]
    private var watchByFolder: [String: Int32] = [:]
    /// Targets whose own folder is watched (rather than an ancestor's): for "appeared" reports.
    private var armedTargets: Set<String> = []
    private let running = Mutex(false)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - files: files to watch (need not exist yet, nor their folders). Relative paths are taken
    ///     from the current folder.
    ///   - directories: folders whose entries to watch (non-recursive).
    ///   - debounceSeconds: quiet time that ends a burst (default 50 ms).
    ///   - maximumDelaySeconds: longest a change waits for its callback during a long burst (150 ms).
    ///   - minuteTicks: also call back at every wall-clock minute boundary.
    ///   - clock: the wall clock for minute ticks.
    /// - Throws: `ChangeWatchError` naming the call that failed (e.g. `inotify_add_watch` on a folder
    ///   that cannot be read).
    public init(
        files: [String], directories: [String] = [], debounceSeconds: Double = 0.05,
        maximumDelaySeconds: Double = 0.15, minuteTicks: Bool = false,
        clock: any WallClock = SystemWallClock()
    ) throws {
        self.files = Set(files.map(Self.absolute))
        self.directories = Set(directories.map(Self.absolute))
        self.debounceSeconds = max(0, debounceSeconds)
        self.maximumDelaySeconds = max(self.debounceSeconds, maximumDelaySeconds)
        self.minuteTicks = minuteTicks
        self.clock = clock
        // The descriptors are made in turn; when a step fails, those made already are closed again.
        var made: [Int32] = []
        func make(_ create: () throws -> Int32) throws -> Int32 {
            do {
                made.append(try create())
                return made[made.count - 1]
            } catch {
                made.forEach(Syscalls.close)
                throw error
            }
        }
        inotifyFD = try make(Syscalls.inotifyInit)
        stopFD = try make(Syscalls.eventCreate)
        timerFD = try make(Syscalls.timerCreate)
        deadlineFD = try make(Syscalls.timerCreate)
        do {
            _ = try rearm()
        } catch {
            made.forEach(Syscalls.close)
            throw error
        }
    }

    deinit {
        Syscalls.close(inotifyFD)
        Syscalls.close(stopFD)
        Syscalls.close(timerFD)
        Syscalls.close(deadlineFD)
        if processFD >= 0 { Syscalls.close(processFD) }
    }

    /// Asks `run` to return (at once if it is waiting, after the current callback otherwise). Safe
    /// from any thread; a stop requested before `run` starts makes it return immediately.
    public func stop() {
        _ = ccw_eventfd_signal(stopFD)
    }

    /// Makes `signals` (e.g. SIGINT, SIGTERM) stop this watcher: `run` then returns
    /// `.signal(number)`. The handlers only write to the stop descriptor (async-signal-safe); the
    /// previous handlers come back when `run` returns. One watcher at a time can own signals.
    public func stopOnSignals(_ signals: [Int32]) {
        signalStopFD.store(stopFD, ordering: .relaxed)
        signalCaught.store(0, ordering: .relaxed)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for s in signals {
            let previous = signal(s) { number in
                _ = signalCaught.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                _ = ccw_eventfd_signal(signalStopFD.load(ordering: .relaxed))
            }
            previousHandlers.append((s, previous))
        }
    }

    private var previousHandlers: [(Int32, sighandler_t?)] = []

    /// What `watchProcess` could arrange.
    public enum ProcessWatch: Sendable, Equatable {
        /// A pidfd watches the process: its exit calls back with `exitedProcess`.
        case watching
        /// No such process (it exited and was reaped): the next wait calls back at once with
        /// `exitedProcess`, as if it had exited then.
        case alreadyGone
        /// `pidfd_open` failed otherwise (ENOSYS before Linux 5.3, EPERM under a seccomp filter
        /// older than the call, EMFILE): nothing watches the process; the caller's other wake-ups
        /// (files, minutes, `wake(at:)`) are all it has.
        case unavailable(ChangeWatchError)
    }

    /// Watches process `pid` for its exit with a pidfd in the same `poll` as the files, in place of
    /// the process watched before. Asking again for the process already watched keeps its pidfd.
    /// Call before `run` or from its `onChange` (the watcher's thread).
    @discardableResult
    public func watchProcess(_ pid: Int32) -> ProcessWatch {
        if pid == watchedPID, processFD >= 0 { return .watching }
        stopWatchingProcess()
        switch Syscalls.pidfdOpen(pid) {
        case .success(let fd):
            processFD = fd
            watchedPID = pid
            return .watching
        case .failure(let e) where e.code == ESRCH:
            goneBeforeWatch = pid
            return .alreadyGone
        case .failure(let e):
            return .unavailable(e)
        }
    }

    /// Watches no process (an exit not yet reported is dropped). Call before `run` or from `onChange`.
    public func stopWatchingProcess() {
        if processFD >= 0 { Syscalls.close(processFD) }
        processFD = -1
        watchedPID = nil
        goneBeforeWatch = nil
    }

    /// Calls back at `date` on the system clock (not `clock`: such moments come from file times),
    /// with `deadline` set, in place of the moment asked for before; nil asks for none. A moment
    /// already past calls back at once. Call before `run` or from its `onChange`.
    public func wake(at date: Date?) throws(ChangeWatchError) {
        deadline = date
        if let date {
            // A moment at or before the epoch would read as "disarm": one just after it has passed too.
            try Syscalls.timerArm(deadlineFD, atUnixSeconds: max(date.timeIntervalSince1970, 1))
        } else {
            try Syscalls.timerDisarm(deadlineFD)
        }
    }

    /// Watches until stopped, calling `onChange` on this thread once per burst (and per minute with
    /// minute ticks). An error thrown by `onChange` ends the watch and is rethrown.
    @discardableResult
    public func run(_ onChange: (ChangeSet) throws -> Void) throws -> StopReason {
        running.withLock { $0 = true }
        defer {
            running.withLock { $0 = false }
            for (s, handler) in previousHandlers { signal(s, handler) }
            previousHandlers.removeAll()
        }
        var pending = ChangeSet()
        var burstStart: ContinuousClock.Instant?
        var lastEvent: ContinuousClock.Instant?
        let monotonic = ContinuousClock()
        var nextTick: Date?
        if minuteTicks { nextTick = try armTimer(after: clock.now()) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
        defer { buffer.deallocate() }

        while true {
            var timeoutMs: Int32 = -1
            if let burstStart, let lastEvent {
                let due = min(lastEvent + .seconds(debounceSeconds), burstStart + .seconds(maximumDelaySeconds))
                let left = monotonic.now.duration(to: due)
                let ms = Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15
                timeoutMs = Int32(max(0, ms.rounded(.up)))
            }
            if goneBeforeWatch != nil { timeoutMs = 0 }
            let ready = try Syscalls.poll(
                [stopFD, inotifyFD, timerFD, deadlineFD, processFD], timeoutMilliseconds: timeoutMs)
            if ready[0] {
                var count: UInt64 = 0
                _ = withUnsafeMutableBytes(of: &count) { try? Syscalls.read(stopFD, into: $0, call: "read(eventfd)") }
                let caught = signalCaught.exchange(0, ordering: .relaxed)
                return caught != 0 ? .signal(caught) : .stopped
            }
            if ready[1] {
                let (changes, overflowed, needsRearm) = try drainEvents(buffer)
                pending.paths.formUnion(changes)
                if overflowed {
                    pending.overflowed = true
                    pending.paths.formUnion(files)
                    pending.paths.formUnion(directories)
                }
                if needsRearm || overflowed {
                    pending.paths.formUnion(try rearm())
                }
                if !pending.paths.isEmpty {
                    let now = monotonic.now
                    if burstStart == nil { burstStart = now }
                    lastEvent = now
                }
            }
            if ready[2] {
                let (expirations, canceled) = try readTimer(timerFD)
                if let scheduled = nextTick {
                    let now = clock.now()
                    // Fired on time: the scheduled minute. Clock set: the minute it is now.
                    if canceled || expirations > 0 {
                        pending.minute = canceled ? Self.minuteStart(now) : scheduled
                        nextTick = try armTimer(after: max(now, scheduled))
                    }
                }
            }
            if ready[3] {
                // Expired, or cancelled because someone set the clock: either way the caller looks
                // again at what the moment was computed from.
                let (expirations, canceled) = try readTimer(deadlineFD)
                if let due = deadline, canceled || expirations > 0 {
                    pending.deadline = due
                    deadline = nil
                }
            }
            if ready[4], let pid = watchedPID {
                pending.exitedProcess = pid
                Syscalls.close(processFD)
                processFD = -1
                watchedPID = nil
            }
            if let pid = goneBeforeWatch {
                pending.exitedProcess = pid
                goneBeforeWatch = nil
            }
            let burstDue: Bool
            if let burstStart, let lastEvent {
                let now = monotonic.now
                burstDue =
                    now >= lastEvent + .seconds(debounceSeconds) || now >= burstStart + .seconds(maximumDelaySeconds)
            } else {
                burstDue = false
            }
            if burstDue || pending.minute != nil || pending.deadline != nil || pending.exitedProcess != nil {
                let delivered = pending
                pending = ChangeSet()
                burstStart = nil
                lastEvent = nil
                if !delivered.isEmpty { try onChange(delivered) }
            }
        }
    }

    /// Runs `run` on a thread of its own. Errors (a failed system call, or one thrown by
    /// `onChange`) go to `onError`; `stop()` then `wait()` end it.
    public func start(
        _ onChange: @escaping @Sendable (ChangeSet) -> Void,
        onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        start(running: { [self] in try run(onChange) }, onError: onError)
    }

    /// Runs `body` on a thread of its own, for a caller whose loop is more than `run`: work that
    /// must happen on the watcher's thread before it (`watchProcess`, `wake(at:)`, a first draw),
    /// then `run`. Errors thrown by `body` go to `onError`; `stop()` then `wait()` end it.
    public func start(
        running body: @escaping @Sendable () throws -> Void,
        onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        let thread = Thread { [self] in
            do { try body() } catch { onError(error) }
            finished.signal()
        }
        thread.name = "ChangeWatcher"
        self.thread = thread
        thread.start()
    }

    /// Waits for the thread `start` made to finish (after `stop()`); returns at once without one.
    public func wait() {
        guard thread != nil else { return }
        finished.wait()
        thread = nil
    }

    // MARK: - Watches

    private static let folderMask: UInt32 = UInt32(
        IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM
            | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// The folder each target needs watched when everything exists.
    private var targetFolders: [(target: String, folder: String)] {
        files.map { ($0, Self.parent($0)) } + directories.map { ($0, $0) }
    }

    /// Puts a watch on each target's folder, or on its nearest existing ancestor, and drops watches
    /// no longer needed. Returns targets that became directly watched and exist: they appeared.
    /// A target whose folder got a new watch counts too: the folder was deleted and made again
    /// (perhaps before its deletion was even read), so what is in it now was never seen.
    private func rearm() throws(ChangeWatchError) -> Set<String> {
        // A folder made between a failed watch on it and the watch on its parent raises no event
        // on either (the classic inotify race: `mkdir -p a/b` while the watch moves from the
        // grandparent to `a`): walk again until no folder on a watched path appeared meanwhile.
        var appeared: Set<String> = []
        for _ in 0..<16 {
            let (found, raced) = try rearmOnce()
            appeared.formUnion(found)
            if !raced { break }
        }
        return appeared
    }

    private func rearmOnce() throws(ChangeWatchError) -> (appeared: Set<String>, raced: Bool) {
        var raced = false
        var newFolderByWatch: [Int32: String] = [:]
        var newWatchByFolder: [String: Int32] = [:]
        var nowArmed: Set<String> = []
        var rewatched: Set<String> = []
        for (target, folder) in targetFolders {
            // The nearest existing folder on the way to the target, watched once per pass.
            var candidate = folder
            var wd: Int32 = -1
            while wd < 0 {
                if let cached = newWatchByFolder[candidate] {
                    wd = cached
                    break
                }
                do {
                    wd = try Syscalls.inotifyAddWatch(inotifyFD, candidate, Self.folderMask)
                    newFolderByWatch[wd] = candidate
                    newWatchByFolder[candidate] = wd
                } catch let e where e.code == ENOENT || e.code == ENOTDIR {
                    guard candidate != "/" else { throw e }
                    candidate = Self.parent(candidate)
                }
            }
            if candidate == folder {
                nowArmed.insert(target)
                if watchByFolder[folder] != wd { rewatched.insert(target) }
            } else if access(Self.childToward(folder, from: candidate), F_OK) == 0 {
                raced = true
            }
        }
        for (wd, _) in folderByWatch where newFolderByWatch[wd] == nil {
            Syscalls.inotifyRemoveWatch(inotifyFD, wd)
        }
        folderByWatch = newFolderByWatch
        watchByFolder = newWatchByFolder
        let appeared = nowArmed.subtracting(armedTargets).union(rewatched).filter { access($0, F_OK) == 0 }
        armedTargets = nowArmed
        return (appeared, raced)
    }

    /// The folder one level below `ancestor` on the way to `path`.
    static func childToward(_ path: String, from ancestor: String) -> String {
        let rest = path.dropFirst(ancestor == "/" ? 1 : ancestor.count + 1)
        let first = rest.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        return ancestor == "/" ? "/" + first : ancestor + "/" + first
    }

    /// Reads every queued event. Returns the changed target paths, whether the queue overflowed and
    /// whether the watches must be re-armed (a folder appeared, vanished or moved).
    private func drainEvents(_ buffer: UnsafeMutableRawBufferPointer) throws(ChangeWatchError) -> (
        Set<String>, Bool, Bool
    ) {
        var changed: Set<String> = []
        var overflowed = false
        var needsRearm = false
        while true {
            let n = try Syscalls.read(inotifyFD, into: buffer, call: "read(inotify)")
            if n == 0 { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= n {
                let base = buffer.baseAddress! + offset
                let wd = base.loadUnaligned(fromByteOffset: 0, as: Int32.self)
                let mask = base.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
                let nameLength = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                var name = ""
                if nameLength > 0 {
                    let bytes = UnsafeRawBufferPointer(start: base + headerSize, count: nameLength)
                    let end = bytes.firstIndex(of: 0) ?? nameLength
                    name = String(decoding: bytes[0..<end], as: UTF8.self)
                }
                offset += headerSize + nameLength
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflowed = true
                    continue
                }
                guard let folder = folderByWatch[wd] else { continue }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    // The folder went away (or moved): whatever was watched in it is gone from its path.
                    needsRearm = true
                    for (target, targetFolder) in targetFolders where targetFolder == folder { changed.insert(target) }
                    continue
                }
                guard !name.isEmpty else { continue }
                let path = folder == "/" ? "/" + name : folder + "/" + name
                if files.contains(path) { changed.insert(path) }
                if directories.contains(folder) && !name.hasPrefix(".") { changed.insert(path) }
                if mask & UInt32(IN_ISDIR) != 0 {
                    // A folder on the way to a target appeared or left: move the watches.
                    let prefix = path + "/"
                    if targetFolders.contains(where: { $0.folder == path || $0.folder.hasPrefix(prefix) }) {
                        needsRearm = true
                    }
                }
            }
        }
        return (changed, overflowed, needsRearm)
    }

    // MARK: - Minute ticks

    /// Arms the timer for the first minute boundary after `date` (watcher clock); returns it.
    private func armTimer(after date: Date) throws(ChangeWatchError) -> Date {
        var boundary = Self.minuteStart(date).addingTimeInterval(60)
        let now = clock.now()
        if boundary <= now { boundary = Self.minuteStart(now).addingTimeInterval(60) }
        // The timer runs on the real clock: the boundary shifted by the watcher clock's offset (none
        // for the system clock, so the expiry is exactly the boundary).
        let realExpiry = Date().timeIntervalSince1970 + boundary.timeIntervalSince(now)
        try Syscalls.timerArm(timerFD, atUnixSeconds: realExpiry)
        return boundary
    }

    /// Expirations since the last read, and whether someone set the clock (ECANCELED).
    private func readTimer(_ fd: Int32) throws(ChangeWatchError) -> (UInt64, Bool) {
        var expirations: UInt64 = 0
        let n = retryOnInterrupt {
            withUnsafeMutableBytes(of: &expirations) { Glibc.read(fd, $0.baseAddress, $0.count) }
        }
        if n < 0 {
            if errno == ECANCELED { return (0, true) }
            if errno == EAGAIN { return (0, false) }
            throw ChangeWatchError("read(timerfd)")
        }
        return (expirations, false)
    }

    static func minuteStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    // MARK: - Paths

    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}

/// The stop descriptor of the watcher that owns the signals, and the first signal caught.
private let signalStopFD = Atomic<Int32>(-1)
private let signalCaught = Atomic<Int32>(0)
