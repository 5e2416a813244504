import Foundation
import Testing
import WidgetDataKeys
import WidgetDesign
import WidgetRender

/// A tap without Pro where the action bar would be: real layouts of one design, drawn by the one
/// renderer without and with Pro.
@Suite struct ProOnlyButtonsTests {
    /// A classic design whose action bar has "Coffee" (+1 to `coffee`) and an untitled "now" button.
    static func morning(now: Date) throws -> WidgetSpec {
        var d = try #require(try TemplateCatalogue.find("classic")?.design(now: now))
        d.name = "Morning"
        d.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "Coffee", kind: .incrementVariable, variableKey: "coffee", incrementAmount: 1),
            ActionSpec(title: "", kind: .setVariableToNow, variableKey: "fed", nowFormat: .unixSeconds),
        ])
        return d
    }

    static func layout(_ design: WidgetSpec, isPro: Bool, now: Date) -> WidgetLayout {
        let context = RenderContext(
            now: now, timeZone: TimeZone(identifier: "Europe/London")!,
            locale: Locale(identifier: "en_GB"), isPro: isPro)
        return WidgetRenderer().layout(
            design: design, family: .medium, scale: 1,
            inputs: RenderInputs(context: context, appearance: .dark))
    }

    @Test func aPointOnTheActionBarWithoutProSaysItNeedsPro() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let design = try Self.morning(now: now)
        let free = Self.layout(design, isPro: false, now: now)
        let pro = Self.layout(design, isPro: true, now: now)
        #expect(free.actions.isEmpty, "the bar is laid out only with Pro")
        let coffee = try #require(pro.actions.first { $0.title == "Coffee" }, "\(pro.actions)")
        let centre = Point(x: coffee.rect.midX, y: coffee.rect.midY)
        #expect(free.action(at: centre) == nil)

        let message = ProOnlyButtons.missMessage(at: centre, written: "100,140", layout: free, proLayout: pro)
        #expect(
            message
                == """
                no button at 100,140 without Pro: the action bar ('Coffee', 'Done') needs Pro; use --pro or \
                'weaver pro unlock'
                """,
            "\(String(describing: message))")
        // Elsewhere, or with Pro (nothing is missing), the caller's own message stands.
        #expect(ProOnlyButtons.missMessage(at: Point(x: 2, y: 2), written: "2,2", layout: free, proLayout: pro) == nil)
        #expect(ProOnlyButtons.missMessage(at: centre, written: "100,140", layout: pro, proLayout: pro) == nil)
        #expect(ProOnlyButtons.missing(from: pro, in: pro).isEmpty)
        #expect(ProOnlyButtons.missing(from: free, in: pro).map(\.title) == ["Coffee", "Done"])
    }
}
