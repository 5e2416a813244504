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

    /// The stylesheet every page loads first (`Resources/Shell/shell.css`); a page adds its own after it.
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
        let t = templates
        return t.render(
            "page",
            [
                "token": token, "title": title == "WidgetWeaver" ? title : title + " · WidgetWeaver",
                "shellStylesheet": stylesheetPath,
                "stylesheets": stylesheets.map { t.render("stylesheet", ["path": $0]) },
                "scripts": scripts.map { t.render("script", ["path": $0]) },
                "navigation": navigation(active: active),
                "mainClass": mainClass.map { t.render("mainClass", ["name": $0]) } ?? .empty,
                "body": HTML(trustedBody: body),
            ]
        ).description
    }

    static let templates = HTMLTemplates(PackageResources.shell_html, file: "Shell/shell.html")

    /// The app bar: the brand, the sections this build serves, and the live status line that
    /// scripts write short messages to (`#live`, polite).
    static func navigation(active: Section?) -> HTML {
        let sections = Section.allCases.filter(\.isServed).map { section in
            templates.render(
                section == active ? "currentSection" : "section",
                ["path": section.path, "name": section.rawValue, "title": section.title])
        }
        return templates.render("navigation", ["sections": sections])
    }
}
