import NoiseEngine
import WidgetDesign
import WidgetRender

extension WidgetAction {
    /// The action of a button the renderer laid out (`weaver tap`, the home screen): the layout
    /// carries everything an action needs, so the design is not read again.
    public init(rendered a: WidgetRender.WidgetAction) throws(WidgetActionError) {
        switch a.kind {
        case .incrementVariable:
            guard let key = a.variableKey else { throw WidgetActionError("the button '\(a.id)' names no variable") }
            self = .incrementVariable(key: key, amount: a.incrementAmount ?? 1)
        case .setVariableToNow:
            guard let key = a.variableKey else { throw WidgetActionError("the button '\(a.id)' names no variable") }
            let format = a.nowFormat.flatMap(WidgetNowFormatToken.init(rawValue:)) ?? .iso8601
            self = .setVariableToNow(key: key, format: format)
        case .resetVariable:
            guard let key = a.variableKey else { throw WidgetActionError("the button '\(a.id)' names no variable") }
            self = .resetVariable(key: key, value: a.resetValue ?? "0")
        case .openURL:
            guard let url = a.url else { throw WidgetActionError("the button '\(a.id)' names no link") }
            self = .openURL(url)
        case .completeReminder:
            guard let id = a.reminderID, !id.isEmpty else {
                throw WidgetActionError("the row '\(a.id)' names no reminder")
            }
            self = .completeReminder(id: id)
        case .adjustTimer:
            guard let minutes = a.incrementAmount, minutes != 0, abs(minutes) <= 24 * 60 else {
                throw WidgetActionError("the button '\(a.id)' names no timer change")
            }
            self = .adjustTimer(minutes: minutes)
        case .playPreset:
            guard let id = a.presetID, PresetLibrary.isValidID(id) else {
                throw WidgetActionError("the button '\(a.id)' names no preset")
            }
            self = .playPreset(id: id)
        case .togglePlayPause, .stop, .toggleLayer, .toggleResumeOnLaunch:
            self = try WidgetAction(kind: a.kind, layer: a.layer)
        }
    }
}
