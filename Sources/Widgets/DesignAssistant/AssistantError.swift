/// Why asking the local model did not give a design; `message` is what the user is told.
public struct AssistantError: Error, CustomStringConvertible, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
