import WidgetDataKeys
import WidgetDesign

/// What one press of a widget button does, with what it needs: the one action type. The layout
/// carries it in each `ActionArea`, the hosts (`weaver tap`, the home screen, the desktop host)
/// hand it to `WidgetActionPerformer` as it is, so nothing is spelled out and read back between
/// laying out and performing.
public enum WidgetAction: Sendable, Hashable {
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

    /// The action's name as the layout JSON and `weaver tap` spell it.
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
}

extension NowFormat {
    /// How a design's `setVariableToNow` button writes the time (the performer and the Editor's
    /// trial press alike).
    public init(_ token: WidgetNowFormatToken) {
        switch token {
        case .iso8601: self = .iso
        case .unixSeconds: self = .unix
        case .unixMilliseconds: self = .unixms
        case .dateOnly: self = .date
        case .timeOnly: self = .time
        }
    }
}
