import Foundation

/// The frame every page of `weaver serve` shares: the document head (token, shared stylesheet),
/// the app bar with the navigation, and a live status line. A page supplies only its `<main>`
/// content; this keeps one look and one navigation across Home, Explore, Library, Editor, Noise
/// and Data, whichever file builds the page.
public enum AppShell {
    /// The app's sections, in navigation order.
    public enum Section: String, CaseIterable, Sendable {
        case home, explore, library, editor, noise, data

        public var title: String {
            switch self {
            case .home: return "Home"
            case .explore: return "Explore"
            case .library: return "Library"
            case .editor: return "Editor"
            case .noise: return "Noise"
            case .data: return "Data"
            }
        }

        /// Where the section's page is served.
        public var path: String {
            self == .home ? "/" : "/" + rawValue
        }

        /// Whether this build serves the section's page. The navigation shows only sections that
        /// have one, so no link leads to a 404; a branch that adds a page flips its case here.
        public var isServed: Bool {
            switch self {
            case .home, .editor, .noise, .explore, .library, .data: return true
            }
        }
    }

    /// The stylesheet every page loads first (`ShellStyle.css`); a page adds its own after it.
    public static let stylesheetPath = "/static/shell.css"

    /// A whole HTML document: `body` (already escaped HTML) inside the shell.
    /// - Parameters:
    ///   - title: the page's own title; the tab reads "TITLE · WidgetWeaver".
    ///   - active: the section the navigation marks as current (`aria-current="page"`).
    ///   - token: the per-run write token, read by the page's scripts from a `<meta>`.
    ///   - stylesheets / scripts: the page's own assets, after the shell's (same-origin paths).
    ///   - mainClass: a class for `<main>`, so a page can change its grid without new markup.
    public static func page(
        title: String, active: Section?, token: String, body: String,
        stylesheets: [String] = [], scripts: [String] = [], mainClass: String? = nil
    ) -> String {
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="dark light">
            <meta name="widgetweaver-token" content="\(Page.escape(token))">
            <title>\(Page.escape(title == "WidgetWeaver" ? title : title + " · WidgetWeaver"))</title>
            <link rel="stylesheet" href="\(stylesheetPath)">

            """
        for sheet in stylesheets { html += "<link rel=\"stylesheet\" href=\"\(Page.escape(sheet))\">\n" }
        for script in scripts { html += "<script src=\"\(Page.escape(script))\" defer></script>\n" }
        html += "</head>\n<body>\n"
        html += "<a class=\"skip\" href=\"#content\">Skip to content</a>\n"
        html += navigation(active: active)
        html += "<main id=\"content\"\(mainClass.map { " class=\"\(Page.escape($0))\"" } ?? "") tabindex=\"-1\">\n"
        html += body
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    /// The app bar: the brand, the sections this build serves, and the live status line that
    /// scripts write short messages to (`#live`, polite).
    static func navigation(active: Section?) -> String {
        var html = "<header class=\"app-bar\">\n"
        html +=
            """
            <a class=\"brand\" href=\"/\" aria-label=\"WidgetWeaver home\"><span class=\"brand-mark\" \
            aria-hidden=\"true\"></span>
            """
        html += "<span class=\"brand-name\">WidgetWeaver</span></a>\n"
        html += "<nav class=\"app-nav\" aria-label=\"Sections\">\n<ul>\n"
        for section in Section.allCases where section.isServed {
            let current = section == active ? " aria-current=\"page\"" : ""
            html +=
                """
                <li><a href=\"\(section.path)\" \
                data-section=\"\(section.rawValue)\"\(current)>\(section.title)</a></li>\n
                """
        }
        html += "</ul>\n</nav>\n<p id=\"live\" class=\"live\" role=\"status\" aria-live=\"polite\"></p>\n</header>\n"
        return html
    }
}
