/// A rectangle, origin top-left: the one definition of x, y, width and height, for the widget
/// layout (WidgetRender's `Rect`, in points) and picture crops (`NormalisedRect`, in 0…1 of the
/// image). `Unit` only keeps the two apart, so a crop is never passed where a frame is meant.
public struct Rectangle<Unit>: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
}
