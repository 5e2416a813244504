/// Buttons that are there only with Pro. The action bar is laid out only with Pro (as in the seed
/// app), so without Pro a tap where it would be finds no button, and "no button" alone does not say
/// why. Given the layout a tap used and the same widget laid out with Pro, this says why.
public enum ProOnlyButtons {
    /// What to do about it, for `weaver tap`.
    public static let tapRemedy = "use --pro or 'weaver pro unlock'"
    /// What to do about it where there is no `--pro` (saving a design).
    public static let unlockRemedy = "unlock Pro with 'weaver pro unlock' (the design is saved as written)"

    /// The actions `proLayout` has and `layout` lacks (matched by id): the action bar's buttons when
    /// `layout` was drawn without Pro; none when both were drawn with it.
    public static func missing(from layout: WidgetLayout, in proLayout: WidgetLayout) -> [ActionArea] {
        let present = Set(layout.actions.map(\.id))
        return proLayout.actions.filter { !present.contains($0.id) }
    }

    /// When `point` falls on a button only `proLayout` has: "no button at X,Y without Pro: the
    /// action bar ('Coffee', 'Fed') needs Pro; " + `remedy`, the buttons named by their drawn
    /// titles. nil when the point is on no such button (the caller's own message then stands).
    /// - Parameter written: the point as the user wrote it (`--at 30,150`), for the message.
    public static func missMessage(
        at point: Point, written: String, layout: WidgetLayout, proLayout: WidgetLayout,
        remedy: String = tapRemedy
    ) -> String? {
        let hidden = missing(from: layout, in: proLayout)
        guard hidden.contains(where: { $0.rect.contains(point) }) else { return nil }
        let titles = hidden.map { "'\($0.title ?? ActionArea.untitledActionBarTitle(for: $0.kind))'" }
        return
            """
            no button at \(written) without Pro: the action bar (\(titles.joined(separator: ", "))) needs Pro; \
            \(remedy)
            """
    }
}
