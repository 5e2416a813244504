import Foundation

/// HTTP/1.1 over a plain loopback socket, written byte for byte, so tests can send exactly the
/// Host, Origin and other headers an attacker would (URLSession rewrites some of them).
public enum RawHTTP {
    public struct Reply: Sendable {
        public var status: Int
        /// Lower-cased names; repeated headers joined with ", ".
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func json() -> [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Sends one request with `Connection: close` and reads the whole reply.
    /// `headers` are sent as given (include "Host" yourself; nil host omits it).
    public static func send(
        port: Int, method: String = "GET", path: String, host: String? = nil,
        headers: [(String, String)] = [], body: [UInt8] = [], timeoutSeconds: Double = 10
    ) throws -> Reply {
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        head += "Host: \(host ?? "127.0.0.1:\(port)")\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        try writeAll(fd, Array(head.utf8) + body)
        return try parse(try readReply(fd))
    }

    /// Reads until the reply is complete: by Content-Length, by the last chunk, or by EOF (some
    /// servers keep the connection open whatever `Connection: close` asked).
    static func readReply(_ fd: Int32) throws -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let headEnd = data.indices.first(where: { data[$0...].starts(with: [13, 10, 13, 10]) }) {
                let head = String(decoding: data[..<headEnd], as: UTF8.self).lowercased()
                if let m = head.firstMatch(of: /content-length:\s*(\d+)/), let length = Int(m.1),
                    data.count >= headEnd + 4 + length
                {
                    return Array(data[..<(headEnd + 4 + length)])
                }
                if head.contains("transfer-encoding: chunked"), data.suffix(5) == [48, 13, 10, 13, 10] { return data }
            }
            let n = read(fd, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "read failed: errno \(errno)")
            }
            if n == 0 { break }
            data += buffer[0..<n]
        }
        return data
    }

    /// A request whose host header line the caller writes (for "no Host" and "two Hosts" tests).
    public static func sendRaw(port: Int, _ request: String, timeoutSeconds: Double = 10) throws -> Reply {
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        try writeAll(fd, Array(request.utf8))
        return try parse(try readReply(fd))
    }

    public static func connect(port: Int, timeoutSeconds: Double) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var tv = timeval(tv_sec: Int(timeoutSeconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackAddress(port: port)
        let rc = address.withSockaddr { sa, length in Glibc.connect(fd, sa, length) }
        guard rc == 0 else {
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        return fd
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "write failed: errno \(errno)")
            }
            offset += n
        }
    }

    static func parse(_ data: [UInt8]) throws -> Reply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = data.indices.first(where: { data[$0...].starts(with: separator) }) else {
            throw Failure(description: "no complete response head in \(data.count) bytes")
        }
        let head = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Array(data[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = try dechunk(body) }
        return Reply(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            guard let lineEnd = data[i...].indices.first(where: { data[$0...].starts(with: [13, 10]) }) else { break }
            let sizeText = String(decoding: data[i..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else {
                throw Failure(description: "bad chunk size '\(sizeText)'")
            }
            if size == 0 { break }
            let start = lineEnd + 2
            guard start + size <= data.count else { throw Failure(description: "truncated chunk") }
            out += data[start..<(start + size)]
            i = start + size + 2
        }
        return out
    }
}

/// Reads a `text/event-stream` response as it arrives: the HTTP head, then chunked framing
/// removed byte by byte, then events split at blank lines (bytes, so multi-byte characters split
/// across reads stay whole).
public final class EventStreamReader: @unchecked Sendable {
    private let fd: Int32
    private var raw: [UInt8] = []
    private var body: [UInt8] = []
    private var headDone = false
    private var chunked = false
    /// Bytes left in the current chunk; nil while a size line is expected.
    private var chunkLeft: Int?
    public private(set) var status = 0

    public init(port: Int, path: String = "/events", host: String? = nil) throws {
        fd = try RawHTTP.connect(port: port, timeoutSeconds: 1)
        try RawHTTP.writeAll(
            fd,
            Array(
                "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nAccept: text/event-stream\r\n\r\n".utf8
            ))
    }

    deinit { close(fd) }

    /// The next event (`name`, `data`) within `seconds`, skipping comments; nil on timeout or close.
    public func next(within seconds: Double) -> (name: String, data: String)? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let event = takeEvent() { return event }
            guard Date() < deadline else { return nil }
            var buffer = [UInt8](repeating: 0, count: 16384)
            let n = read(fd, &buffer, buffer.count)
            if n == 0 { return nil }
            if n > 0 {
                raw += buffer[0..<n]
                unframe()
            }
        }
    }

    /// Events until one satisfies `predicate`, within `seconds`.
    public func wait(for seconds: Double, _ predicate: (String, String) -> Bool) -> (name: String, data: String)? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let e = next(within: deadline.timeIntervalSinceNow) else { return nil }
            if predicate(e.name, e.data) { return e }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int = 0) -> Int? {
        guard hay.count >= needle.count + from else { return nil }
        for i in from...(hay.count - needle.count)
        where hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    private func unframe() {
        if !headDone {
            guard let end = Self.find([13, 10, 13, 10], in: raw) else { return }
            let head = String(decoding: raw[..<end], as: UTF8.self)
            status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
            chunked = head.lowercased().contains("transfer-encoding: chunked")
            raw.removeFirst(end + 4)
            headDone = true
        }
        guard chunked else {
            body += raw
            raw.removeAll()
            return
        }
        while true {
            if let left = chunkLeft {
                if left > 0 {
                    let take = min(left, raw.count)
                    guard take > 0 else { return }
                    body += raw[..<take]
                    raw.removeFirst(take)
                    chunkLeft = left - take
                    if take < left { return }
                }
                // The CRLF after the chunk's data.
                guard raw.count >= 2 else { return }
                raw.removeFirst(2)
                chunkLeft = nil
            } else {
                guard let lineEnd = Self.find([13, 10], in: raw) else { return }
                let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                raw.removeFirst(lineEnd + 2)
                chunkLeft = Int(sizeText, radix: 16) ?? 0
            }
        }
    }

    private func takeEvent() -> (name: String, data: String)? {
        while let end = Self.find([10, 10], in: body) {
            let block = String(decoding: body[..<end], as: UTF8.self)
            body.removeFirst(end + 2)
            var name = "message", data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("event: ") {
                    name = String(line.dropFirst(7))
                } else if line.hasPrefix("data: ") {
                    data.append(String(line.dropFirst(6)))
                }
            }
            if !data.isEmpty { return (name, data.joined(separator: "\n")) }
        }
        return nil
    }
}
