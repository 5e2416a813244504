import DataSources
import WidgetDesign
import WidgetRender

/// The kinds of widget buttons: the renderer's, spelled as in the layout JSON and `weaver tap`.
public typealias WidgetActionKind = WidgetRender.WidgetActionKind

extension WidgetAction {
    /// Builds an action from its JSON spelling (`kind`, plus `layer` for `toggleLayer`); the action
    /// bar's kinds need their design's `ActionSpec` (use `init(_:)`).
    public init(kind: WidgetActionKind, layer: Int? = nil) throws(WidgetActionError) {
        switch kind {
        case .togglePlayPause: self = .togglePlayPause
        case .stop: self = .stop
        case .toggleResumeOnLaunch: self = .toggleResumeOnLaunch
        case .toggleLayer:
            guard let layer else { throw WidgetActionError("'toggleLayer' needs a layer (1…4)") }
            guard WidgetActionPerformer.layerRange.contains(layer) else {
                throw WidgetActionError("layer \(layer) is out of range; allowed 1…4")
            }
            self = .toggleLayer(layer)
        case .completeReminder:
            throw WidgetActionError("'completeReminder' needs the reminder's id: build it with .completeReminder(id:)")
        case .adjustTimer:
            throw WidgetActionError("'adjustTimer' needs its minutes: build it with .adjustTimer(minutes:)")
        case .playPreset:
            throw WidgetActionError("'playPreset' needs the preset: build it with .playPreset(id:)")
        case .incrementVariable, .setVariableToNow, .resetVariable, .openURL:
            throw WidgetActionError("'\(kind.rawValue)' comes from a design's action bar: build it from the ActionSpec")
        }
    }
}

/// Why a button could not do its job, in words for the user.
public struct WidgetActionError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What a button did: one line for the user, and warnings met on the way (a Last Mix or variables
/// file that was unreadable and set aside, a failed systemd reload).
public struct WidgetActionOutcome: Sendable, Equatable {
    public var message: String
    public var warnings: [String]
    /// What takes the press back (`WidgetActionPerformer.undo`): a completed reminder's row.
    public var undo: WidgetActionUndo?

    public init(message: String, warnings: [String] = [], undo: WidgetActionUndo? = nil) {
        self.message = message
        self.warnings = warnings
        self.undo = undo
    }
}

/// A press that can be taken back: for now a completed reminder (its file's bytes from before).
public struct WidgetActionUndo: Sendable, Equatable {
    let completion: ReminderCompletion.Undo
    /// What the press did, for the offer ("Completed 'Renew passport'").
    public var description: String { "Completed '\(completion.title)'" }
}
