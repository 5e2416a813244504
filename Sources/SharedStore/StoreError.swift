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

    public var description: String { "\(operation) \(path): \(reason)" }
}
