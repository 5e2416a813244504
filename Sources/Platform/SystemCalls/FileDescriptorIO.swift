#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The descriptor loops several modules wrote for themselves: write every byte, read to the end
/// with a bound. Each retries EINTR and reports failure as `SystemCallError`.
public enum FileDescriptorIO {
    /// Writes all `count` bytes (a pipe or socket may take fewer per call).
    public static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawPointer, count: Int, path: String? = nil
    ) throws(SystemCallError) {
        var offset = 0
        while offset < count {
            let n = try retryOnInterrupt("write", path: path) { write(fd, bytes + offset, count - offset) }
            offset += n
        }
    }

    /// Writes every byte of `bytes`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String? = nil) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            // The call inside withUnsafeBytes stays non-throwing (it rethrows untyped errors);
            // errno is read right after it.
            let n: Int = bytes.withUnsafeBytes { raw in
                retryOnInterrupt { write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
            if n < 0 { throw SystemCallError("write", path: path) }
            offset += n
        }
    }

    /// Reads until end of file. Returns nil when more than `limit` bytes arrive (input here is
    /// untrusted: a file someone else wrote, or standard input).
    public static func readToEnd(_ fd: Int32, limit: Int, path: String? = nil) throws(SystemCallError) -> [UInt8]? {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in retryOnInterrupt { read(fd, raw.baseAddress!, raw.count) } }
            if n < 0 { throw SystemCallError("read", path: path) }
            if n == 0 { return result }
            result.append(contentsOf: buffer[0..<n])
            if result.count > limit { return nil }
        }
    }
}
