#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a system call again while it fails with EINTR (a signal arrived before it completed and
/// the handler was installed without SA_RESTART, or the call is one the kernel never restarts).
/// Returns the call's result; on any other failure errno is left as the call set it.
///
/// Not for `close`: Linux releases the descriptor even when close reports EINTR, and retrying could
/// close a descriptor another thread has just been given.
@inline(__always)
public func retryOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// The same, throwing `SystemCallError` (naming `name` and `path`) when the call fails.
@inline(__always)
public func retryOnInterrupt<Result: BinaryInteger>(
    _ name: String, path: String? = nil, _ call: () -> Result
) throws(SystemCallError) -> Result {
    let result = retryOnInterrupt(call)
    if result == -1 { throw SystemCallError(name, path: path) }
    return result
}
