import Foundation
import WidgetDesign
import WidgetRender

/// The Editor's HTML. The page carries only the frame and the design's ID: the controls are
/// generated in the browser from the field table (`GET /api/fields`), so the page cannot offer a
/// field, range or value the strict editor would refuse.
enum EditorPage {
    /// `/editor`: the designs to edit, and a new design from a starter.
    static func chooser(designs: [DesignListing], starters: [CatalogueTemplate], token: String) -> String {
        var html = "<h1 class=\"page-title\">Editor</h1>\n"
        html += "<p class=\"page-lede\">Choose a design to edit, or start a new one from a template.</p>\n"
        html += "<section class=\"chooser\" aria-labelledby=\"yours\">\n<h2 id=\"yours\">Your designs</h2>\n"
        if designs.isEmpty {
            html += "<p class=\"muted\">No designs yet: start one below.</p>\n"
        } else {
            html += "<ul class=\"design-list\">\n"
            for d in designs {
                html +=
                    """
                    <li><a class=\"card design-link\" href=\"/editor/\(Page.escape(Page.urlPath(d.id)))\" \
                    data-design-id=\"\(Page.escape(d.id))\">
                    """
                html += "<span class=\"design-name\">\(Page.escape(d.name))</span>"
                html +=
                    """
                    <span \
                    class=\"muted\">\(Page.escape(d.template))\(d.isDefault ? " · default" : "")</span></a></li>\n
                    """
            }
            html += "</ul>\n"
        }
        html += "</section>\n<section class=\"chooser\" aria-labelledby=\"new\">\n<h2 id=\"new\">New design</h2>\n"
        html += "<form id=\"new-design\" class=\"card new-design\" autocomplete=\"off\">\n"
        html +=
            """
            <label for=\"new-name\">Name</label>\n<input type=\"text\" id=\"new-name\" name=\"name\" \
            maxlength=\"\(FieldLimits.maxNameCharacters)\" placeholder=\"My widget\">\n
            """
        html += "<label for=\"new-template\">Template</label>\n<select id=\"new-template\" name=\"template\">\n"
        for s in starters {
            html +=
                "<option value=\"\(Page.escape(s.id))\">\(Page.escape(s.name)) — \(Page.escape(s.summary))</option>\n"
        }
        html += "</select>\n<button type=\"submit\" class=\"btn primary\">Create</button>\n"
        html += "<p class=\"form-error\" id=\"new-error\" role=\"alert\"></p>\n</form>\n</section>\n"
        return AppShell.page(
            title: "Editor", active: .editor, token: token, body: html,
            stylesheets: ["/static/editor.css"], scripts: ["/static/editor.js"])
    }

    /// `/editor/{id}`: the bar (title, unsaved marker, undo, redo, revert, save), the controls
    /// (filled in by the script from the field table), the preview dock and the inspector.
    static func editor(id: String, name: String, token: String) -> String {
        let e = Page.escape
        var html = "<div id=\"editor\" class=\"editor\" data-design-id=\"\(e(id))\">\n"
        html +=
            """
            <div class=\"editor-bar\">\n<div class=\"editor-title\"><a class=\"btn ghost back\" href=\"/editor\" \
            aria-label=\"All designs\">‹</a>
            """
        html += "<h1 id=\"design-title\">\(e(name))</h1>"
        html += "<span id=\"unsaved\" class=\"pill warn\" hidden>Unsaved changes</span></div>\n"
        html += "<div class=\"editor-actions\" role=\"toolbar\" aria-label=\"Design\">\n"
        html +=
            """
            <button type=\"button\" id=\"undo\" class=\"btn ghost\" aria-keyshortcuts=\"Control+Z\" title=\"Undo \
            (Ctrl+Z)\" disabled>Undo</button>\n
            """
        html +=
            """
            <button type=\"button\" id=\"redo\" class=\"btn ghost\" aria-keyshortcuts=\"Control+Shift+Z \
            Control+Y\" title=\"Redo (Ctrl+Shift+Z)\" disabled>Redo</button>\n
            """
        html += "<button type=\"button\" id=\"revert\" class=\"btn\" disabled>Revert</button>\n"
        html +=
            """
            <button type=\"button\" id=\"save\" class=\"btn primary\" aria-keyshortcuts=\"Control+S\" title=\"Save \
            (Ctrl+S)\">Save</button>\n
            """
        html += "</div>\n</div>\n"
        html += "<div class=\"editor-grid\">\n"
        html += "<form id=\"controls\" class=\"controls\" aria-label=\"Design fields\" autocomplete=\"off\" novalidate>"
        html += "<p class=\"muted loading\">Loading the fields…</p></form>\n"
        html += "<aside class=\"dock\" aria-label=\"Preview\">\n<div class=\"dock-head\"><h2>Preview</h2>"
        html += "<label class=\"sample-toggle\"><input type=\"checkbox\" id=\"sample-data\"> Sample data</label>"
        // The widgets' own appearance (what `weaver render --appearance` takes), not the page's.
        html += "<label class=\"sample-toggle\"><input type=\"checkbox\" id=\"light-widgets\"> Light widgets</label>"
        html += "<span class=\"muted\" id=\"dock-state\" aria-live=\"polite\"></span></div>\n"
        html += "<div class=\"dock-home\">\n"
        for family in WidgetFamily.allCases where !family.isAccessory { html += figure(family) }
        html += "</div>\n<div class=\"dock-lock\" aria-label=\"Lock screen\">\n"
        for family in WidgetFamily.allCases where family.isAccessory { html += figure(family) }
        html += "</div>\n</aside>\n</div>\n"
        html +=
            """
            <details id=\"inspector\" class=\"inspector\">\n<summary>Inspector</summary>\n<div \
            class=\"inspector-grid\">\n
            """
        html +=
            """
            <section aria-labelledby=\"ins-checks\"><h3 id=\"ins-checks\">Quick checks</h3><ul \
            id=\"inspector-checks\"></ul></section>\n
            """
        html +=
            """
            <section aria-labelledby=\"ins-json\"><h3 id=\"ins-json\">JSON as saved</h3><pre id=\"inspector-json\" \
            class=\"mono\" tabindex=\"0\"></pre></section>\n
            """
        html +=
            """
            <section aria-labelledby=\"ins-tree\"><h3 id=\"ins-tree\">Layout (medium, from the draft)</h3><pre \
            id=\"inspector-tree\" class=\"mono\" tabindex=\"0\"></pre></section>\n
            """
        html += "</div>\n</details>\n</div>\n"
        return AppShell.page(
            title: name + " — Editor", active: .editor, token: token, body: html,
            stylesheets: ["/static/editor.css"], scripts: ["/static/editor.js"], mainClass: "editor-main")
    }

    static func figure(_ family: WidgetFamily) -> String {
        let (w, h) = family.sizePoints
        var html =
            """
            <figure class=\"preview family-\(family.rawValue)\">\n<div class=\"preview-surface\" \
            style=\"width:\(Page.number(w))px;height:\(Page.number(h))px\">
            """
        html +=
            """
            <img data-preview-family=\"\(family.rawValue)\" width=\"\(Page.number(w))\" \
            height=\"\(Page.number(h))\" alt=\"\(Page.familyName(family.rawValue)) preview\"></div>\n
            """
        html += "<figcaption>\(Page.familyName(family.rawValue))</figcaption>\n"
        html +=
            """
            <ul class=\"preview-warnings\" data-warnings-for=\"\(family.rawValue)\" \
            aria-label=\"\(Page.familyName(family.rawValue)) warnings\"></ul>\n</figure>\n
            """
        return html
    }
}
