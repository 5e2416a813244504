#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Starting other programs (a detached player, `systemctl --user daemon-reload`, `xdg-open`, a
/// widget's command from the desktop host) with posix_spawn: the one wrapper of it.
/// Not Foundation's `Process`: its child monitor on Linux was seen missing a child's exit.
public enum Spawn {
    /// glibc's POSIX_SPAWN_SETSID (spawn.h, only visible with _GNU_SOURCE, which Glibc's Swift
    /// module does not define): the child starts a new session, so it survives its parent's
    /// terminal or status bar going away.
    static let setsidFlag: Int32 = 0x80

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        case devNull
        /// A file created 0600 and truncated.
        case file(String)
        /// A descriptor of the parent's (e.g. a pipe's end), duplicated onto the stream.
        case descriptor(Int32)
    }

    /// Starts `executable` with `arguments`. Standard input is /dev/null; standard output goes to
    /// /dev/null and standard error to `stderrPath` (created 0600, truncated) or /dev/null.
    /// Signals start with their default handlers and an empty mask. Returns the child's pid.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stderrPath: String? = nil, newSession: Bool = false
    ) throws(Failure) -> pid_t {
        try start(
            executable, arguments, environment: environment, stderr: stderrPath.map { .file($0) } ?? .devNull,
            newSession: newSession)
    }

    /// Starts `executable` with each standard stream where it is told to go, and `closing` closed in the
    /// child (the parent's other ends of pipes). Signals start with their default handlers and an empty
    /// mask (callers' threads may block signals, and children inherit the mask). Returns the child's pid.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdin: Stream = .devNull, stdout: Stream = .devNull, stderr: Stream = .devNull, closing: [Int32] = [],
        newSession: Bool = false
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .devNull: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
        for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newSession { flags |= setsidFlag }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw Failure(description: "cannot start \(executable): \(SystemCallError.reason(rc))") }
        return pid
    }

    /// The child's exit status (or 128 + signal) if it has exited, nil while it runs.
    public static func exitStatus(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let r = retryOnInterrupt { waitpid(pid, &status, WNOHANG) }
        if r == -1 { return -1 }  // not our child any more (reaped elsewhere)
        guard r == pid else { return nil }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Waits for the child and returns its exit status (or 128 + signal).
    @discardableResult
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        let r = retryOnInterrupt { waitpid(pid, &status, 0) }
        if r == -1 { return -1 }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Reaps `pid` on a background thread whenever it exits, so a long-running parent (a watcher, a
    /// server) keeps no zombie. A parent that exits first leaves the child to init, which reaps it.
    public static func reapInBackground(_ pid: pid_t) {
        let box = UnsafeMutablePointer<pid_t>.allocate(capacity: 1)
        box.initialize(to: pid)
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                let box = argument!.assumingMemoryBound(to: pid_t.self)
                let pid = box.pointee
                box.deallocate()
                Spawn.wait(pid)
                return nil
            }, box)
        if started == 0 { pthread_detach(thread) } else { box.deallocate() }
    }

    /// The path of the first executable called `name` in `$PATH`.
    public static func which(_ name: String, environment: [String: String]) -> String? {
        for dir in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        where dir.hasPrefix("/") {
            let candidate = dir.hasSuffix("/") ? "\(dir)\(name)" : "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
