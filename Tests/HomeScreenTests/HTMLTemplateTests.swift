import Foundation
import Testing

@testable import HomeScreen

/// The pages' HTML comes from files under Resources/ through `HTMLTemplates`: text is escaped unless it is
/// already `HTML`, lists compose without blank lines, and every page file's fragments are well formed.
@Suite struct HTMLTemplateTests {
    static let file = """
        <!-- @fragment list -->
        <ul title="{{title}}">
        {{items}}
        </ul>
        <!-- @fragment item -->
        <li>{{name}}{{mark}}</li>
        <!-- @inline mark -->
         <b>new</b>

        """

    @Test func textIsEscapedAndMarkupIsNot() {
        let t = HTMLTemplates(Array(Self.file.utf8), file: "test.html")
        let items = ["<script>x</script>", "Tom & \"Jerry\""].map {
            t.render("item", ["name": $0, "mark": t.render("mark")])
        }
        let html = t.render("list", ["title": "it's", "items": items]).description
        #expect(
            html == """
                <ul title="it&#39;s">
                <li>&lt;script&gt;x&lt;/script&gt; <b>new</b></li>
                <li>Tom &amp; &quot;Jerry&quot; <b>new</b></li>
                </ul>

                """)
    }

    /// A hole alone on its line takes the line's newline when its value is empty or ends one itself.
    @Test func anEmptyListLeavesNoBlankLine() {
        let t = HTMLTemplates(Array(Self.file.utf8), file: "test.html")
        #expect(t.render("list", ["title": "", "items": [HTML]()]).description == "<ul title=\"\">\n</ul>\n")
        #expect(t.render("mark").description == " <b>new</b>", "an inline fragment has no newline of its own")
    }

    /// Every page renders with the fragments it names (a missing fragment or value stops the server, so
    /// the pages are drawn once here); the served scripts have their includes resolved.
    @Test func everyPageAndScriptIsComplete() throws {
        let mixer = MixerState(
            running: false, state: "stopped", presetID: nil, mixName: "Mine <1>", masterVolume: 0.5, layers: [],
            timerRemainingSeconds: 90, presets: [])
        #expect(Page.noise(mixer: mixer, token: "t").contains("Mine &lt;1&gt; (custom)"))
        #expect(
            EditorPage.editor(id: "X", name: "A&B", token: "t").contains(
                "<h1 id=\"design-title\" dir=\"auto\">A&amp;B</h1>"))
        for asset in WebAssets.served {
            #expect(!asset.text.contains("// @include"), "\(asset.path)")
            #expect(!asset.text.isEmpty, "\(asset.path)")
        }
        #expect(try #require(WebAssets.asset("/static/library.js")).text.contains("function reloadWith(text, extra)"))
    }

    /// Issue 41.16: a design name with bidirectional controls (U+202E) reversed the caption around it on Home
    /// ("llamS"). User text is isolated: `<bdi>` inside a caption, `dir="auto"` on a heading that is only the name.
    @Test func aNamesDirectionStaysInsideTheName() {
        let name = "\u{202E}Evil"
        let tile = WidgetTile(
            designID: "ABCD-1", designName: name, family: "small", widthPt: 170, heightPt: 170, label: "x",
            buttons: [], version: "v1")
        #expect(Page.tile(tile).contains("<figcaption><bdi>\(name)</bdi> · Small</figcaption>"))
        let mixer = MixerState(
            running: false, state: "stopped", presetID: nil, mixName: "M", masterVolume: 0.5, layers: [],
            timerRemainingSeconds: nil, presets: [])
        #expect(Page.home(tiles: [tile], mixer: mixer, token: "t").contains("<h2 dir=\"auto\">\(name)</h2>"))
        #expect(EditorPage.editor(id: "X", name: name, token: "t").contains("<h1 id=\"design-title\" dir=\"auto\">"))
    }
}
