/// What a pressed button did: one line for the user, the link to open (an `openURL` button), and
/// how to take the press back when it can be (a completed reminder: `WidgetActionPerformer.undo`,
/// the desktop widget's Undo too).
public struct TapOutcome: Sendable {
    /// Takes the press back and says what it did; throws why not (nothing written then).
    public typealias Undo = @Sendable () throws -> String

    public var message: String
    public var open: String?
    public var undo: Undo?

    public init(message: String, open: String? = nil, undo: Undo? = nil) {
        self.message = message
        self.open = open
        self.undo = undo
    }
}
