import CivilDates
import Foundation
import SharedStore
import WidgetDesign

/// The Library's HTML: every design as the renderer draws it (the home screen's picture route),
/// with its name, template and last update, the free-tier cap, and the actions. Sharing lives
/// here too: export (one design or all) and import through the Import Review (`ImportRoutes`).
enum LibraryPage {
    static func page(rows: [LibraryRoutes.Row], cap: String, token: String, setAside: [String] = []) -> String {
        let t = templates
        let cards = rows.map { r in
            let s = r.summary
            let updated = ISODate.format(s.updatedAt)
            return t.render(
                "card",
                [
                    "id": s.id.uuidString, "name": s.name, "template": s.template.displayName, "updated": updated,
                    "updatedShown": updated.prefix(16).replacingOccurrences(of: "T", with: " "),
                    "image": s.hasImage ? t.render("image") : .empty,
                    "default": r.isDefault ? t.render("default") : .empty,
                    "setDefault": r.isDefault ? .empty : t.render("setDefault"),
                    "repaired": s.repairs.isEmpty
                        ? .empty : t.render("repaired", ["repairs": s.repairs.map { t.render("repair", ["text": $0]) }])
                        ,
                ])
        }
        let html = t.render(
            "library",
            [
                "cap": cap, "empty": rows.isEmpty ? t.render("empty") : .empty, "cards": cards,
                "setAside": setAside.isEmpty
                    ? .empty : t.render("setAside", ["files": setAside.map { t.render("setAsideFile", ["name": $0]) }]),
            ])
        return AppShell.page(
            title: "Library", active: .library, token: token, body: html.description,
            stylesheets: ["/static/pages.css"], scripts: ["/static/library.js"])
    }

    static let templates = HTMLTemplates(PackageResources.library_html, file: "Library/library.html")
}
