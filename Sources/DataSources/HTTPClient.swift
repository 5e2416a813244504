import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    public init(maxBodyBytes: Int, idleTimeoutSeconds: Double = 10, totalTimeoutSeconds: Double = 20,
                retryDelaysSeconds: [Double] = [1, 4]) {
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
            return "\(url) answered HTTP \(code) \(HTTPURLResponse.localizedString(forStatusCode: code))\(tries(n))"
        case .tooLarge(let limit, let url):
            return "\(url) sent more than \(limit) bytes; the limit is \(limit) bytes"
        case .timeout(let s, let url, let n):
            return "\(url) did not answer within \(NumberFormat.short(s)) s\(tries(n))"
        case .transport(let reason, let url, let n):
            return "cannot reach \(url): \(reason)\(tries(n))"
        case .unsupportedURL(let url):
            return "'\(url)' is not an http:// or https:// address"
        }
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

/// Synchronous GETs through FoundationNetworking's URLSession (libcurl underneath; it ships with
/// the Swift toolchain, so it adds nothing to the build). One session per attempt keeps attempts
/// independent; the CLI makes a handful of requests per run.
public struct HTTPClient: Sendable {
    public var userAgent: String
    /// Called before each retry with the attempt number, the error and the pause (for `--verbose`).
    public var onRetry: (@Sendable (Int, HTTPError, Double) -> Void)?

    public init(userAgent: String = "WidgetWeaver-Linux/1 (+https://github.com/hodlsimulator/WidgetWeaver)",
                onRetry: (@Sendable (Int, HTTPError, Double) -> Void)? = nil) {
        self.userAgent = userAgent
        self.onRetry = onRetry
    }

    public func get(_ url: URL, accept: String = "application/json", policy: HTTPPolicy) throws(HTTPError) -> HTTPResponse {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unsupportedURL(url.absoluteString)
        }
        var attempt = 1
        while true {
            do {
                return try once(url, accept: accept, policy: policy)
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

    private func once(_ url: URL, accept: String, policy: HTTPPolicy) throws(HTTPError) -> HTTPResponse {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = policy.idleTimeoutSeconds
        configuration.timeoutIntervalForResource = policy.totalTimeoutSeconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let collector = BodyCollector(limit: policy.maxBodyBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: policy.idleTimeoutSeconds)
        request.setValue(accept, forHTTPHeaderField: "Accept")
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let task = session.dataTask(with: request)
        task.resume()
        // A hard deadline of our own on top of URLSession's: a server that trickles a byte every
        // few seconds never trips an idle timeout.
        if collector.done.wait(timeout: .now() + policy.totalTimeoutSeconds + 0.5) == .timedOut {
            task.cancel()
            _ = collector.done.wait(timeout: .now() + 2)
            throw .timeout(seconds: policy.totalTimeoutSeconds, url: url.absoluteString, attempts: 1)
        }
        let outcome = collector.outcome()
        if outcome.tooLarge { throw .tooLarge(limitBytes: policy.maxBodyBytes, url: url.absoluteString) }
        if let error = outcome.error {
            let ns = error as NSError
            if ns.domain == NSURLErrorDomain && ns.code == NSURLErrorTimedOut {
                throw .timeout(seconds: policy.idleTimeoutSeconds, url: url.absoluteString, attempts: 1)
            }
            throw .transport(reason: ns.localizedDescription, url: url.absoluteString, attempts: 1)
        }
        guard let status = outcome.status else {
            throw .transport(reason: "no HTTP response", url: url.absoluteString, attempts: 1)
        }
        guard (200..<300).contains(status) else {
            throw .status(code: status, url: url.absoluteString, attempts: 1)
        }
        return HTTPResponse(status: status, body: outcome.body, url: url)
    }
}

/// Collects the body and stops the transfer once it passes the cap: an answer claiming a larger
/// Content-Length is refused before its body is read, one that just keeps sending is cut off.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let limit: Int
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var body = Data()
    private var status: Int?
    private var tooLarge = false
    private var error: Error?
    private var finished = false

    init(limit: Int) { self.limit = limit }

    func outcome() -> (status: Int?, body: Data, tooLarge: Bool, error: Error?) {
        lock.withLock { (status, body, tooLarge, error) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let oversized = response.expectedContentLength > Int64(limit)
        lock.withLock {
            status = http?.statusCode
            if oversized { tooLarge = true }
        }
        completionHandler(oversized ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over: Bool = lock.withLock {
            guard !tooLarge else { return false }
            if body.count + data.count > limit {
                tooLarge = true
                return true
            }
            body.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let first: Bool = lock.withLock {
            guard !finished else { return false }
            finished = true
            if !tooLarge { self.error = error }
            return true
        }
        if first { done.signal() }
    }
}
