import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Where the control socket lives: `$XDG_RUNTIME_DIR/widgetweaver/noise.sock`, or, when
/// XDG_RUNTIME_DIR is unset, `/tmp/widgetweaver-$UID/noise.sock`. The folder is created 0700
/// and must belong to the user (a folder in /tmp could have been planted by someone else).
public enum ControlPaths {
    public static let socketName = "noise.sock"

    public static func socketURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let folder = XDGDirectories(environment: environment).runtimeFolder(application: "widgetweaver")
        return URL(fileURLWithPath: folder).appendingPathComponent(socketName)
    }

    /// Creates the socket's folder (0700) if missing and checks that it is a real folder (not a
    /// link), owned by this user and closed to everyone else.
    public static func prepareDirectory(for socket: URL) throws {
        let dir = socket.deletingLastPathComponent().path
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            if errno == ENOENT {
                // The parent (XDG_RUNTIME_DIR itself) is missing: create it the same way.
                try FileManager.default.createDirectory(
                    atPath: dir, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } else {
                throw SocketError("mkdir", path: dir)
            }
        }
        try checkPrivate(directory: dir)
    }

    /// Throws unless `dir` is a directory (not a symbolic link) owned by this user with no access
    /// for group or others.
    public static func checkPrivate(directory dir: String) throws {
        var st = stat()
        guard lstat(dir, &st) == 0 else { throw SocketError("lstat", path: dir) }
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw ControlError.unsafeDirectory(path: dir, reason: "it is not a directory (a symbolic link?)")
        }
        guard st.st_uid == getuid() else {
            throw ControlError.unsafeDirectory(
                path: dir, reason: "it belongs to uid \(st.st_uid), not to you (uid \(getuid()))")
        }
        guard st.st_mode & 0o077 == 0 else {
            throw ControlError.unsafeDirectory(
                path: dir, reason: "its mode is \(String(st.st_mode & 0o777, radix: 8)); it must be 700")
        }
    }
}

/// Control socket failures the CLI reports in words.
public enum ControlError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Another player already listens on the socket.
    case alreadyRunning(path: String)
    /// Nobody listens on the socket (no player runs).
    case notRunning(path: String)
    case unsafeDirectory(path: String, reason: String)
    /// The process at the other end belongs to another user.
    case peerNotAllowed(uid: UInt32)
    /// The other end sent something that is not a valid response, or closed early.
    case badResponse(String)

    public var description: String {
        switch self {
        case .alreadyRunning(let p): "a player is already running (control socket \(p))"
        case .notRunning(let p): "no player is running (nothing listens on \(p))"
        case .unsafeDirectory(let p, let r): "refusing to use the control socket folder \(p): \(r)"
        case .peerNotAllowed(let uid): "the control socket belongs to another user (uid \(uid)); refusing to use it"
        case .badResponse(let r): "the player sent an invalid response: \(r)"
        }
    }
}
