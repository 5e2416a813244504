import SharedStore
import WidgetRender

extension WidgetActionPerformer {
    /// The one place a laid-out button becomes a performed action (`weaver tap`, and the home
    /// screen of `weaver serve`).
    /// - Parameter isPro: what the layout was drawn with (`WidgetRenderer.inputs(isPro:)`): nil
    ///   follows the store's entitlement, true is `--pro`. The action bar is laid out only with
    ///   Pro, so a button found in a `--pro` layout is performed with Pro too.
    public static func perform(
        rendered action: WidgetRender.WidgetAction, root: StoreRoot, storeDirectory: String?, isPro: Bool? = nil
    ) throws -> WidgetActionOutcome {
        let performer = WidgetActionPerformer(store: root, storeDirectory: storeDirectory, isPro: isPro)
        return try performer.perform(try WidgetAction(rendered: action), title: action.title)
    }
}
