import Foundation
import TemplateLanguage
import WidgetDataKeys
import WidgetDesign

/// Lays out one design in one family: the templates' geometry, in points. Not thread-safe.
final class LayoutEngine {
    let text: TextEngine
    let templates = TemplateRenderer()

    init(text: TextEngine) { self.text = text }

    func layout(_ design: WidgetSpec, family: WidgetFamily, scale: Int, inputs: RenderInputs) -> WidgetLayout {
        text.beginWidget()
        let spec = design.resolved(for: family, isPro: inputs.context.isPro)
        var inputs = inputs
        if let format = spec.clockFormat {
            inputs.context.timeFormat = TimeTextFormat(
                twelveHour: format.isTwelveHour,
                seconds: format.showsSeconds && inputs.redrawsEachSecond)
        }
        let palette = Palette(inputs.appearance)
        let b = LayoutBuilder(family: family, palette: palette, text: text, fontDesign: spec.style.fontDesign)
        let t = TemplateContext(spec: spec, inputs: inputs, builder: b, palette: palette, engine: self)
        if Self.showsSeconds(spec, live: inputs.redrawsEachSecond) {
            // Seconds change each second: a live host draws again at the next one.
            let t = inputs.context.now.timeIntervalSince1970
            b.redraw(at: Date(timeIntervalSince1970: t.rounded(.down) + 1))
        }
        if family.isAccessory {
            t.accessory()
            return b.finish(scale: scale, cornerRadius: 0)
        }
        switch spec.layout.template {
        case .classic: t.classic()
        case .hero: t.hero()
        case .poster: t.poster()
        case .weather: t.weather()
        case .nextUpCalendar: t.nextUp()
        case .reminders: t.reminders()
        case .clockIcon: t.clock()
        case .noiseMachine: t.noiseMachine()
        case .month: t.month()
        case .countdown: t.countdown()
        case .forecast: t.forecast()
        case .presetButton: t.presetButton()
        }
        return b.finish(scale: scale, cornerRadius: cornerRadius(spec))
    }

    /// Whether the design draws seconds: the seconds keys in a text, or (in a host that redraws
    /// each second) a `clock.format` with seconds on a template that writes the time (the clock,
    /// or `{{__time}}` in a text).
    static func showsSeconds(_ spec: WidgetSpec, live: Bool) -> Bool {
        let texts = [spec.name, spec.primaryText, spec.secondaryText ?? ""]
        if texts.contains(where: { $0.contains("__time_seconds") || $0.contains("__second") }) { return true }
        guard live, spec.clockFormat?.showsSeconds == true else { return false }
        return spec.layout.template == .clockIcon || texts.contains { $0.contains("__time") }
    }

    /// Widget corners: `style.cornerRadius`, at most half the short side.
    func cornerRadius(_ spec: WidgetSpec) -> Double { max(0, min(spec.style.cornerRadiusPoints, 85)) }
}

/// One layout in progress: the design, its resolved texts, and helpers every template shares.
struct TemplateContext {
    let spec: WidgetSpec
    let inputs: RenderInputs
    let b: LayoutBuilder
    let palette: Palette
    let engine: LayoutEngine
    let accent: RGBA
    var family: WidgetFamily { b.family }
    var bounds: Rect { b.bounds }

    init(spec: WidgetSpec, inputs: RenderInputs, builder: LayoutBuilder, palette: Palette, engine: LayoutEngine) {
        self.spec = spec
        self.inputs = inputs
        self.b = builder
        self.palette = palette
        self.engine = engine
        self.accent = palette.accent(spec.style.accent)
    }

    /// A templated field with its variables substituted, whitespace trimmed.
    func resolve(_ source: String?) -> String {
        guard let source, !source.isEmpty else { return "" }
        return engine.templates.render(source, in: inputs.context).trimmingCharactersInWhitespace()
    }

    var name: String { resolve(spec.name) }
    var primary: String { resolve(spec.primaryText) }
    var secondary: String { resolve(spec.secondaryText) }

    func run(
        _ text: String, _ style: TextStyleToken, fallback: TextStyleToken, colour: RGBA, lines: Int = 1,
        weight: Int? = nil
    ) -> TextRun {
        let f = TextStyleMetrics.font(style, fallback: fallback)
        return TextRun(text: text, sizePoints: f.size, weight: weight ?? f.weight, colour: colour, lineLimit: lines)
    }

    func run(_ text: String, size: Double, weight: Int = 400, colour: RGBA, lines: Int = 1, tabular: Bool = false)
        -> TextRun
    {
        TextRun(text: text, sizePoints: size, weight: weight, colour: colour, lineLimit: lines, tabularDigits: tabular)
    }

    var horizontalAlignment: TextAlignment {
        switch spec.layout.alignment {
        case .leading, .topLeading: .leading
        case .centre, .top: .centre
        case .trailing, .topTrailing: .trailing
        }
    }

    var isSmall: Bool { family == .small }

    // MARK: - Backdrop

    /// systemBackground, the background token, the overlay at its opacity, and the glow circles.
    func defaultBackdrop() {
        let style = spec.style
        b.fill(bounds, .solid(palette.systemBackground), kind: .background)
        b.fill(bounds, palette.background(style.background, accent: accent, bounds: bounds), kind: .background)
        if style.backgroundOverlayOpacity > 0 {
            let overlay = palette.background(style.backgroundOverlay, accent: accent, bounds: bounds)
            b.fill(bounds, Palette.scaled(overlay, opacity: style.backgroundOverlayOpacity), kind: .background)
        }
        if style.backgroundGlowEnabled { glow() }
    }

    /// Two blurred accent circles (blur radius 70 and 90), drawn as radial gradients.
    func glow() {
        let d = min(bounds.width, bounds.height)
        for (offset, blur, opacity) in [((-120.0, -120.0), 70.0, 0.18), ((140.0, 160.0), 90.0, 0.12)] {
            let c = Point(x: bounds.midX + offset.0, y: bounds.midY + offset.1)
            let r = d / 2 + blur
            b.fill(
                bounds,
                .radial(
                    centre: c, radius: r,
                    stops: [
                        GradientStop(0, accent.opacity(opacity)),
                        GradientStop(d / 2 / r, accent.opacity(opacity * 0.6)), GradientStop(1, accent.opacity(0)),
                    ]), kind: .background)
        }
    }

    /// The seed's P: max(minPad, style.padding).
    func contentRect(minPad: Double = 2) -> Rect {
        bounds.insetBy(max(minPad, spec.style.paddingPoints))
    }

    func symbolTint(_ s: SymbolSpec) -> RGBA {
        switch s.tint {
        case .accent: accent.opacity(s.renderingMode == .hierarchical ? 0.85 : 1)
        case .primary: palette.primary
        case .secondary: palette.secondary
        }
    }
}
