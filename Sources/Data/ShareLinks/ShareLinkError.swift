/// Why a share link could not be made or read; `message` is what the user is told.
public struct ShareLinkError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
