import Foundation
import SystemCalls
import Testing

/// Handler for the interrupt test: does nothing, so the only effect of the signal is that a
/// blocked `read` returns -1 with EINTR (the handler is installed without SA_RESTART).
private func ignoreSignal(_: Int32) {}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

@Suite("SystemCalls")
struct SystemCallsTests {
    @Test("a failed open is reported as the call, the path, strerror and errno")
    func openFailureWording() throws {
        let path = "/nonexistent-\(getpid())/missing.json"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        #expect(fd == -1)
        let error = SystemCallError("open", path: path)
        #expect(error.code == ENOENT)
        #expect(error.description == "open \(path): No such file or directory (errno 2)")
    }

    @Test("without a path the wording drops it")
    func wordingWithoutPath() {
        #expect(SystemCallError("fsync", code: EIO).description == "fsync: Input/output error (errno 5)")
        #expect(SystemCallError.reason(EACCES) == "Permission denied (errno 13)")
    }

    @Test("the throwing form names the call and path it was given")
    func throwingForm() {
        let path = "/nonexistent-\(getpid())/folder"
        #expect(throws: SystemCallError("mkdir", path: path, code: ENOENT)) {
            _ = try retryOnInterrupt("mkdir", path: path) { mkdir(path, 0o700) }
        }
    }

    /// A read blocked on an empty pipe is interrupted by a signal whose handler was installed
    /// without SA_RESTART, so the kernel returns EINTR; `retryOnInterrupt` must call read again
    /// and return the byte written afterwards. The call counter shows the interruption happened.
    @Test("a read interrupted by a signal is retried and returns the data")
    func readInterruptedBySignal() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = ignoreSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: the blocked read fails with EINTR
        var previous = sigaction()
        #expect(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }
        // The test runner's threads may block signals; this one must receive it.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGUSR2)
        var previousMask = sigset_t()
        #expect(pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }

        let reader = pthread_self()
        let calls = Counter()
        let writeEnd = ends[1]
        let sender = Thread {
            // Signal until the reader has been interrupted at least once (its second call), then
            // give it the byte. Bounded: 5 s.
            let deadline = Date().addingTimeInterval(5)
            while calls.current < 2 && Date() < deadline {
                pthread_kill(reader, SIGUSR2)
                usleep(20_000)  // the signals' spacing: each must find the reader inside read()
            }
            var byte: UInt8 = 0x2A
            _ = write(writeEnd, &byte, 1)
        }
        sender.start()

        var received: UInt8 = 0
        let n = retryOnInterrupt { () -> Int in
            calls.increment()
            return read(ends[0], &received, 1)
        }
        #expect(n == 1)
        #expect(received == 0x2A)
        #expect(calls.current >= 2, "read was never interrupted, so the retry was not exercised")
    }

    @Test("writeAll and readToEnd move every byte through a pipe, and readToEnd honours its limit")
    func descriptorLoops() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        try FileDescriptorIO.writeAll(ends[1], bytes)
        close(ends[1])
        #expect(try FileDescriptorIO.readToEnd(ends[0], limit: 1000) == bytes)
        close(ends[0])

        #expect(pipe(&ends) == 0)
        try FileDescriptorIO.writeAll(ends[1], bytes)
        close(ends[1])
        #expect(try FileDescriptorIO.readToEnd(ends[0], limit: 999) == nil)
        close(ends[0])

        #expect(throws: SystemCallError("write", path: "closed", code: EBADF)) {
            try FileDescriptorIO.writeAll(ends[1], bytes, path: "closed")
        }
    }

    @Test("XDG directories: set absolute values win, relative or missing ones fall back under HOME")
    func xdgDirectories() {
        let set = XDGDirectories(environment: [
            "HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s", "XDG_DATA_HOME": "/d",
            "XDG_RUNTIME_DIR": "/run/user/1",
        ])
        #expect(set.configHome == "/c")
        #expect(set.stateHome == "/s")
        #expect(set.dataHome == "/d")
        #expect(set.runtimeFolder(application: "widgetweaver") == "/run/user/1/widgetweaver")

        let unset = XDGDirectories(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative"])
        #expect(unset.configHome == "/home/u/.config")
        #expect(unset.stateHome == "/home/u/.local/state")
        #expect(unset.dataHome == "/home/u/.local/share")
        #expect(unset.runtimeDirectory == nil)
        #expect(unset.runtimeFolder(application: "widgetweaver") == "/tmp/widgetweaver-\(getuid())")
    }

    @Test("XDG cache and data search folders: absolute entries only, the specification's defaults otherwise")
    func xdgCacheAndDataDirectories() {
        let set = XDGDirectories(environment: [
            "HOME": "/home/u", "XDG_CACHE_HOME": "/k", "XDG_DATA_DIRS": "/opt/share:relative::/usr/share",
        ])
        #expect(set.cacheHome == "/k")
        #expect(set.dataDirectories == ["/opt/share", "/usr/share"])
        let unset = XDGDirectories(environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "cache", "XDG_DATA_DIRS": ""])
        #expect(unset.cacheHome == "/home/u/.cache")
        #expect(unset.dataDirectories == ["/usr/local/share", "/usr/share"])
    }
}
