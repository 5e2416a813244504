/// A design operation that could not be done; the message names the file, field and allowed
/// values where there are any, and is printed as is by the CLI.
public struct DesignError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
