import Foundation
import NetworkAddress

/// Who may talk to the home screen, decided from the request alone (pure: tested without a server).
///
/// - Host: must name the address the server listens on (with its port), so a page on another
///   origin that rebinds its DNS name to 127.0.0.1 is refused. Loopback also answers to
///   `localhost` and the other loopback spelling.
/// - Token: a random per-run secret. Every POST carries it in `X-WidgetWeaver-Token` together with
///   an `Origin` equal to the server's own origin. Off loopback, every request needs it (query
///   `?token=` once, then the cookie the server sets, or the header).
public struct AccessPolicy: Sendable {
    public enum Verdict: Equatable, Sendable {
        case allowed
        /// Allowed, and the response should set the token cookie (first visit with `?token=`).
        case allowedSetCookie
        case forbidden(String)
    }

    public static let tokenHeader = "X-WidgetWeaver-Token"
    public static let cookieName = "widgetweaver_token"

    public let listen: ListenAddress
    public let token: String

    /// The `host:port` spellings a browser may send for this server.
    public var allowedHosts: Set<String> {
        let port = listen.port
        if listen.isLoopback {
            return ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
        }
        return [ListenAddress.authority(host: listen.host, port: port)]
    }

    /// - Parameters:
    ///   - method: the HTTP method, upper case.
    ///   - hosts: every `Host` value the request carried (more than one is refused).
    ///   - origin: the `Origin` header, when present.
    ///   - tokenHeader / tokenQuery / tokenCookie: where a token may arrive.
    public func check(
        method: String, hosts: [String], origin: String?, tokenHeader: String?,
        tokenQuery: String?, tokenCookie: String?
    ) -> Verdict {
        guard hosts.count == 1, let host = hosts.first?.lowercased() else {
            return .forbidden(
                hosts.isEmpty ? "the request has no Host header" : "the request has more than one Host header")
        }
        guard allowedHosts.contains(host) else {
            return .forbidden(
                "Host '\(host)' is not this server (expected \(allowedHosts.sorted().joined(separator: ", ")))")
        }
        if method != "GET" && method != "HEAD" {
            guard let origin else { return .forbidden("a \(method) needs an Origin header") }
            guard origin.lowercased() == "http://\(host)" else {
                return .forbidden("Origin '\(origin)' does not match http://\(host)")
            }
            guard let tokenHeader, Self.same(tokenHeader, token) else {
                return .forbidden("a \(method) needs the page's token in \(Self.tokenHeader)")
            }
            return .allowed
        }
        if listen.isLoopback { return .allowed }
        if let tokenHeader, Self.same(tokenHeader, token) { return .allowed }
        if let tokenCookie, Self.same(tokenCookie, token) { return .allowed }
        if let tokenQuery, Self.same(tokenQuery, token) { return .allowedSetCookie }
        return .forbidden(
            "this server listens beyond loopback: open the URL with the token that 'weaver serve' printed")
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// 128 random bits as 32 hexadecimal digits.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let v = generator.next() as UInt64
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }.joined()
    }
}
