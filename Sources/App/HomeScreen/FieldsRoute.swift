import FieldTable
import Hummingbird
import NoiseEngine
import WidgetDesign

/// `GET /api/fields`: the design and mix field tables, `{"design": [FIELD...], "mix": [FIELD...]}`
/// (see `FieldJSON`), for the browser editor. Read-only; the server's Host check applies as to
/// every route.
enum FieldsRoute {
    /// The answer never changes while the server runs: built once.
    static let json = FieldJSON.document(design: DesignFields.table, mix: MixFields.table)

    static func register(on router: Router<BasicRequestContext>) {
        router.get("/api/fields") { _, _ in
            Routes.body(json, type: "application/json")
        }
    }
}
