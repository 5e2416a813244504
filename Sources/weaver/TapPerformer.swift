import SharedStore
import WidgetActions
import WidgetRender

/// The one place a laid-out button becomes a performed action (`weaver tap`; the home screen uses
/// `WidgetActions.WidgetAction(rendered:)` the same way).
enum TapPerformer {
    static func perform(_ action: WidgetRender.WidgetAction, root: StoreRoot, storeDirectory: String?) throws -> WidgetActionOutcome {
        let performer = WidgetActionPerformer(store: root, storeDirectory: storeDirectory)
        return try performer.perform(try WidgetActions.WidgetAction(rendered: action))
    }
}
