import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call on the control socket: what was called, on which path, and errno — the
/// one `SystemCallError` every module reports, under the name callers here already catch.
public typealias SocketError = SystemCallError

/// The kernel's view of the process at the other end of a Unix socket (`struct ucred`, which
/// Glibc's Swift module does not export).
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    /// Only the user who runs the player may control it; root is another user here too, so a
    /// root shell cannot drive a user's player by accident.
    public static func isAllowed(peerUID: UInt32, ownUID: UInt32 = getuid()) -> Bool {
        peerUID == ownUID
    }
}

/// Thin wrappers over the socket calls, each retried on EINTR.
enum UnixSocket {
    static let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    static func address(_ path: String) throws -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            throw SocketError(
                "socket path is \(bytes.count) bytes, the limit is \(capacity - 1):", path: path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
        var addr = try address(path)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Connects to `path`; throws `SocketError` with the errno (ENOENT, ECONNREFUSED: nobody listens).
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, socketType, 0)
        guard fd >= 0 else { throw SocketError("socket", path: path) }
        // A connect interrupted by a signal goes on in the background; retrying is what the
        // kernel expects (a second call reports EALREADY/EISCONN/success, never a lost connection).
        let rc = try withAddress(path) { addr, len -> Int32 in retryOnInterrupt { Glibc.connect(fd, addr, len) } }
        if rc != 0 {
            let e = SocketError("connect", path: path)
            close(fd)
            throw e
        }
        return fd
    }

    static func peerCredentials(_ fd: Int32) throws -> PeerCredentials {
        var cred = PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max)
        var len = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 else {
            throw SocketError("getsockopt(SO_PEERCRED)", path: "fd \(fd)")
        }
        return cred
    }

    static func setTimeouts(_ fd: Int32, receiveSeconds: Double?, sendSeconds: Double?) {
        func set(_ option: Int32, _ seconds: Double) {
            var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
            _ = setsockopt(fd, SOL_SOCKET, option, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        if let receiveSeconds { set(SO_RCVTIMEO, receiveSeconds) }
        if let sendSeconds { set(SO_SNDTIMEO, sendSeconds) }
    }

    /// Writes all of `data`, blocking (up to the socket's send timeout).
    static func writeAll(_ fd: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = retryOnInterrupt {
                    send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
                if n < 0 { throw SocketError("send", path: "fd \(fd)") }
                offset += n
            }
        }
    }
}

/// Reads newline-terminated messages from a socket, refusing any longer than `limit` bytes
/// before it has read more than that (a hostile peer cannot make it buffer without bound).
struct LineReader {
    enum Line: Equatable {
        case line(Data)
        case endOfStream
        case tooLong
        case timedOut
    }

    let fd: Int32
    let limit: Int
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 16 << 10)

    init(fd: Int32, limit: Int) {
        self.fd = fd
        self.limit = limit
    }

    mutating func next() throws -> Line {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[..<nl])
                buffer.removeSubrange(...nl)
                return line.count > limit ? .tooLong : .line(line)
            }
            if buffer.count > limit { return .tooLong }
            let n = chunk.withUnsafeMutableBytes { raw in retryOnInterrupt { recv(fd, raw.baseAddress!, raw.count, 0) }
            }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return .timedOut }
                if errno == ECONNRESET { return .endOfStream }
                throw SocketError("recv", path: "fd \(fd)")
            }
            if n == 0 { return .endOfStream }
            buffer += chunk[0..<n]
        }
    }
}
