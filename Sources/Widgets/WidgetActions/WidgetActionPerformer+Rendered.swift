import SharedStore
import WidgetRender

extension WidgetActionPerformer {
    /// The one place a laid-out button is performed (`weaver tap`, the home screen of `weaver
    /// serve`, the desktop host): the area carries its action, handed to the performer as it is.
    /// - Parameter isPro: what the layout was drawn with (`RenderInputs.gather(isPro:)`): nil
    ///   follows the store's entitlement, true is `--pro`. The action bar is laid out only with
    ///   Pro, so a button found in a `--pro` layout is performed with Pro too.
    public static func perform(
        rendered area: ActionArea, root: StoreRoot, storeDirectory: String?, isPro: Bool? = nil
    ) throws -> WidgetActionOutcome {
        let performer = WidgetActionPerformer(store: root, storeDirectory: storeDirectory, isPro: isPro)
        return try performer.perform(area.action, title: area.title)
    }
}
