import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ChangeWatch

/// Real inotify on real folders: files written the way our store writes them (temporary file,
/// then rename) and the way editors and shells do.
@Suite(.serialized) struct ChangeWatcherTests {
    /// Collects callbacks from a watcher running on its own thread.
    final class Collector: Sendable {
        let sets = Mutex<[(ChangeSet, ContinuousClock.Instant)]>([])
        let errors = Mutex<[String]>([])
        func add(_ set: ChangeSet) { sets.withLock { $0.append((set, ContinuousClock.now)) } }
        var all: [ChangeSet] { sets.withLock { $0.map(\.0) } }
        var count: Int { sets.withLock { $0.count } }

        /// Waits up to `seconds` for a callback matching `predicate`; returns it and when it came.
        /// Only callbacks from index `from` on count.
        func wait(_ seconds: Double = 3, from: Int = 0, _ predicate: (ChangeSet) -> Bool) -> (
            ChangeSet, ContinuousClock.Instant
        )? {
            Wait.until(seconds, interval: 0.002) { sets.withLock { $0.dropFirst(from).first { predicate($0.0) } } }
        }
    }

    /// `watcher.run` (doing nothing on a change) on a thread of its own: which thread, and what
    /// it returned.
    final class RunOnAThread: Sendable {
        let result = Mutex<ChangeWatcher.StopReason?>(nil)
        let runner = Mutex<Int32?>(nil)

        init(_ watcher: ChangeWatcher) {
            let thread = Thread { [self] in
                runner.withLock { $0 = ThreadState.currentID() }
                let r = try? watcher.run { _ in }
                result.withLock { $0 = r }
            }
            thread.start()
        }
    }

    static func scratch() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Resolve /tmp links so reported paths compare equal.
        return URL(fileURLWithPath: url.path).resolvingSymlinksInPath().path
    }

    /// Writes like `FileSystem.atomicWrite`: a hidden temporary in the same folder, renamed over.
    static func atomicWrite(_ text: String, to path: String) throws {
        let tmp =
            ChangeWatcher.parent(path) + "/." + (path as NSString).lastPathComponent
            + ".tmp-\(UInt32.random(in: 0...UInt32.max))"
        try Data(text.utf8).write(to: URL(fileURLWithPath: tmp))
        #expect(rename(tmp, path) == 0)
    }

    /// Stops `watcher` and waits for its thread to end.
    static func stop(_ watcher: ChangeWatcher) {
        watcher.stop()
        watcher.wait()
    }

    func started(_ watcher: ChangeWatcher) -> Collector {
        let collector = Collector()
        watcher.start({ collector.add($0) }, onError: { e in collector.errors.withLock { $0.append("\(e)") } })
        return collector
    }

    /// The rig of most tests here: a scratch folder, a watcher on `name` in it (a file, or a folder
    /// whose entries are reported), started with a collector; `initial`, when given, is written to the
    /// file before the watch begins. The watcher is stopped and the folder removed when `body` returns.
    func watching(
        _ name: String, isFolder: Bool = false, initial: String? = nil,
        _ body: (_ dir: String, _ path: String, _ collector: Collector) throws -> Void
    ) throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/" + name
        if let initial { try Data(initial.utf8).write(to: URL(fileURLWithPath: path)) }
        let watcher = try isFolder ? ChangeWatcher(files: [], directories: [path]) : ChangeWatcher(files: [path])
        let collector = started(watcher)
        defer { Self.stop(watcher) }
        try body(dir, path, collector)
    }

    @Test func atomicRenameIntoAWatchedFolderFires() throws {
        try watching("status.json") { dir, file, collector in
            let before = ContinuousClock.now
            try Self.atomicWrite("{}", to: file)
            let hit = try #require(collector.wait { $0.paths.contains(file) })
            // Generous bound (shared CPUs): the design budget is 50 ms quiet time + render.
            #expect(before.duration(to: hit.1) < .milliseconds(1000))
            #expect(hit.0.paths == [file], "temporaries must not be reported: \(hit.0.paths)")
            print("ChangeWatch: atomic rename reported after \(before.duration(to: hit.1))")
        }
    }

    @Test func inPlaceWritesAndDeletesFire() throws {
        try watching("vars.json", initial: "1") { dir, file, collector in
            // An in-place write (open, write, close), as `echo 2 > vars.json` does.
            let fd = open(file, O_WRONLY | O_TRUNC)
            #expect(fd >= 0)
            _ = write(fd, "2", 1)
            close(fd)
            #expect(collector.wait { $0.paths.contains(file) } != nil)
            let seen = collector.count
            #expect(unlink(file) == 0)
            #expect(collector.wait(from: seen) { _ in true } != nil, "a deleted file is a change")
        }
    }

    @Test func unrelatedFilesDoNotFire() throws {
        try watching("last-mix.json") { dir, file, collector in
            try Self.atomicWrite("x", to: dir + "/other.json")
            try Data("y".utf8).write(to: URL(fileURLWithPath: dir + "/last-mix.json.bak"))
            try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
            // That nothing comes is the check: a quiet window has to pass.
            #expect(throughout(0.4) { collector.count == 0 }, "\(collector.all)")
            try Self.atomicWrite("z", to: file)
            let hit = try #require(collector.wait { !$0.paths.isEmpty })
            #expect(hit.0.paths == [file])
        }
    }

    @Test func aBurstOfWritesGivesFewCallbacks() throws {
        try watching("status.json") { dir, file, collector in
            let start = ContinuousClock.now
            for i in 0..<100 { try Self.atomicWrite("\(i)", to: file) }
            let writing = start.duration(to: .now)
            // The count once the burst is over is the check: none for 0.5 s, past the 150 ms maximum delay.
            let callbacks = steady(for: 0.5) { collector.count } ?? collector.count
            print("ChangeWatch: 100 atomic writes in \(writing) gave \(callbacks) callback(s)")
            #expect(callbacks >= 1)
            // One callback per 150 ms of burst at most (the maximum delay), plus the trailing one.
            let bound =
                Int(Double(writing.components.seconds) / 0.15 + Double(writing.components.attoseconds) / 1.5e17) + 2
            #expect(callbacks <= min(bound, 10), "\(callbacks) callbacks for a burst of \(writing)")
            #expect(collector.all.allSatisfy { $0.paths == [file] })
        }
    }

    @Test func foldersCreatedLaterAreFollowed() throws {
        try watching("store/snapshots/weather.json") { dir, file, collector in
            try FileManager.default.createDirectory(atPath: dir + "/store/snapshots", withIntermediateDirectories: true)
            try Self.atomicWrite("{}", to: file)
            #expect(collector.wait { $0.paths.contains(file) } != nil)
            // Deleted with its folder, then made again: still followed.
            try FileManager.default.removeItem(atPath: dir + "/store")
            // The folder's removal is not a change of the file: the count once no callback has come for
            // 0.2 s (past the 150 ms maximum delay).
            let seen = steady(for: 0.2) { collector.count } ?? collector.count
            try FileManager.default.createDirectory(atPath: dir + "/store/snapshots", withIntermediateDirectories: true)
            try Self.atomicWrite("{\"t\":1}", to: file)
            #expect(collector.wait(from: seen) { _ in true } != nil)
            #expect(collector.all.last?.paths == [file])
        }
    }

    @Test func watchedFoldersReportTheirEntries() throws {
        try watching("images", isFolder: true) { dir, images, collector in
            try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: false)
            #expect(collector.wait { $0.paths.contains(images) } != nil, "the folder appearing is reported")
            try Self.atomicWrite("png", to: images + "/photo.png")
            let hit = try #require(collector.wait { $0.paths.contains(images + "/photo.png") })
            #expect(!hit.0.paths.contains { ($0 as NSString).lastPathComponent.hasPrefix(".") })
        }
    }

    @Test func minuteTicksComeAtTheBoundary() throws {
        // 12:00:59.6 by the watcher's clock: the next minute begins 0.4 s from now.
        let minute = Double(1_795_000_000 / 60 * 60)
        let start = Date(timeIntervalSince1970: minute + 59.6)
        let clock = OffsetWallClock(startingAt: start)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try ChangeWatcher(files: [dir + "/none.json"], minuteTicks: true, clock: clock)
        let began = ContinuousClock.now
        let collector = started(watcher)
        defer { Self.stop(watcher) }
        let hit = try #require(collector.wait(5) { $0.minute != nil }, "\(collector.errors.withLock { $0 })")
        #expect(hit.0.minute == Date(timeIntervalSince1970: minute + 60))
        #expect(hit.0.paths.isEmpty)
        let waited = began.duration(to: hit.1)
        #expect(waited >= .milliseconds(350) && waited < .seconds(3), "\(waited)")
        #expect(ChangeWatcher.minuteStart(start) == Date(timeIntervalSince1970: minute))
    }

    @Test func stopEndsRunPromptly() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try ChangeWatcher(files: [dir + "/a"], minuteTicks: true)
        let run = Self.RunOnAThread(watcher)
        // A stop while run() waits (in poll) is what is tested (a stop before run() is checked below).
        #expect(ThreadState.waitUntilInPoll { run.runner.withLock { $0 } }, "run() never waited in poll")
        let asked = ContinuousClock.now
        watcher.stop()
        _ = eventually(3) { run.result.withLock { $0 } != nil }
        #expect(run.result.withLock { $0 } == .stopped)
        print("ChangeWatch: run returned \(asked.duration(to: .now)) after stop()")

        // A stop asked for before run starts is not lost.
        let early = try ChangeWatcher(files: [dir + "/b"])
        early.stop()
        #expect(try early.run { _ in } == .stopped)
    }

    @Test func signalsStopTheWatcher() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try ChangeWatcher(files: [dir + "/a"])
        watcher.stopOnSignals([SIGUSR2])
        let run = Self.RunOnAThread(watcher)
        // A signal while run() waits (in poll) is what is tested.
        #expect(ThreadState.waitUntilInPoll { run.runner.withLock { $0 } }, "run() never waited in poll")
        kill(getpid(), SIGUSR2)
        _ = eventually(3) { run.result.withLock { $0 } != nil }
        #expect(run.result.withLock { $0 } == .signal(SIGUSR2))
    }

    @Test func aCallbackErrorEndsTheWatch() throws {
        struct Boom: Error {}
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/a.json"
        let watcher = try ChangeWatcher(files: [file])
        let thrown = Mutex<Bool>(false)
        watcher.start({ _ in }, onError: { _ in })
        watcher.stop()
        watcher.wait()
        let second = try ChangeWatcher(files: [file])
        let runner = Mutex<Int32?>(nil)
        let t = Thread {
            runner.withLock { $0 = ThreadState.currentID() }
            do { try second.run { _ in throw Boom() } } catch is Boom { thrown.withLock { $0 = true } } catch {}
        }
        t.start()
        // A change while run() waits (in poll) is what is tested.
        #expect(ThreadState.waitUntilInPoll { runner.withLock { $0 } }, "run() never waited in poll")
        try Self.atomicWrite("1", to: file)
        _ = eventually(3) { thrown.withLock { $0 } }
        #expect(thrown.withLock { $0 })
    }

    /// Starts `/bin/sleep 30` (a real process to watch); the caller kills and reaps it.
    static func sleeper() throws -> pid_t {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sleep", "30"]
        let argv = words.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let rc = posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ)
        try #require(rc == 0, "posix_spawn /bin/sleep: \(String(cString: strerror(rc)))")
        return pid
    }

    static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    @Test func aWatchedProcessExitCallsBack() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pid = try Self.sleeper()
        var reaped = false
        defer {
            if !reaped {
                kill(pid, SIGKILL)
                Self.reap(pid)
            }
        }
        let watcher = try ChangeWatcher(files: [dir + "/status.json"], minuteTicks: true)
        try #require(watcher.watchProcess(pid) == .watching, "pidfd_open is unavailable on this kernel")
        let collector = started(watcher)
        defer { Self.stop(watcher) }
        // That nothing comes is the check: a quiet window has to pass.
        #expect(throughout(0.2) { collector.count == 0 }, "nothing happened yet: \(collector.all)")
        let killed = ContinuousClock.now
        kill(pid, SIGKILL)
        // Not reaped yet: the pidfd is readable as soon as the process has exited (a zombie).
        let hit = try #require(collector.wait(2) { $0.exitedProcess == pid }, "\(collector.errors.withLock { $0 })")
        let waited = killed.duration(to: hit.1)
        print("ChangeWatch: a SIGKILLed process's exit was reported \(waited) after kill")
        #expect(waited < .milliseconds(500), "\(waited)")
        #expect(hit.0.paths.isEmpty && hit.0.minute == nil)
        Self.reap(pid)
        reaped = true

        // A process that is already gone (exited and reaped) is reported at once, as if it exited then.
        let second = try ChangeWatcher(files: [dir + "/status.json"])
        #expect(second.watchProcess(pid) == .alreadyGone)
        let early = started(second)
        defer { Self.stop(second) }
        #expect(early.wait(2) { $0.exitedProcess == pid } != nil)
    }

    @Test func watchingAnotherProcessOrNoneReplacesTheWatch() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try Self.sleeper(), second = try Self.sleeper(), third = try Self.sleeper()
        defer {
            for p in [first, second, third] {
                kill(p, SIGKILL)
                Self.reap(p)
            }
        }
        let watcher = try ChangeWatcher(files: [dir + "/a"])
        #expect(watcher.watchProcess(first) == .watching)
        #expect(watcher.watchProcess(second) == .watching)
        let collector = started(watcher)
        defer { Self.stop(watcher) }
        kill(first, SIGKILL)
        // That nothing comes is the check: a quiet window has to pass.
        #expect(throughout(0.3) { collector.count == 0 }, "the first process is no longer watched: \(collector.all)")
        kill(second, SIGKILL)
        #expect(collector.wait(2) { $0.exitedProcess == second } != nil)

        let unwatched = try ChangeWatcher(files: [dir + "/b"])
        #expect(unwatched.watchProcess(third) == .watching)
        unwatched.stopWatchingProcess()
        let none = started(unwatched)
        defer { Self.stop(unwatched) }
        kill(third, SIGKILL)
        // That nothing comes is the check: a quiet window has to pass.
        #expect(throughout(0.3) { none.count == 0 }, "\(none.all)")
    }

    @Test func wakeAtCallsBackAtThatMomentOnce() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try ChangeWatcher(files: [dir + "/a"])
        let due = Date().addingTimeInterval(0.4)
        try watcher.wake(at: due)
        let began = ContinuousClock.now
        let collector = started(watcher)
        defer { Self.stop(watcher) }
        let hit = try #require(collector.wait(3) { $0.deadline != nil }, "\(collector.errors.withLock { $0 })")
        #expect(hit.0.deadline == due && hit.0.paths.isEmpty)
        let waited = began.duration(to: hit.1)
        #expect(waited >= .milliseconds(350) && waited < .seconds(2), "\(waited)")
        // That nothing comes is the check: a quiet window has to pass.
        #expect(throughout(0.5) { collector.count == 1 }, "one moment, one callback: \(collector.all)")

        // A moment withdrawn (nil) never calls back.
        let quiet = try ChangeWatcher(files: [dir + "/b"])
        try quiet.wake(at: Date().addingTimeInterval(0.3))
        try quiet.wake(at: nil)
        let none = started(quiet)
        defer { Self.stop(quiet) }
        // That nothing comes is the check: a quiet window has to pass.
        #expect(throughout(0.7) { none.count == 0 }, "\(none.all)")
    }

    @Test func unreadableFoldersAreNamedInTheError() throws {
        // Root reads everything: only meaningful for ordinary users, so check the error shape instead.
        let e = ChangeWatchError("inotify_add_watch", path: "/x", code: EACCES)
        #expect(e.description == "inotify_add_watch(/x) failed: Permission denied")
        #expect(ChangeWatcher.absolute("/a/./b/../c/") == "/a/c")
        #expect(ChangeWatcher.parent("/a") == "/" && ChangeWatcher.parent("/a/b") == "/a")
    }
}
