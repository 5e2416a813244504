#if canImport(Glibc)
    import Glibc
#endif

/// The address and port `weaver serve` binds. Here, below both, because `weaver` checks `--listen`
/// and `--port` before it starts the server program (`weaver-serve`), which binds them.
public struct ListenAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public static let defaultPort = 8765

    /// 127.0.0.0/8 and ::1.
    public var isLoopback: Bool {
        if host == "::1" || host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        return false
    }

    /// True for an IPv4 or IPv6 literal (names are refused: we bind what the user typed).
    public var isLiteral: Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// True for 0.0.0.0 and ::, which name no single address a browser could send as Host.
    public var isUnspecified: Bool { host == "0.0.0.0" || host == "::" }

    /// `host:port`, with brackets around an IPv6 literal.
    public static func authority(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host.lowercased())]:\(port)" : "\(host.lowercased()):\(port)"
    }

    public var url: String { "http://" + Self.authority(host: host == "::1" ? "::1" : host, port: port) + "/" }
}
