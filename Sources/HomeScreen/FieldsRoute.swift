import FieldTable
import Hummingbird
import NIOCore
import WidgetDesign

/// `GET /api/fields`: the design field table (`DesignFields`) as `FieldJSON` encodes it, the one
/// definition the Editor generates its controls from. (The mixer's table joins this document as
/// `"mix"` where that table is defined.)
struct FieldsRoute: AppRoutes {
    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/fields") { _, _ in
            Routes.body("{\"design\":" + FieldJSON.array(DesignFields.table) + "}", type: "application/json")
        }
    }
}
