import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The player's end of the control socket.
///
/// - Only this user's processes may connect (SO_PEERCRED); others get an error line and are
///   closed. The socket file is 0600 in a 0700 folder.
/// - Requests are newline-terminated JSON of at most 64 KiB. A malformed, unknown or oversized
///   request gets an error response and its connection is closed; the server goes on.
/// - `handler` is called on a server thread, one request at a time, never on the audio thread;
///   it should return quickly (it runs while other clients wait).
/// - One player per socket: a lock file beside the socket is held while the server runs, and a
///   socket file that still answers means `ControlError.alreadyRunning`. A socket file nobody
///   answers on (left by a player that died) is replaced.
public final class ControlServer: Sendable {
    public let socketPath: URL
    /// The answer to a connection accepted while the server stops.
    public static let stoppingMessage = "the player is stopping"
    public let maximumConnections: Int
    /// A client that sends nothing for this long is disconnected (subscribers are exempt).
    public let idleTimeoutSeconds: Double
    private let handler: @Sendable (ControlRequest) -> ControlResponse
    private let handlerLock = Mutex(())
    private let state = Mutex(State())
    private let acceptDone = Atomic<Bool>(false)

    struct State {
        var listenFD: Int32 = -1
        var lockFD: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        var socketInode: UInt = 0
        var running = false
        /// Every open connection, so `stop()` can shut them down.
        var connections: Set<Int32> = []
        var subscribers: Set<Int32> = []
        var refusedPeers = 0
    }

    public init(
        socketPath: URL = ControlPaths.socketURL(), maximumConnections: Int = 32, idleTimeoutSeconds: Double = 10,
        handler: @escaping @Sendable (ControlRequest) -> ControlResponse
    ) {
        self.socketPath = socketPath
        self.maximumConnections = maximumConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.handler = handler
    }

    /// Connections refused because the peer was another user (for tests and diagnostics).
    public var refusedPeerCount: Int { state.withLock { $0.refusedPeers } }
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    public func start() throws {
        let path = socketPath.path
        try ControlPaths.prepareDirectory(for: socketPath)
        let lockPath = path + ".lock"
        let lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else { throw SocketError("open", path: lockPath) }
        var ok = false
        defer { if !ok { close(lockFD) } }
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { throw ControlError.alreadyRunning(path: path) }
            throw SocketError("flock", path: lockPath)
        }
        // A player from a build without the lock file could still be listening.
        if let fd = try? UnixSocket.connect(path) {
            close(fd)
            throw ControlError.alreadyRunning(path: path)
        }
        // Bind under a temporary name, restrict it, then rename into place: the socket is never
        // reachable with the umask's mode, and a stale socket file is replaced in one step.
        let temporary = "\(path).tmp-\(getpid())"
        unlink(temporary)
        let fd = socket(AF_UNIX, UnixSocket.socketType, 0)
        guard fd >= 0 else { throw SocketError("socket", path: path) }
        var listening = false
        defer {
            if !listening {
                close(fd)
                unlink(temporary)
            }
        }
        let bound = try UnixSocket.withAddress(temporary) { bind(fd, $0, $1) }
        guard bound == 0 else { throw SocketError("bind", path: temporary) }
        guard chmod(temporary, 0o600) == 0 else { throw SocketError("chmod", path: temporary) }
        guard listen(fd, 16) == 0 else { throw SocketError("listen", path: temporary) }
        guard rename(temporary, path) == 0 else { throw SocketError("rename", path: path) }
        var st = stat()
        _ = lstat(path, &st)
        var pipeFDs: [Int32] = [-1, -1]
        // Glibc's Swift module has no pipe2/accept4; set close-on-exec right after.
        guard pipe(&pipeFDs) == 0 else { throw SocketError("pipe", path: path) }
        for p in pipeFDs { _ = fcntl(p, F_SETFD, FD_CLOEXEC) }
        let (wakeRead, wakeWrite) = (pipeFDs[0], pipeFDs[1])
        listening = true
        ok = true
        state.withLock {
            $0.listenFD = fd
            $0.lockFD = lockFD
            $0.wakeRead = wakeRead
            $0.wakeWrite = wakeWrite
            $0.socketInode = UInt(st.st_ino)
            $0.running = true
        }
        acceptDone.store(false, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in acceptLoop(listenFD: fd, wakeFD: wakeRead) }
        thread.name = "ControlServer"
        thread.start()
    }

    /// Stops accepting, closes every connection, removes the socket file. Safe to call twice.
    public func stop() {
        let s = state.withLock { s -> State? in
            guard s.running else { return nil }
            s.running = false
            for fd in s.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return s
        }
        guard let s else { return }
        var byte: UInt8 = 1
        _ = write(s.wakeWrite, &byte, 1)
        while !acceptDone.load(ordering: .sequentiallyConsistent) { usleep(1000) }
        // Connection threads close their own descriptors; wait (briefly) until they have.
        var waitedMs = 0
        while waitedMs < 2000, state.withLock({ !$0.connections.isEmpty }) {
            usleep(1000)
            waitedMs += 1
        }
        // Remove the socket file only if it is still ours (not a successor's).
        var st = stat()
        if lstat(socketPath.path, &st) == 0, UInt(st.st_ino) == s.socketInode { unlink(socketPath.path) }
        close(s.listenFD)
        close(s.wakeRead)
        close(s.wakeWrite)
        close(s.lockFD)
    }

    /// Sends `status` to every subscriber. Never blocks: a subscriber whose socket buffer is full
    /// is disconnected rather than allowed to stall the player.
    public func broadcast(status: PlayerStatus) {
        let line = ControlResponse.ok(status).encoded() + Data([0x0A])
        state.withLock { s in
            for fd in s.subscribers {
                let sent = line.withUnsafeBytes {
                    send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if sent != line.count {
                    s.subscribers.remove(fd)
                    shutdown(fd, Int32(SHUT_RDWR))
                }
            }
        }
    }

    // MARK: - Threads

    private func acceptLoop(listenFD: Int32, wakeFD: Int32) {
        defer { acceptDone.store(true, ordering: .sequentiallyConsistent) }
        var fds = [
            pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = retryOnInterrupt { poll(&fds, 2, -1) }
            if n < 0 { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                // Out of descriptors: back off instead of spinning.
                if errno == EMFILE || errno == ENFILE { usleep(50_000) }
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            admit(fd)
        }
    }

    private func admit(_ fd: Int32) {
        UnixSocket.setTimeouts(fd, receiveSeconds: idleTimeoutSeconds, sendSeconds: 2)
        guard let peer = try? UnixSocket.peerCredentials(fd), PeerCredentials.isAllowed(peerUID: peer.uid) else {
            state.withLock { $0.refusedPeers += 1 }
            try? UnixSocket.writeAll(
                fd, ControlResponse.error("refused: this player belongs to another user").encoded() + Data([0x0A]))
            Self.closeAfterError(fd)
            return
        }
        enum Admission { case admitted, stopping, full }
        let admission = state.withLock { s -> Admission in
            guard s.running else { return .stopping }
            guard s.connections.count < maximumConnections else { return .full }
            s.connections.insert(fd)
            return .admitted
        }
        switch admission {
        case .admitted: break
        case .stopping:
            // A connection that arrives while the player shuts down is not "too many": say the
            // player is going (the client reads that as "no player", see ControlClient).
            try? UnixSocket.writeAll(fd, ControlResponse.error(Self.stoppingMessage).encoded() + Data([0x0A]))
            Self.closeAfterError(fd)
            return
        case .full:
            try? UnixSocket.writeAll(
                fd, ControlResponse.error("too many connections (limit \(maximumConnections))").encoded() + Data([0x0A])
            )
            Self.closeAfterError(fd)
            return
        }
        let thread = Thread { [self] in serve(fd) }
        thread.name = "ControlConnection"
        thread.start()
    }

    private func serve(_ fd: Int32) {
        var failed = false
        defer {
            state.withLock {
                $0.connections.remove(fd)
                $0.subscribers.remove(fd)
            }
            if failed { Self.closeAfterError(fd) } else { close(fd) }
        }
        var reader = LineReader(fd: fd, limit: ControlRequest.maximumRequestBytes)
        while true {
            let line: LineReader.Line
            do { line = try reader.next() } catch { return }
            let request: ControlRequest
            switch line {
            case .endOfStream, .timedOut: return
            case .tooLong:
                reply(fd, .error("request longer than \(ControlRequest.maximumRequestBytes) bytes"))
                failed = true
                return
            case .line(let data):
                do {
                    request = try ControlRequest.decode(data)
                } catch {
                    reply(fd, .error(error.description))
                    failed = true
                    return
                }
            }
            let response = handlerLock.withLock { _ in handler(request) }
            if request == .subscribe, case .ok = response {
                subscribe(fd, first: response)
                return
            }
            guard reply(fd, response) else { return }
        }
    }

    /// Sends the first status and registers the connection in one step (no broadcast can slip in
    /// between), then waits for the client to close.
    private func subscribe(_ fd: Int32, first: ControlResponse) {
        let registered = state.withLock { s -> Bool in
            guard s.running, reply(fd, first) else { return false }
            s.subscribers.insert(fd)
            return true
        }
        guard registered else { return }
        UnixSocket.setTimeouts(fd, receiveSeconds: 0, sendSeconds: nil)
        var byte: UInt8 = 0
        // Anything the client sends after subscribing is ignored; end of stream ends it.
        while true {
            let n = retryOnInterrupt { recv(fd, &byte, 1, 0) }
            if n > 0 { continue }
            return
        }
    }

    /// Closing a socket with unread input makes the kernel send a reset, and the client may then
    /// lose the error line it was sent. So: end our side, discard what the client still sends (a
    /// bounded amount, briefly), then close.
    static func closeAfterError(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        UnixSocket.setTimeouts(fd, receiveSeconds: 0.2, sendSeconds: nil)
        var discard = [UInt8](repeating: 0, count: 16 << 10)
        var total = 0
        while total < 1 << 20 {
            let n = discard.withUnsafeMutableBytes { raw in
                retryOnInterrupt { recv(fd, raw.baseAddress!, raw.count, 0) }
            }
            if n <= 0 { break }
            total += n
        }
        close(fd)
    }

    @discardableResult
    private func reply(_ fd: Int32, _ response: ControlResponse) -> Bool {
        (try? UnixSocket.writeAll(fd, response.encoded() + Data([0x0A]))) != nil
    }
}
