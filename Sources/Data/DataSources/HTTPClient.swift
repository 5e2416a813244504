import CCurlLoader
import Foundation
import SharedStore
import SizeLimits

/// How one GET is bounded: every network answer is untrusted, so the body is capped while it is
/// read (the transfer stops at the cap), the whole exchange has a deadline, and only failures
/// that may pass (timeouts, lost connections, 5xx, 429) are retried, with growing pauses.
public struct HTTPPolicy: Sendable {
    /// Bytes of body accepted; a larger answer is refused as soon as it passes this.
    public var maxBodyBytes: Int
    /// No byte for this long ends the attempt.
    public var idleTimeoutSeconds: Double
    /// The whole attempt (connect, headers, body) must finish within this.
    public var totalTimeoutSeconds: Double
    /// Pauses before the 2nd, 3rd, ... attempt; its count is the number of retries.
    public var retryDelaysSeconds: [Double]

    public init(
        maxBodyBytes: Int, idleTimeoutSeconds: Double = 10, totalTimeoutSeconds: Double = 20,
        retryDelaysSeconds: [Double] = [1, 4]
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.totalTimeoutSeconds = totalTimeoutSeconds
        self.retryDelaysSeconds = retryDelaysSeconds
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var body: Data
    public var url: URL
}

/// A failed GET, saying what was asked and what went wrong, in words a user can act on.
public enum HTTPError: Error, CustomStringConvertible, Sendable, Equatable {
    case status(code: Int, url: String, attempts: Int)
    case tooLarge(limitBytes: Int, url: String)
    case timeout(seconds: Double, url: String, attempts: Int)
    case transport(reason: String, url: String, attempts: Int)
    case unsupportedURL(String)

    public var description: String {
        func tries(_ n: Int) -> String { n > 1 ? " (after \(n) attempts)" : "" }
        switch self {
        case .status(let code, let url, let n):
            return "\(Self.shown(url)) answered HTTP \(code) \(HTTPStatus.reason(code))\(tries(n))"
        case .tooLarge(let limit, let url):
            return "\(Self.shown(url)) sent \(SizeLimit(bytes: limit).exceededByStream)"
        case .timeout(let s, let url, let n):
            return "\(Self.shown(url)) did not answer within \(NumberFormat.short(s)) s\(tries(n))"
        case .transport(let reason, let url, let n):
            return "cannot reach \(Self.shown(url)): \(reason)\(tries(n))"
        case .unsupportedURL(let url):
            return "'\(url)' is not an http:// or https:// address"
        }
    }

    /// The host and path of `url` (`api.open-meteo.com/v1/forecast`), for messages: a forecast
    /// URL's query is some 400 characters of variable names, and a calendar's may hold its key.
    public static func shown(_ url: String) -> String {
        guard let c = URLComponents(string: url), let host = c.host, !host.isEmpty else { return url }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return bracketed + (c.port.map { ":\($0)" } ?? "") + c.percentEncodedPath
    }

    /// Worth another attempt: the server or the path to it may recover.
    var isTransient: Bool {
        switch self {
        case .status(let code, _, _): return code >= 500 || code == 429 || code == 408
        case .timeout, .transport: return true
        case .tooLarge, .unsupportedURL: return false
        }
    }

    func withAttempts(_ n: Int) -> HTTPError {
        switch self {
        case .status(let c, let u, _): return .status(code: c, url: u, attempts: n)
        case .timeout(let s, let u, _): return .timeout(seconds: s, url: u, attempts: n)
        case .transport(let r, let u, _): return .transport(reason: r, url: u, attempts: n)
        default: return self
        }
    }
}

enum NumberFormat {
    static func short(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(format: "%.1f", x)
    }
}

/// Synchronous GETs through libcurl, loaded at the first request (`CCurlLoader`): every `weaver`
/// start would otherwise map and relocate libcurl and the TLS/Kerberos/LDAP libraries behind it.
/// One transfer per attempt keeps attempts independent; the CLI makes a handful of requests per run.
public struct HTTPClient: Sendable {
    public var userAgent: String
    /// Called before each retry with the attempt number, the error and the pause (for `--verbose`).
    public var onRetry: (@Sendable (Int, HTTPError, Double) -> Void)?

    public init(
        userAgent: String = "WidgetWeaver-Linux/1 (+https://github.com/hodlsimulator/WidgetWeaver)",
        onRetry: (@Sendable (Int, HTTPError, Double) -> Void)? = nil
    ) {
        self.userAgent = userAgent
        self.onRetry = onRetry
    }

    public func get(_ url: URL, accept: String = "application/json", policy: HTTPPolicy) throws(HTTPError)
        -> HTTPResponse
    {
        try send(url, body: nil, headers: ["Accept: \(accept)"], policy: policy)
    }

    /// One POST of `body` (a local model's chat request, say), bounded like a GET; retried only as
    /// `policy` says, and redirects are not followed.
    public func post(
        _ url: URL, body: Data, contentType: String = "application/json", accept: String = "application/json",
        policy: HTTPPolicy
    ) throws(HTTPError) -> HTTPResponse {
        // "Expect:" turns off libcurl's Expect: 100-continue, which waits a second for servers that never answer it.
        try send(
            url, body: body, headers: ["Accept: \(accept)", "Content-Type: \(contentType)", "Expect:"], policy: policy)
    }

    private func send(_ url: URL, body: Data?, headers: [String], policy: HTTPPolicy) throws(HTTPError)
        -> HTTPResponse
    {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unsupportedURL(url.absoluteString)
        }
        var attempt = 1
        while true {
            do {
                return try once(url, body: body, headers: headers, policy: policy)
            } catch {
                let delays = policy.retryDelaysSeconds
                guard error.isTransient, attempt <= delays.count else { throw error.withAttempts(attempt) }
                let pause = delays[attempt - 1]
                onRetry?(attempt, error, pause)
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
                attempt += 1
            }
        }
    }

    private func once(_ url: URL, body: Data?, headers: [String], policy: HTTPPolicy) throws(HTTPError)
        -> HTTPResponse
    {
        let address = url.absoluteString
        // Header values come from us, but a line break in one would start a new header: refuse it.
        // (By scalar: "\r\n" is one Character, so a Character filter would keep it.)
        let headers = (headers + ["User-Agent: \(userAgent)"]).map { line in
            String(String.UnicodeScalarView(line.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
        }
        var outcome = ww_http_outcome()
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        let idleMs = Int(max(1, (policy.idleTimeoutSeconds * 1000).rounded(.up)))
        let totalMs = Int(max(1, (policy.totalTimeoutSeconds * 1000).rounded(.up)))
        let code = withCStrings(headers) { lines in
            guard let body else {
                return ww_http_get(
                    address, lines, lines.count, idleMs, totalMs, policy.maxBodyBytes, &bytes, &count, &outcome)
            }
            // A trailing 0 so an empty body still has an address (NULL would mean GET); it is not sent.
            return ([UInt8](body) + [0]).withUnsafeBufferPointer { post in
                ww_http_request(
                    address, lines, lines.count, post.baseAddress, body.count, idleMs, totalMs, policy.maxBodyBytes,
                    &bytes, &count, &outcome)
            }
        }
        defer { ww_http_free(bytes) }
        if outcome.too_large != 0 { throw .tooLarge(limitBytes: policy.maxBodyBytes, url: address) }
        if outcome.timed_out != 0 {
            let seconds = outcome.timed_out_total != 0 ? policy.totalTimeoutSeconds : policy.idleTimeoutSeconds
            throw .timeout(seconds: seconds, url: address, attempts: 1)
        }
        guard code == 0 else {
            let reason = withUnsafeBytes(of: outcome.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw .transport(reason: reason, url: address, attempts: 1)
        }
        let status = outcome.status
        guard status > 0 else { throw .transport(reason: "no HTTP response", url: address, attempts: 1) }
        guard (200..<300).contains(status) else { throw .status(code: status, url: address, attempts: 1) }
        return HTTPResponse(status: status, body: bytes.map { Data(bytes: $0, count: count) } ?? Data(), url: url)
    }
}

/// `body` with the strings as an array of C strings that live for the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) })
}

/// Reason phrases (RFC 9110 and the common extensions) for error messages.
enum HTTPStatus {
    static func reason(_ code: Int) -> String {
        switch code {
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default:
            switch code {
            case 300..<400: "Redirection"
            case 400..<500: "Client Error"
            case 500..<600: "Server Error"
            default: "Unknown Status"
            }
        }
    }
}
