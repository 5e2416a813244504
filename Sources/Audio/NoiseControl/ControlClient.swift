import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Talks to a running player over its control socket.
public struct ControlClient: Sendable {
    public let socketPath: URL
    /// How long to wait for an answer to a request (not for subscription lines).
    public var timeoutSeconds: Double

    public init(socketPath: URL = ControlPaths.socketURL(), timeoutSeconds: Double = 5) {
        self.socketPath = socketPath
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends one request and waits for its response.
    /// - Throws: `ControlError.notRunning` when no player listens; `SocketError`, `ControlError`.
    public func send(_ request: ControlRequest) throws -> ControlResponse {
        let fd = try open()
        defer { close(fd) }
        UnixSocket.setTimeouts(fd, receiveSeconds: timeoutSeconds, sendSeconds: timeoutSeconds)
        try UnixSocket.writeAll(fd, request.encoded() + Data([0x0A]))
        var reader = LineReader(fd: fd, limit: ControlResponse.maximumResponseBytes)
        let response = try Self.response(reader.next())
        if response == .error(ControlServer.stoppingMessage) { throw ControlError.notRunning(path: socketPath.path) }
        return response
    }

    /// Streams the player's status: `onStatus` gets the current status at once and then every
    /// published change; return false from it to stop. Returns when the player closes the stream.
    public func subscribe(_ onStatus: (PlayerStatus) throws -> Bool) throws {
        let fd = try open()
        defer { close(fd) }
        UnixSocket.setTimeouts(fd, receiveSeconds: nil, sendSeconds: timeoutSeconds)
        try UnixSocket.writeAll(fd, ControlRequest.subscribe.encoded() + Data([0x0A]))
        var reader = LineReader(fd: fd, limit: ControlResponse.maximumResponseBytes)
        while true {
            let line = try reader.next()
            if line == .endOfStream { return }
            switch try Self.response(line) {
            case .ok(let status?):
                if try !onStatus(status) { return }
            case .ok(nil): continue
            case .error(ControlServer.stoppingMessage): throw ControlError.notRunning(path: socketPath.path)
            case .error(let message): throw ControlError.badResponse(message)
            }
        }
    }

    /// True when a player answers on the socket.
    public func isPlayerRunning() -> Bool {
        guard let fd = try? open() else { return false }
        close(fd)
        return true
    }

    private func open() throws -> Int32 {
        do {
            try ControlPaths.checkPrivate(directory: socketPath.deletingLastPathComponent().path)
        } catch let e as SocketError where e.code == ENOENT {
            throw ControlError.notRunning(path: socketPath.path)
        }
        let fd: Int32
        do {
            fd = try UnixSocket.connect(socketPath.path)
        } catch let e as SocketError where [ENOENT, ECONNREFUSED, ENOTSOCK].contains(e.code) {
            throw ControlError.notRunning(path: socketPath.path)
        }
        // The server checks us; we check the server, so a socket planted by someone else is not
        // fed our commands.
        do {
            let peer = try UnixSocket.peerCredentials(fd)
            guard PeerCredentials.isAllowed(peerUID: peer.uid) else { throw ControlError.peerNotAllowed(uid: peer.uid) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    private static func response(_ line: LineReader.Line) throws -> ControlResponse {
        switch line {
        case .line(let data):
            do { return try ControlResponse.decode(data) } catch { throw ControlError.badResponse("\(error)") }
        case .endOfStream: throw ControlError.badResponse("the connection closed before a response arrived")
        case .tooLong:
            throw ControlError.badResponse("response longer than \(ControlResponse.maximumResponseBytes) bytes")
        case .timedOut: throw ControlError.badResponse("no response within the timeout")
        }
    }
}
