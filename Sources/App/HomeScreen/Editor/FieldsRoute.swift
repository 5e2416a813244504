import FieldTable
import Hummingbird
import NoiseEngine
import WidgetDesign

/// `GET /api/fields`: the design and mix field tables, `{"design": [FIELD...], "mix": [FIELD...]}`
/// (see `FieldJSON`), for the browser editor. Read-only; the server's Host check applies as to
/// every route.
struct FieldsRoute {
    /// The answer never changes while the server runs: built once.
    static let json = FieldJSON.document(design: DesignFields.table, mix: MixFields.table)

    @Sendable func fields(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        Routes.body(Self.json, type: "application/json")
    }
}
