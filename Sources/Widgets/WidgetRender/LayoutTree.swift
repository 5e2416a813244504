import Foundation
import WidgetDesign

/// The layout tree: plain values, in points, that every backend (PNG, SVG, JSON, text) and the hit
/// test walk. Nothing here knows about Cairo.

public struct Point: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Points of the widget: the unit of the layout's `Rect`.
public enum LayoutPoints {}

/// A frame in the layout, in points (WidgetDesign's `Rectangle`, which picture crops use too).
public typealias Rect = Rectangle<LayoutPoints>

extension Rect {
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    public func insetBy(_ d: Double) -> Rect { insetBy(dx: d, dy: d) }
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: Swift.max(0, width - 2 * dx), height: Swift.max(0, height - 2 * dy))
    }

    /// Distance from `p` to the nearest point of the rectangle (0 inside).
    public func distance(to p: Point) -> Double {
        let dx = Swift.max(x - p.x, 0, p.x - maxX)
        let dy = Swift.max(y - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// True when the two rectangles share some area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        Swift.min(maxX, other.maxX) > Swift.max(x, other.x) && Swift.min(maxY, other.maxY) > Swift.max(y, other.y)
    }

    /// True when `other` lies inside this rectangle (with a rounding tolerance).
    public func encloses(_ other: Rect, tolerance: Double = 0.01) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }
}

/// sRGB colour with straight (not premultiplied) alpha, components 0…1.
public struct RGBA: Sendable, Hashable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `0xRRGGBB`.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }

    /// `#RRGGBB` or `RRGGBB`; nil otherwise.
    public init?(hexString: String) {
        var t = Substring(hexString)
        if t.hasPrefix("#") { t = t.dropFirst() }
        guard t.count == 6, let v = UInt32(t, radix: 16) else { return nil }
        self.init(hex: v)
    }

    public func opacity(_ factor: Double) -> RGBA { RGBA(r, g, b, a * factor) }

    public static let clear = RGBA(0, 0, 0, 0)
    public static let white = RGBA(1, 1, 1)
    public static let black = RGBA(0, 0, 0)
}

public struct GradientStop: Sendable, Hashable {
    public var offset: Double
    public var colour: RGBA
    public init(_ offset: Double, _ colour: RGBA) {
        self.offset = offset
        self.colour = colour
    }
}

public enum Paint: Sendable, Hashable {
    case solid(RGBA)
    /// From `start` to `end`, in widget points.
    case linear(start: Point, end: Point, stops: [GradientStop])
    case radial(centre: Point, radius: Double, stops: [GradientStop])
}

public enum TextAlignment: String, Sendable, Hashable {
    case leading, centre, trailing
}

/// A text run as laid out: font, colour, wrapping, and what measuring found.
public struct TextRun: Sendable, Hashable {
    public var text: String
    public var sizePoints: Double
    /// CSS/Pango weight, 100…900.
    public var weight: Int
    public var colour: RGBA
    public var alignment: TextAlignment
    /// 1…; the text is ellipsised at the end of the last line.
    public var lineLimit: Int
    public var tabularDigits: Bool
    public var strikethrough: Bool
    public var shadow: Bool
    /// The design's typeface (`style.fontDesign`), set by the layout for every run it measures.
    public var fontDesign: FontDesignToken = .default
    /// Lines actually drawn, and whether text was cut ("…").
    public var lineCount: Int
    public var isTruncated: Bool
    /// When cut: the text as drawn, "…" included, lines joined with a space; nil otherwise.
    public var shownText: String?
    /// The width the text was measured (wrapped) at, points; drawing wraps it the same way.
    var wrapWidth: Double?

    public init(
        text: String, sizePoints: Double, weight: Int = 400, colour: RGBA, alignment: TextAlignment = .leading,
        lineLimit: Int = 1, tabularDigits: Bool = false, strikethrough: Bool = false, shadow: Bool = false
    ) {
        self.text = text
        self.sizePoints = sizePoints
        self.weight = weight
        self.colour = colour
        self.alignment = alignment
        self.lineLimit = lineLimit
        self.tabularDigits = tabularDigits
        self.strikethrough = strikethrough
        self.shadow = shadow
        self.lineCount = 0
        self.isTruncated = false
    }
}

/// What an element draws inside its rect.
public enum Primitive: Sendable, Hashable {
    /// A rounded rectangle filling the rect (`cornerRadius` ≥ half the short side: a capsule).
    case shape(fill: Paint?, cornerRadius: Double, stroke: RGBA?, strokeWidth: Double)
    /// An ellipse filling the rect.
    case ellipse(fill: Paint?, stroke: RGBA?, strokeWidth: Double)
    case text(TextRun)
    /// An icon glyph from the symbol font, centred in the rect.
    case symbol(SymbolGlyph, colour: RGBA, weight: Int)
    /// A design image (key into the render's image set), clipped to a rounded rect.
    case image(key: String, contentMode: ImageFit, cornerRadius: Double, blurred: Bool)
    /// A Smart Photo master drawn as its per-size render would show it: turned, cropped and
    /// straightened (`crop`), then placed like `image`.
    case croppedImage(key: String, crop: ImageCrop, contentMode: ImageFit, cornerRadius: Double)
    /// An arc on the circle inscribed in the rect; angles in degrees clockwise from 12 o'clock.
    case arc(colour: RGBA, lineWidth: Double, startDegrees: Double, endDegrees: Double, roundCaps: Bool)
    /// A closed filled polygon in widget points (the rain chart's ribbon).
    case polygon(points: [Point], fill: Paint)
    /// The nowcast chart's rain surface (core, grain, surface band, mist), drawn inside its plot.
    case rainSurface(RainSurface)
    /// A straight line (clock hands, dividers, ticks).
    case line(from: Point, to: Point, colour: RGBA, width: Double, roundCaps: Bool)
}

public enum ImageFit: String, Sendable, Hashable { case fill, fit }

/// Where a Smart Photo render lies in its master (see `SmartPhotoVariant`): the master turned
/// clockwise by `quarterTurns` (0…3), the rectangle in 0…1 of the turned picture, and the picture
/// turned clockwise by `straightenDegrees` about the rectangle's centre.
public struct ImageCrop: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double
    public var quarterTurns: Int
    public var straightenDegrees: Double
}

/// Every element's kind, as the JSON names it.
public enum ElementKind: String, Sendable, Hashable, Codable {
    case background, shape, text, symbol, image, ring, line, button, chart
}

public struct LayoutElement: Sendable, Hashable {
    public var kind: ElementKind
    public var rect: Rect
    public var primitive: Primitive

    public init(kind: ElementKind, rect: Rect, primitive: Primitive) {
        self.kind = kind
        self.rect = rect
        self.primitive = primitive
    }

    /// The final text for text elements (variables substituted), nil otherwise.
    public var text: String? {
        if case .text(let run) = primitive { return run.text }
        return nil
    }

    public var textRun: TextRun? {
        if case .text(let run) = primitive { return run }
        return nil
    }
}

/// The kinds of tappable action, spelled as in the JSON and in `weaver tap`.
public enum WidgetActionKind: String, Codable, Sendable, CaseIterable {
    case incrementVariable, setVariableToNow, togglePlayPause, stop, toggleLayer, toggleResumeOnLaunch
    /// A design's action bar: set a variable to `resetValue`; open `url`.
    case resetVariable, openURL
    /// A Reminders row: complete the reminder `reminderID` in its file.
    case completeReminder
    /// The Noise widget's ±15 buttons: move the running sleep timer by `incrementAmount` minutes.
    case adjustTimer
    /// A Play Preset design's button: play `presetID` (start a player, or switch the running one).
    case playPreset
}

/// A tappable area of a widget and the one action a press performs.
public struct ActionArea: Sendable, Hashable {
    /// Stable within a design: the action bar's action UUID, or e.g. `noise.layer.2`.
    public var id: String
    public var action: WidgetAction
    public var title: String?
    public var rect: Rect

    public var kind: WidgetActionKind { action.kind }
    /// 1…4 for `toggleLayer`.
    public var layer: Int? { if case .toggleLayer(let layer) = action { layer } else { nil } }
    /// `completeReminder`: the reminder's id in the snapshot (`SOURCE:LINE`).
    public var reminderID: String? { if case .completeReminder(let id) = action { id } else { nil } }
    /// `playPreset`: the preset's id.
    public var presetID: String? { if case .playPreset(let id) = action { id } else { nil } }
    /// `adjustTimer`: the minutes the timer moves (±15).
    public var timerMinutes: Int? { if case .adjustTimer(let minutes) = action { minutes } else { nil } }

    /// What an action-bar button with a blank title says (the seed app's words): "+1" for
    /// `incrementVariable`, "Done" for `setVariableToNow`. Messages about a button use it too, so
    /// they name the button as the user sees it.
    public static func untitledActionBarTitle(for kind: WidgetActionKind) -> String {
        switch kind {
        case .incrementVariable: "+1"
        case .resetVariable: "Reset"
        case .openURL: "Open"
        default: "Done"
        }
    }
}

/// One laid-out widget: what every backend draws.
public struct WidgetLayout: Sendable, Hashable {
    public var family: WidgetFamily
    public var scale: Int
    public var width: Double
    public var height: Double
    /// Corner radius of the widget's outline; 0 for accessory families (no background).
    public var cornerRadius: Double
    /// Back to front.
    public var elements: [LayoutElement]
    public var actions: [ActionArea]
    /// Problems met while laying out (missing image, unknown symbol…), each naming the file or field.
    public var warnings: [String]
    /// The plain-text rendition (`--format txt`), written by the template.
    public var textLines: [String]
    /// The next moment the render clock alone changes this drawing, when a template knows one
    /// sooner than the next minute a live host redraws at anyway (a countdown's next second or
    /// minute crossing, a clock with seconds); nil when only minutes or store changes matter.
    /// Live hosts wake at it (`StoreWakeups.redrawAt`), so nothing polls.
    public var redrawAt: Date?

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The action whose rect holds `point` (the front-most when rects overlap).
    public func action(at point: Point) -> ActionArea? {
        actions.last { $0.rect.contains(point) }
    }

    /// The action nearest to `point` and its distance in points (nil when there are no actions).
    public func nearestAction(to point: Point) -> (action: ActionArea, distance: Double)? {
        var best: (ActionArea, Double)?
        for a in actions {
            let d = a.rect.distance(to: point)
            if best == nil || d < best!.1 { best = (a, d) }
        }
        return best.map { (action: $0.0, distance: $0.1) }
    }
}
