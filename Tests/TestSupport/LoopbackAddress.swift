import Foundation

/// 127.0.0.1 at `port` (0: a free one the system picks) as the socket calls take it: what the
/// tests' HTTP clients connect to and their servers bind.
public struct LoopbackAddress {
    var inet = sockaddr_in()

    public init(port: Int = 0) {
        inet.sin_family = sa_family_t(AF_INET)
        inet.sin_port = in_port_t(UInt16(port).bigEndian)
        inet.sin_addr.s_addr = inet_addr("127.0.0.1")
    }

    public var port: Int { Int(UInt16(bigEndian: inet.sin_port)) }

    /// `body` given the address as a `sockaddr` and its length (which `getsockname` fills in).
    public mutating func withSockaddr<Result>(_ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> Result)
        -> Result
    {
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &inet) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
        }
    }
}
