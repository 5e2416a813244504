import Foundation
import Testing

@testable import HomeScreen
@testable import NoiseControl
@testable import WidgetRender

/// Issue 28.7: colour 1.5 was "pink–brown" in the CLI, "pink to brown" in the mixer and "Deep
/// pink" in the widget. One name for one colour wherever it is shown (the widget capitalises it).
@Suite struct ColourNameTests {
    @Test func theCLITheMixerAndTheWidgetNameEveryColourAlike() {
        for step in 0...200 {
            let beta = Double(step) / 100
            let mixer = Page.colourName(beta)
            #expect(StatusFormatter.colourName(beta) == mixer, "\(beta)")
            #expect(TemplateContext.noiseColourName(beta).lowercased() == mixer, "\(beta)")
        }
        #expect(Page.colourName(1.5) == "pink to brown")
    }

    /// The page's script names a colour while its slider moves, before the server answers: the
    /// same names at the same boundaries.
    @Test func thePageScriptUsesTheSameBoundaries() {
        for name in ["white", "white to pink", "pink", "pink to brown", "brown"] {
            #expect(Assets.js.contains("'\(name)'"), "\(name)")
        }
        #expect(Assets.js.contains("if (c < 1.75) return 'pink to brown';"), "\(Assets.colourNameScript)")
        #expect(!Assets.js.contains("Deep pink") && !Assets.js.contains("pink–brown"))
    }
}
