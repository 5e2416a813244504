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
    /// same names at the same boundaries (written into the served script from `ColourName.bands`;
    /// Tests/HomeScreenTests/js/colourname.test.js checks the script's lookup itself).
    @Test func thePageScriptUsesTheSameBoundaries() throws {
        let js = try #require(WebAssets.asset("/static/app.js")).text
        for name in ["white", "white to pink", "pink", "pink to brown", "brown"] {
            #expect(js.contains("\"\(name)\"]"), "\(name)")
        }
        #expect(js.contains("[1.75, \"pink to brown\"]"), "\(WebAssets.colourBands)")
        #expect(!js.contains("Deep pink") && !js.contains("pink–brown"))
    }
}
