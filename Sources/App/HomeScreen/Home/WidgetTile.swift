import Foundation

/// One widget on the home screen: what the page needs to place the renderer's picture and its
/// buttons. Built from the renderer's layout tree (see `WidgetBoard`), never laid out again here.
public struct WidgetTile: Sendable, Equatable {
    public struct Button: Sendable, Equatable {
        /// The renderer's action kind (`togglePlayPause`, `stop`, `toggleLayer`, …).
        public var kind: String
        public var id: String
        /// What a screen reader says ("Pause", "Layer 2 on", "+1 Count").
        public var label: String
        /// In points, relative to the widget's top-left corner.
        public var x: Double, y: Double, width: Double, height: Double
        public var layer: Int?
    }

    public var designID: String
    public var designName: String
    /// `small`, `medium`, `large`, `circular`, `rectangular`, `inline`.
    public var family: String
    public var widthPt: Double
    public var heightPt: Double
    /// The widget's text as one sentence ("Noise: Paused, Sleep").
    public var label: String
    public var buttons: [Button]
    /// Changes whenever the picture changes (a hash of the drawn output): the page's cache key.
    public var version: String
    /// When the picture changes by the clock alone, sooner than the next minute (a countdown's
    /// next second): the server's watcher wakes then (`WidgetLayout.redrawAt`).
    public var redrawAt: Date?

    public var key: String { "\(designID)/\(family)" }

    public static let homeFamilies = ["small", "medium", "large"]
    public static let lockScreenFamilies = ["circular", "rectangular", "inline"]
}

/// What the server needs from the renderer and the action performer. The real one draws with
/// `WidgetRender`; tests of the HTTP layer may use any value that draws real output.
public protocol WidgetBoard: Sendable {
    /// Every tile of the home screen in page order: the Noise Machine widget first, then each design
    /// (default first), each in the home families and then the lock-screen families.
    func tiles(now: Date) throws -> [WidgetTile]
    /// The widget as SVG or PNG. `designID` is a library ID or `noise-machine`.
    func picture(designID: String, family: String, scale: Int, format: PictureFormat, now: Date) throws -> [UInt8]
    /// Performs what `weaver tap` performs at the point (in points) and says what it did.
    func tap(designID: String, family: String, x: Double, y: Double, now: Date) throws -> String
    /// `tap`, the link the page's browser opens when the button is an `openURL` one, and the press's
    /// Undo when it can be taken back (a completed reminder).
    func tapResult(designID: String, family: String, x: Double, y: Double, now: Date) throws -> TapOutcome
    /// The designs as `GET /api/designs` lists them (a JSON array).
    func designsJSON() throws -> [UInt8]
}

extension WidgetBoard {
    public func tapResult(designID: String, family: String, x: Double, y: Double, now: Date) throws -> TapOutcome {
        TapOutcome(message: try tap(designID: designID, family: family, x: x, y: y, now: now))
    }
}

public enum PictureFormat: String, Sendable {
    case svg, png
    public var contentType: String { self == .svg ? "image/svg+xml" : "image/png" }
}

/// A request about a design or family that does not exist: the server answers 404.
public struct NotFound: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A tap on a point where no button is: the server answers 422 with this message.
public struct NothingToTap: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
