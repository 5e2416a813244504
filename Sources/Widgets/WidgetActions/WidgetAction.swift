import WidgetDesign
import WidgetRender

/// The kinds of widget buttons: the renderer's, spelled as in the layout JSON and `weaver tap`.
public typealias WidgetActionKind = WidgetRender.WidgetActionKind

/// One press of a widget button, with what it needs.
public enum WidgetAction: Sendable, Equatable {
    /// The design's action bar: add `amount` (−99…99; 0 counts as 1, the seed's rule) to a variable.
    case incrementVariable(key: String, amount: Int)
    /// The design's action bar: store the current time in a variable.
    case setVariableToNow(key: String, format: WidgetNowFormatToken)
    /// The design's action bar: set a variable to the design's value ("0" by default).
    case resetVariable(key: String, value: String)
    /// The design's action bar: open an http(s) or `weaver:` link (`OpenURLPolicy`), never anything else.
    case openURL(String)
    /// The Noise widget: pause or resume the running player; with none, start the Last Mix.
    case togglePlayPause
    /// The Noise widget: stop the running player.
    case stop
    /// The Noise widget: switch layer 1…4 on or off.
    case toggleLayer(Int)
    /// The Noise widget: resume at login on or off (`noise autostart enable/disable`).
    case toggleResumeOnLaunch
    /// The Reminders widget: complete the reminder with this snapshot id (`SOURCE:LINE`) in its file.
    case completeReminder(id: String)
    /// The Noise widget: move the running sleep timer by this many minutes (`noise timer +15m`).
    case adjustTimer(minutes: Int)
    /// A Play Preset design: play this preset (`noise play --preset ID`, or switch the running player).
    case playPreset(id: String)

    public var kind: WidgetActionKind {
        switch self {
        case .incrementVariable: .incrementVariable
        case .setVariableToNow: .setVariableToNow
        case .resetVariable: .resetVariable
        case .openURL: .openURL
        case .togglePlayPause: .togglePlayPause
        case .stop: .stop
        case .toggleLayer: .toggleLayer
        case .toggleResumeOnLaunch: .toggleResumeOnLaunch
        case .completeReminder: .completeReminder
        case .adjustTimer: .adjustTimer
        case .playPreset: .playPreset
        }
    }

    /// The action of a design's action-bar button.
    public init(_ spec: ActionSpec) {
        switch spec.kind {
        case .incrementVariable: self = .incrementVariable(key: spec.variableKey, amount: spec.incrementAmount)
        case .setVariableToNow: self = .setVariableToNow(key: spec.variableKey, format: spec.nowFormat)
        case .resetVariable: self = .resetVariable(key: spec.variableKey, value: spec.resetValue)
        case .openURL: self = .openURL(spec.url ?? "")
        }
    }

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

    public init(message: String, warnings: [String] = []) {
        self.message = message
        self.warnings = warnings
    }
}
