import DataSources
import WidgetRender

/// The kinds of widget buttons: the renderer's, spelled as in the layout JSON and `weaver tap`.
public typealias WidgetActionKind = WidgetRender.WidgetActionKind

/// Why a button could not do its job, in words for the user.
public struct WidgetActionError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What a button did: one line for the user, and warnings met on the way (a Last Mix or variables
/// file that was unreadable and set aside, a failed systemd reload).
public struct WidgetActionOutcome: Sendable, Equatable {
    public var message: String
    public var warnings: [String] = []
    /// What takes the press back (`WidgetActionPerformer.undo`): a completed reminder's row.
    public var undo: WidgetActionUndo?
}

/// A press that can be taken back: for now a completed reminder (its file's bytes from before).
public struct WidgetActionUndo: Sendable, Equatable {
    let completion: ReminderCompletion.Undo
    /// What the press did, for the offer ("Completed 'Renew passport'").
    public var description: String { "Completed '\(completion.title)'" }
}
