import Foundation
import SharedStore
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command's `-o`/`--output` goes, for both tools (`noise render`, `weaver render`):
/// standard output for `-`; pipes, devices and sockets written straight through as a stream; a
/// regular file (new or existing) written beside itself and renamed over at the end, so a failed
/// or interrupted write never truncates or deletes what was there. A symbolic link is followed:
/// the link stays and its target is replaced. A folder or a missing parent folder is refused with
/// what to type instead (a missing folder is more often a typo than a wish).
public struct OutputTarget: Sendable {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// As typed.
    public let path: String
    /// Where the bytes finally live (the link's target for a symbolic link).
    public let resolvedPath: String
    /// `-`, a FIFO, a character device or a socket: written as it comes, nothing renamed.
    public let isStream: Bool
    public var isStandardOutput: Bool { path == "-" }

    /// - Parameters:
    ///   - option: how the option is named in messages (`'--output'`, `-o`).
    ///   - exampleName: a file name to suggest when `path` is a folder (`sleep.wav`).
    public init(path: String, option: String = "'--output'", exampleName: String) throws(Failure) {
        self.path = path
        guard path != "-" else {
            (resolvedPath, isStream) = (path, true)
            return
        }
        var resolved = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let real = realpath(path, nil) {
            resolved = String(cString: real)
            free(real)
        }
        resolvedPath = resolved
        if stat(resolved, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: isStream = false
            case S_IFDIR:
                let example = URL(fileURLWithPath: path).appendingPathComponent(exampleName).path
                throw Failure("\(option) \(path) is a folder; give a file name, e.g. -o \(example)")
            default: isStream = true
            }
        } else {
            isStream = false
            let folder = URL(fileURLWithPath: resolved).deletingLastPathComponent().path
            var folderInfo = stat()
            guard stat(folder, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
                throw Failure("\(option) \(path): the folder \(folder) does not exist; make it first")
            }
        }
    }

    /// The file a streaming writer fills before `commit` renames it into place (beside the
    /// target, so the rename stays on one file system); empty for a stream.
    public var temporaryPath: String {
        guard !isStream else { return "" }
        // Split by hand: URL's path handling costs a `weaver render` ~0.2 ms of first-use type
        // lookups (issue 41 item 25). A relative path stays relative, to the same folder.
        let nameStart = resolvedPath.lastIndex(of: "/").map { resolvedPath.index(after: $0) } ?? resolvedPath.startIndex
        return "\(resolvedPath[..<nameStart]).\(resolvedPath[nameStart...]).partial-\(getpid())"
    }

    /// Opens a stream target for writing (standard output is descriptor 1, not owned).
    public func openStream() throws(Failure) -> (descriptor: Int32, owned: Bool) {
        if isStandardOutput { return (1, false) }
        let fd = retryOnInterrupt { open(resolvedPath, O_WRONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure("cannot write \(path): \(SystemCallError.reason(errno))") }
        return (fd, true)
    }

    /// Moves what was written to `temporaryPath` into place.
    public func commit() throws(Failure) {
        guard !isStream else { return }
        let temporary = temporaryPath
        guard rename(temporary, resolvedPath) == 0 else {
            let reason = SystemCallError.reason(errno)
            unlink(temporary)
            throw Failure("cannot move the output into place at \(path): \(reason)")
        }
    }

    /// Removes a partial file after a failed write.
    public func abandon() {
        if !isStream { unlink(temporaryPath) }
    }

    /// Writes a whole output at once: to `temporaryPath` (mode 0644) renamed into place for a
    /// file, straight for a stream. Not fsynced (as `FileSystem.atomicWrite` does for the store's
    /// own files): a rendition is made again by running the command again, the rename alone keeps
    /// readers from a torn file, and the two fsyncs were most of a small `weaver render`'s wall
    /// time on ext4 (issue 41 item 25).
    public func write(_ bytes: [UInt8]) throws {
        guard isStream else {
            let temporary = temporaryPath
            let fd = retryOnInterrupt { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
            guard fd >= 0 else { throw Failure("cannot write \(path): \(SystemCallError.reason(errno))") }
            do {
                try FileDescriptorIO.writeAll(fd, bytes)
            } catch {
                close(fd)
                abandon()
                throw Failure("cannot write \(path): \(error.reason)")
            }
            close(fd)
            try commit()
            return
        }
        let (fd, owned) = try openStream()
        defer { if owned { close(fd) } }
        do {
            try FileDescriptorIO.writeAll(fd, bytes)
        } catch {
            throw Failure("cannot write \(path): \(error.reason)")
        }
    }
}
