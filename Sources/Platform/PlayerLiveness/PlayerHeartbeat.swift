import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A running player's proof of life, kept out of the store.
///
/// `status.json` is rewritten only when something changes, so a player that plays one mix all
/// night leaves it untouched (no disk writes, no fsync). Readers still need to tell a live player
/// from one that died without a word: the player keeps `noise.heartbeat` beside its control socket
/// (`$XDG_RUNTIME_DIR/widgetweaver/`, a tmpfs; `/tmp/widgetweaver-$UID/` without one), holding its
/// pid, and refreshes the file's mtime once a second with `futimens` — one system call, no data,
/// no fsync. A status is alive while its `updatedAt` or its player's heartbeat is recent.
public final class PlayerHeartbeat: @unchecked Sendable {
    public static let fileName = "noise.heartbeat"

    /// The runtime folder shared with the control socket.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let folder = XDGDirectories(environment: environment).runtimeFolder(application: "widgetweaver")
        return URL(fileURLWithPath: folder).appendingPathComponent(fileName)
    }

    /// Seconds since the heartbeat of `pid` was last refreshed; nil when there is no heartbeat
    /// file, or it belongs to another process.
    public static func age(of pid: Int32, at url: URL = PlayerHeartbeat.url(), now: Date = Date()) -> Double? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { return nil }
        let text = String(decoding: bytes[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int32(text) == pid else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        return now.timeIntervalSince1970 - modified
    }

    public let url: URL
    private var fd: Int32 = -1
    private let lock = NSLock()

    /// Creates (or takes over) the heartbeat file for this process. The folder must exist and be
    /// private (the control server prepares it).
    public init(url: URL = PlayerHeartbeat.url()) throws {
        self.url = url
        let fd = retryOnInterrupt { open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard fd >= 0 else { throw SystemCallError("open", path: url.path) }
        do {
            try FileDescriptorIO.writeAll(fd, Array("\(getpid())\n".utf8))
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { stop() }

    /// Refreshes the mtime (one `futimens`, nothing written).
    public func beat() {
        lock.withLock {
            guard fd >= 0 else { return }
            _ = futimens(fd, nil)
        }
    }

    /// Removes the file if it is still this process's (a successor may have taken it over).
    public func stop() {
        lock.withLock {
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
            if Self.age(of: getpid(), at: url) != nil { unlink(url.path) }
        }
    }
}
