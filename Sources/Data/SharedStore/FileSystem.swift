import Foundation
import SizeLimits
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the POSIX calls the store needs, each retried on EINTR (`retryOnInterrupt`)
/// and turned into a `StoreError` whose reason is the failed call's `SystemCallError` wording.
public enum FileSystem {
    /// `mkdir -p` with mode 0700 for the directories it creates.
    /// Whether this process may create files in `folder` (or, while it does not exist yet, in its
    /// nearest existing parent): `access(W_OK)`, which says EROFS on a read-only mount even to root
    /// and EACCES in another user's folder.
    public static func isWritable(_ folder: URL) -> Bool {
        var path = folder.path
        while !path.isEmpty, path != "/", access(path, F_OK) != 0 {
            path = (path as NSString).deletingLastPathComponent
        }
        return access(path.isEmpty ? "/" : path, W_OK) == 0
    }

    public static func makeDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError("create directory", path: url.path, reason: "\(error.localizedDescription)")
        }
    }

    /// Replaces `url` atomically: the bytes go to a temporary file in the same directory, which is
    /// fsynced, renamed over the target, and the directory is fsynced. A reader sees the old file or
    /// the new one, never a torn one, even if this process is killed at any point.
    public static func atomicWrite(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
        let dir = url.deletingLastPathComponent()
        try makeDirectory(dir)
        let tmpPath = dir.appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        let fd = retryOnInterrupt { open(tmpPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw StoreError("write", path: url.path, failed: SystemCallError("open temporary file")) }
        var ok = false
        defer {
            if !ok { unlink(tmpPath) }
        }
        do {
            try FileDescriptorIO.writeAll(fd, [UInt8](data))
            _ = try retryOnInterrupt("fsync") { fsync(fd) }
        } catch let failed as SystemCallError {
            close(fd)
            throw StoreError("write", path: url.path, failed: failed)
        } catch {
            close(fd)
            throw error
        }
        close(fd)
        guard rename(tmpPath, url.path) == 0 else {
            throw StoreError("write", path: url.path, failed: SystemCallError("rename"))
        }
        ok = true
        syncDirectory(dir)
    }

    /// fsync on a directory makes a rename durable; failure here is not fatal (some file systems refuse).
    static func syncDirectory(_ dir: URL) {
        let fd = open(dir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    /// Reads a whole file, refusing files larger than `limit` bytes (imported and shared files are
    /// untrusted). Returns nil when the file does not exist.
    public static func read(_ url: URL, limit: Int = 16 << 20) throws -> Data? {
        let fd = retryOnInterrupt { open(url.path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StoreError("read", path: url.path, failed: SystemCallError("open"))
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, Int(st.st_size) > limit {
            throw StoreError(
                "read", path: url.path,
                reason: "file is \(SizeLimit(bytes: limit).exceeded(by: Int(st.st_size)))")
        }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in
                retryOnInterrupt { Glibc.read(fd, raw.baseAddress!, raw.count) }
            }
            if n < 0 { throw StoreError("read", path: url.path, failed: SystemCallError("read")) }
            if n == 0 { break }
            result.append(contentsOf: buffer[0..<n])
            if result.count > limit {
                throw StoreError("read", path: url.path, reason: "file is \(SizeLimit(bytes: limit).exceededByStream)")
            }
        }
        return result
    }

    /// Moves an unreadable file out of the way instead of overwriting it: `name.corrupt-<UTC stamp>`.
    /// Returns where it went.
    @discardableResult
    public static func setAside(_ url: URL, now: Date = Date()) throws -> URL {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var target = url.deletingLastPathComponent()
            .appendingPathComponent("\(url.lastPathComponent).corrupt-\(f.string(from: now))")
        var n = 1
        while FileManager.default.fileExists(atPath: target.path) {
            n += 1
            target = url.deletingLastPathComponent()
                .appendingPathComponent("\(url.lastPathComponent).corrupt-\(f.string(from: now))-\(n)")
        }
        guard rename(url.path, target.path) == 0 else {
            throw StoreError("set aside", path: url.path, failed: SystemCallError("rename"))
        }
        return target
    }
}
