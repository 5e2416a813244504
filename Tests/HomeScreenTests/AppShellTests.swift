import Foundation
import HomeScreen
import TestSupport
import Testing

/// The app shell: one navigation and one stylesheet on every page.
struct AppShellTests {
    @Test func aPageIsWrappedWithTheNavigationAndTheSharedSheet() {
        let html = AppShell.page(
            title: "Editor", active: .editor, token: "abc<", body: "<p id=\"x\">body</p>",
            stylesheets: ["/static/editor.css"], scripts: ["/static/editor.js"])
        #expect(html.contains("<title>Editor · WidgetWeaver</title>"))
        #expect(html.contains(#"<meta name="widgetweaver-token" content="abc&lt;">"#), "the token is escaped")
        // The shell's sheet first, the page's after it.
        let shell = html.range(of: AppShell.stylesheetPath)!, own = html.range(of: "/static/editor.css")!
        #expect(shell.lowerBound < own.lowerBound)
        #expect(html.contains(#"<a href="/editor" data-section="editor" aria-current="page">Editor</a>"#))
        #expect(html.contains(#"<a href="/" data-section="home">Home</a>"#))
        // Only sections this build serves are linked (no link leads to a 404).
        for section in AppShell.Section.allCases {
            #expect(html.contains("data-section=\"\(section.rawValue)\"") == section.isServed, "\(section)")
        }
        #expect(html.contains(#"<main id="content" tabindex="-1">"#) && html.contains(#"<p id="x">body</p>"#))
        #expect(html.contains(##"<a class="skip" href="#content">"##))
    }

    @Test func everyServedSectionAnswersInsideTheShell() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.startServer()
        for section in AppShell.Section.allCases where section.isServed {
            let page = try RawHTTP.send(port: rig.port, path: section.path)
            #expect(page.status == 200, "\(section.path)")
            #expect(
                page.text.contains(#"data-section="\#(section.rawValue)" aria-current="page""#),
                "\(section.path) marks itself")
            #expect(page.text.contains(AppShell.stylesheetPath))
        }
        let sheet = try RawHTTP.send(port: rig.port, path: AppShell.stylesheetPath)
        #expect(sheet.status == 200 && sheet.headers["content-type"]?.hasPrefix("text/css") == true)
        #expect(sheet.text.contains("prefers-color-scheme: light"))
        // The Noise page is the mixer.
        #expect(try RawHTTP.send(port: rig.port, path: "/noise").text.contains(#"id="mixer-form""#))
    }
}
