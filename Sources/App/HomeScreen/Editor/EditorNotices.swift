import Foundation
import WidgetDesign
import WidgetRender

/// What the Editor says next to a control right after an accepted edit: a value the strict editor
/// takes but the widget will not show as the user expects (a symbol the symbol map does not
/// know draws the fallback; an action bar without Pro is not drawn on the widgets).
enum EditorNotices {
    struct Notice: Equatable {
        var field: String
        var message: String
    }

    static func after(field: String, in spec: WidgetSpec, isPro: Bool) -> [Notice] {
        var notices: [Notice] = []
        let key = field.lowercased()
        if key.hasPrefix("symbol"), let symbol = spec.symbol, SymbolMap.glyph(symbol.name).isFallback {
            notices.append(
                Notice(
                    field: field,
                    message:
                        """
                        '\(symbol.name)' is not in the symbol map: the widget draws \(SymbolMap.fallbackName) (a \
                        circled ?) instead; pick one from the list
                        """
                ))
        }
        if (key.hasPrefix("action") || key.hasPrefix("actions")) && spec.actionBar != nil && !isPro {
            notices.append(
                Notice(
                    field: field,
                    message: "buttons are a Pro feature: without Pro ('weaver pro unlock') the widgets do not draw them"
                ))
        }
        if key.hasPrefix("matchedset") && spec.matchedSet != nil && !isPro {
            notices.append(
                Notice(
                    field: field,
                    message:
                        """
                        matched sets are a Pro feature: without Pro ('weaver pro unlock') every size draws the \
                        design itself
                        """
                ))
        }
        return notices
    }
}
