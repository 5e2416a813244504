import SystemCalls

/// A store failure that says what was attempted, on which file, and why.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var path: String
    public var reason: String

    public init(_ operation: String, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// A store operation that failed in a system call: the reason is the call's own wording
    /// ("write /store/x.json: fsync: Input/output error (errno 5)").
    public init(_ operation: String, path: String, failed call: SystemCallError) {
        var call = call
        call.path = nil
        self.init(operation, path: path, reason: call.description)
    }

    public var description: String { "\(operation) \(path): \(reason)" }
}
