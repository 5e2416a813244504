import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for network code under test:
/// recorded answers, errors, slow and oversized bodies, and a log of what was asked. One thread
/// accepts; each connection gets its own thread, one request, `Connection: close`.
public final class LocalHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        /// Path and query, as sent: `/v1/forecast?latitude=...`.
        public var target: String
        public var headers: [String: String]
        /// The body, as `Content-Length` announced it (up to 16 MiB).
        public var body = Data()
        public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        public var query: [String: String] {
            guard let q = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
            var out: [String: String] = [:]
            for pair in q.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).removingPercentEncoding ?? String($0)
                }
                out[kv[0]] = kv.count > 1 ? kv[1] : ""
            }
            return out
        }
    }

    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: Data
        /// Wait this long before sending anything (a server that does not answer in time).
        public var delaySeconds: Double
        /// Send no Content-Length: the body ends when the connection closes.
        public var omitContentLength: Bool
        /// More header lines (Location, Content-Encoding).
        public var headers: [(String, String)]

        public init(
            status: Int = 200, contentType: String = "application/json", body: Data, delaySeconds: Double = 0,
            omitContentLength: Bool = false, headers: [(String, String)] = []
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.delaySeconds = delaySeconds
            self.omitContentLength = omitContentLength
            self.headers = headers
        }

        public static func json(_ text: String, status: Int = 200) -> Response {
            Response(status: status, body: Data(text.utf8))
        }
    }

    public let port: UInt16
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var log: [Request] = []
    private var stopped = false

    public var requests: [Request] { lock.withLock { log } }

    public init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = LoopbackAddress()
        guard address.withSockaddr({ sa, length in bind(fd, sa, length) }) == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ChildProcess.Failure(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        _ = address.withSockaddr { sa, length in getsockname(fd, sa, &length) }
        listener = fd
        port = UInt16(address.port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; connections in progress finish on their own threads.
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        // Only shut down: the accept loop closes the socket once it has seen the end. Closing it
        // here let its number be reused by the next server's socket while the loop was between two
        // accepts; the loop then accepted that server's connections and answered with this
        // server's handler (seen in HTTPClientTests run in parallel).
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if lock.withLock({ stopped }) {
                close(client)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    static func hasHeaderEnd(_ b: [UInt8]) -> Bool {
        guard b.count >= 4 else { return false }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 {
            return true
        }
        return false
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            head += buffer[0..<n]
            if Self.hasHeaderEnd(head) { break }
        }
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst().prefix(while: { !$0.isEmpty }) {
            let kv = line.split(separator: ":", maxSplits: 1)
            if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
        }
        var request = Request(method: String(parts[0]), target: String(parts[1]), headers: headers)
        if let length = headers["content-length"].flatMap(Int.init), length > 0, length <= 16 << 20 {
            let headEnd = (0...(head.count - 4)).first { head[$0] == 13 && head[$0 + 1] == 10 && head[$0 + 2] == 13 }
            var body = headEnd.map { Array(head[($0 + 4)...]) } ?? []
            while body.count < length {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                body += buffer[0..<n]
            }
            request.body = Data(body.prefix(length))
        }
        lock.withLock { log.append(request) }
        let response = handler(request)
        // A slow server is what a delayed response tests (the client's timeout): the sleep is the point.
        if response.delaySeconds > 0 { Thread.sleep(forTimeInterval: response.delaySeconds) }
        var out = "HTTP/1.1 \(response.status) \(HTTPURLResponseReason.text(response.status))\r\n"
        out += "Content-Type: \(response.contentType)\r\nConnection: close\r\n"
        if !response.omitContentLength { out += "Content-Length: \(response.body.count)\r\n" }
        for (name, value) in response.headers { out += "\(name): \(value)\r\n" }
        out += "\r\n"
        var bytes = Data(out.utf8)
        bytes.append(response.body)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

enum HTTPURLResponseReason {
    static func text(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
