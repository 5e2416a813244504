import SharedStore
import WidgetActions
import WidgetRender

/// The one place a laid-out button is performed (`weaver tap`, and the home screen through `weaver
/// serve`): the area carries its action, handed to the performer as it is.
enum TapPerformer {
    /// - Parameter isPro: what the layout was drawn with (`WidgetRenderer.inputs(isPro:)`): nil
    ///   follows the store's entitlement, true is `--pro`. The action bar is laid out only with
    ///   Pro, so a button found in a `--pro` layout is performed with Pro too.
    static func perform(
        _ action: ActionArea, root: StoreRoot, storeDirectory: String?,
        isPro: Bool? = nil
    ) throws -> WidgetActionOutcome {
        let performer = WidgetActionPerformer(store: root, storeDirectory: storeDirectory, isPro: isPro)
        return try performer.perform(action.action, title: action.title)
    }
}
