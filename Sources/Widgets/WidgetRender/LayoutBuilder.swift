import Foundation
import WidgetDesign

/// Collects elements and actions while a template lays itself out, and measures text.
final class LayoutBuilder {
    let bounds: Rect
    let family: WidgetFamily
    let palette: Palette
    let text: TextEngine
    /// The design's typeface: every run measured here is drawn in it.
    let fontDesign: FontDesignToken
    var elements: [LayoutElement] = []
    var actions: [ActionArea] = []
    var warnings: [String] = []
    var textLines: [String] = []
    /// See `WidgetLayout.redrawAt`: the earliest moment asked for.
    var redrawAt: Date?

    init(family: WidgetFamily, palette: Palette, text: TextEngine, fontDesign: FontDesignToken = .default) {
        let size = family.sizePoints
        self.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        self.family = family
        self.palette = palette
        self.text = text
        self.fontDesign = fontDesign
    }

    func add(_ kind: ElementKind, _ rect: Rect, _ primitive: Primitive) {
        elements.append(LayoutElement(kind: kind, rect: rect, primitive: primitive))
    }

    func fill(
        _ rect: Rect, _ paint: Paint, radius: Double = 0, stroke: RGBA? = nil, strokeWidth: Double = 1,
        kind: ElementKind = .shape
    ) {
        add(kind, rect, .shape(fill: paint, cornerRadius: radius, stroke: stroke, strokeWidth: strokeWidth))
    }

    /// Measures `run` in a box `width` wide at (`x`, `y`), placing its rect by `align`. When
    /// `maxY` is given, the line limit shrinks so the text ends above it; nothing is added when
    /// not even one line fits. Returns the text's rect.
    @discardableResult
    func addText(
        _ run: TextRun, x: Double, y: Double, width: Double, align: TextAlignment = .leading, maxY: Double? = nil
    ) -> Rect? {
        var run = run
        guard width > 1, !run.text.isEmpty else { return nil }
        if let maxY {
            let lineHeight = lineHeightOf(run)
            let fit = Int(((maxY - y) / lineHeight).rounded(.down))
            guard fit >= 1 else { return nil }
            run.lineLimit = min(run.lineLimit, fit)
        }
        let size = measure(&run, width: width)
        let rx: Double =
            switch align {
            case .leading: x
            case .centre: x + (width - size.width) / 2
            case .trailing: x + width - size.width
            }
        run.alignment = align
        let rect = Rect(x: rx, y: y, width: size.width, height: size.height)
        add(.text, rect, .text(run))
        return rect
    }

    /// Measures without adding.
    func measure(_ run: TextRun, width: Double) -> (width: Double, height: Double) {
        var r = run
        return measure(&r, width: width)
    }

    /// Measures `run` in the design's typeface, filling in its lines (see `TextEngine.measure`).
    func measure(_ run: inout TextRun, width: Double) -> (width: Double, height: Double) {
        run.fontDesign = fontDesign
        return text.measure(&run, width: width)
    }

    func lineHeightOf(_ run: TextRun) -> Double {
        var one = run
        one.text = "Ag"
        one.lineLimit = 1
        return measure(&one, width: 10_000).height
    }

    func symbol(_ name: String, centre: Point, size: Double, colour: RGBA, weight: Int = 400, field: String? = nil)
        -> Rect
    {
        let glyph = SymbolMap.glyph(name)
        if glyph.isFallback {
            warnings.append(
                """
                \(field ?? "symbol"): unknown symbol '\(name)'; drawn as a question mark (see docs/rendering.md \
                for the symbol map)
                """
            )
        }
        let rect = Rect(x: centre.x - size / 2, y: centre.y - size / 2, width: size, height: size)
        add(.symbol, rect, .symbol(glyph, colour: colour, weight: weight))
        return rect
    }

    func action(_ action: ActionArea) { actions.append(action) }

    /// Asks a live host to draw again at `moment` (the earliest of all such requests wins).
    func redraw(at moment: Date) {
        if redrawAt.map({ moment < $0 }) ?? true { redrawAt = moment }
    }

    func finish(scale: Int, cornerRadius: Double) -> WidgetLayout {
        WidgetLayout(
            family: family, scale: scale, width: bounds.width, height: bounds.height, cornerRadius: cornerRadius,
            elements: elements, actions: actions, warnings: warnings, textLines: textLines, redrawAt: redrawAt)
    }
}
