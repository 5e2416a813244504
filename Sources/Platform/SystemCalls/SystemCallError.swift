#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system call: which call, on which path when there is one, and errno. Every module
/// reports a failed call in this one wording — "open /path: No such file or directory (errno 2)" —
/// instead of each formatting `strerror` its own way.
public struct SystemCallError: Error, CustomStringConvertible, Sendable, Equatable {
    public var call: String
    public var path: String?
    public var code: Int32

    /// `code` defaults to the current errno, so read it right after the failed call.
    public init(_ call: String, path: String? = nil, code: Int32 = errno) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// `strerror`'s text with the number, e.g. "No such file or directory (errno 2)": the number
    /// is what a bug report needs, the text is what a user reads.
    public static func reason(_ code: Int32) -> String {
        "\(text(code)) (errno \(code))"
    }

    /// `strerror`'s text alone, e.g. "No such file or directory", for a wording that predates `reason`.
    public static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    public var reason: String { Self.reason(code) }

    public var description: String {
        if let path { return "\(call) \(path): \(reason)" }
        return "\(call): \(reason)"
    }
}
