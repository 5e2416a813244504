import Foundation
import WidgetDesign
import WidgetRender

/// The Editor's HTML. The page carries only the frame and the design's ID: the controls are
/// generated in the browser from the field table (`GET /api/fields`), so the page cannot offer a
/// field, range or value the strict editor would refuse.
enum EditorPage {
    /// `/editor`: the designs to edit, and a new design from a starter.
    static func chooser(designs: [DesignListing], starters: [CatalogueTemplate], token: String) -> String {
        let t = templates
        let list = designs.map { d in
            t.render(
                "design",
                [
                    "path": Page.urlPath(d.id), "id": d.id, "name": d.name, "template": d.template,
                    "default": d.isDefault ? t.render("default") : .empty,
                ])
        }
        let html = t.render(
            "chooser",
            [
                "designs": designs.isEmpty ? t.render("noDesigns") : t.render("designList", ["items": list]),
                "maxName": FieldLimits.maxNameCharacters,
                "starters": starters.map {
                    t.render("starter", ["id": $0.id, "name": $0.name, "summary": $0.summary])
                },
            ])
        return AppShell.page(
            title: "Editor", active: .editor, token: token, body: html.description,
            stylesheets: ["/static/editor.css"], scripts: ["/static/editor.js"])
    }

    static let templates = HTMLTemplates(PackageResources.editor_html, file: "Editor/editor.html")

    /// `/editor/{id}`: the bar (title, unsaved marker, undo, redo, revert, save), the Describe and Ask
    /// boxes (`AssistantRoutes`; filled in by the script from `GET /api/assistant`), the controls
    /// (filled in by the script from the field table), the preview dock (its "Light widgets" box is the widgets'
    /// own appearance, what `weaver render --appearance` takes, not the page's) and the inspector.
    static func editor(id: String, name: String, token: String) -> String {
        let html = templates.render(
            "editor",
            [
                "id": id, "name": name, "maxWords": AssistantRoutes.maximumTextCharacters,
                "home": WidgetFamily.allCases.filter { !$0.isAccessory }.map(figure),
                "lock": WidgetFamily.allCases.filter(\.isAccessory).map(figure),
            ])
        return AppShell.page(
            title: name + " — Editor", active: .editor, token: token, body: html.description,
            stylesheets: ["/static/editor.css"], scripts: ["/static/editor.js"], mainClass: "editor-main")
    }

    static func figure(_ family: WidgetFamily) -> HTML {
        let (w, h) = family.sizePoints
        return templates.render(
            "figure",
            [
                "family": family.rawValue, "width": Page.number(w), "height": Page.number(h),
                "name": Page.familyName(family.rawValue),
            ])
    }
}
