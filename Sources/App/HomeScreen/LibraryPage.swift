import CivilDates
import Foundation
import SharedStore
import WidgetDesign

/// The Library's HTML: every design as the renderer draws it (the home screen's picture route),
/// with its name, template and last update, the free-tier cap, and the actions. Sharing lives
/// here too: export (one design or all) and import through the Import Review (`ImportRoutes`).
enum LibraryPage {
    static func page(rows: [LibraryRoutes.Row], cap: String, token: String) -> String {
        let e = Page.escape
        var html = "<div class=\"page-head\"><div><h1 class=\"page-title\">Library</h1>\n"
        html += "<p class=\"page-lede\" id=\"library-cap\">\(e(cap))</p></div>\n"
        html += "<div class=\"page-tools\">\n"
        html += "<label class=\"visually-hidden\" for=\"library-search\">Search by name</label>\n"
        html += "<input type=\"search\" id=\"library-search\" placeholder=\"Search by name\" autocomplete=\"off\">\n"
        html += "<a class=\"btn\" id=\"export-all\" href=\"/api/export?ids=all\" download>Export all</a>\n"
        html +=
            """
            <label class=\"btn primary file-button\">Import…<input type=\"file\" id=\"import-file\" \
            accept=\".wwdesign,.json,application/json\"></label>\n
            """
        html += "</div></div>\n"
        html += "<p id=\"notice\" class=\"notice\" role=\"status\" hidden><span id=\"notice-text\"></span> "
        html += "<button type=\"button\" class=\"btn\" id=\"undo-delete\" hidden>Undo</button></p>\n"
        html +=
            """
            <div id=\"drop-zone\" class=\"drop-zone\">Drop a <b>.wwdesign</b> file here to review it before \
            importing</div>\n
            """
        html +=
            """
            <section id=\"import-review\" class=\"card import-review\" aria-labelledby=\"review-title\" \
            hidden></section>\n
            """
        if rows.isEmpty {
            html +=
                """
                <p class=\"muted\" id=\"library-empty\">No designs yet. Add one from <a \
                href=\"/explore\">Explore</a>.</p>\n
                """
        }
        html += "<ul class=\"library-grid\" id=\"library\">\n"
        for r in rows {
            let s = r.summary
            let id = s.id.uuidString
            html += "<li class=\"card design-card\" data-design-id=\"\(id)\" data-name=\"\(e(s.name))\">\n"
            html +=
                """
                <img class=\"design-picture\" src=\"/widgets/\(id).svg?family=small\" alt=\"\(e(s.name)), drawn \
                small\" width=\"170\" height=\"170\" loading=\"lazy\">\n
                """
            html += "<div class=\"design-meta\"><h2 class=\"design-name\">\(e(s.name))</h2>"
            html += "<p class=\"muted\"><span class=\"design-template\">\(e(s.template.displayName))</span> · updated "
            html +=
                """
                <time \
                datetime=\"\(ISODate.format(s.updatedAt))\">\
                \(e(ISODate.format(s.updatedAt).prefix(16).replacingOccurrences(of: "T", with: " "))) \
                UTC</time>
                """
            html += s.hasImage ? " · image" : ""
            html += "</p>"
            html += r.isDefault ? "<span class=\"pill default-pill\">Default</span>" : ""
            html += "</div>\n<div class=\"design-actions\">\n"
            html += "<a class=\"btn\" href=\"/editor/\(id)\">Edit</a>\n"
            if !r.isDefault {
                html += "<button type=\"button\" class=\"btn\" data-act=\"default\">Set default</button>\n"
            }
            html += "<button type=\"button\" class=\"btn\" data-act=\"duplicate\">Duplicate</button>\n"
            html += "<button type=\"button\" class=\"btn\" data-act=\"rename\">Rename</button>\n"
            html += "<a class=\"btn\" data-act=\"export\" href=\"/api/export?ids=\(id)\" download>Export</a>\n"
            html += "<button type=\"button\" class=\"btn danger\" data-act=\"delete\">Delete</button>\n"
            html += "</div>\n</li>\n"
        }
        html += "</ul>\n"
        return AppShell.page(
            title: "Library", active: .library, token: token, body: html,
            stylesheets: ["/static/pages.css"], scripts: ["/static/library.js"])
    }
}
