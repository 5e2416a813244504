import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory, exclusive lock (`flock`) on a lock file in the store's `.locks/` folder. Every
/// read-modify-write of a store file runs inside one, so concurrent writers from several processes
/// lose nothing. The kernel drops the lock if the holder dies.
public struct FileLock: Sendable {
    public let url: URL

    public init(root: StoreRoot, name: String) {
        url = root.locks.appendingPathComponent("\(name).lock")
    }

    public func withLock<T>(_ body: () throws -> T) throws -> T {
        try FileSystem.makeDirectory(url.deletingLastPathComponent())
        let fd = retryOnInterrupt { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw StoreError("lock", path: url.path, failed: SystemCallError("open")) }
        defer { close(fd) }
        // flock blocks until the other holder lets go; a signal meanwhile must not drop the lock attempt.
        if retryOnInterrupt({ flock(fd, LOCK_EX) }) != 0 {
            throw StoreError("lock", path: url.path, failed: SystemCallError("flock"))
        }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }

    /// Runs `body` under the lock, or `readOnly` without it when this process cannot write the
    /// store at all (a read-only mount, another user's folder): a reader must not fail for want
    /// of a lock only writers need, and nothing it could write would land anyway.
    public func withLock<T>(_ body: () throws -> T, orReadOnly readOnly: () throws -> T) throws -> T {
        FileSystem.isWritable(url.deletingLastPathComponent()) ? try withLock(body) : try readOnly()
    }
}
