// Widget renderers (layout tree, then PNG/SVG/JSON/text) live here.
import CCairo
import Variables
import WidgetDesign

public enum WidgetRenderModule {
    /// The Cairo library version this build links against (e.g. "1.16.0").
    public static var cairoVersion: String { String(cString: cairo_version_string()) }
}
