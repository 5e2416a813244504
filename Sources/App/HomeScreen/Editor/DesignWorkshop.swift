import Foundation
import WidgetDesign
import WidgetRender

/// What the Editor needs beyond the home screen's `WidgetBoard`: the Library's designs read and
/// written as `weaver designs` does, and drafts drawn by the one renderer without being saved.
/// `RenderedBoard` is the real one; the server finds it through `HomeScreenServer.workshop`.
public protocol DesignWorkshop: Sendable {
    /// Every saved design, default first, then newest first.
    func listings() throws -> [DesignListing]
    /// The saved design; `NotFound` for an ID that is not a library UUID or not in the library.
    func design(id: String) throws -> WidgetSpec
    /// Writes `spec` over the saved design `id` (atomically, under the library lock, as
    /// `weaver designs set` does) and returns what was written (new `updatedAt`).
    func save(id: String, _ spec: WidgetSpec, now: Date) throws -> WidgetSpec
    /// A new design in the library from a catalogue starter (`weaver designs new --template`).
    func create(starter: String, name: String?, now: Date) throws -> WidgetSpec
    /// Draws an unsaved design at `scale` pixels per point (1…3), with the store's inputs (as the
    /// home screen).
    /// `trial`: variables the page's tried buttons changed, drawn in place of the store's (Pro).
    /// `sample`: the fixed sample weather, calendar, steps and noise (`SampleData`) instead of the store's.
    /// `appearance`: light or dark widgets (nil: the board's, as the home screen draws them).
    /// `redraw`: the name of the page's redraw this picture belongs to; the pictures of one redraw
    /// share the store's inputs, read once (nil: read for this picture alone).
    func renderDraft(
        _ spec: WidgetSpec, family: String, format: DraftFormat, scale: Int, trial: [String: String], sample: Bool,
        appearance: Appearance?, redraw: String?, now: Date
    ) throws -> DraftRender
    /// Draws a design under Import Review (small, SVG) with the images its file embeds: decoded
    /// here for this picture only (never written to the store before the import), in place of
    /// any store image of the same name.
    func renderReview(_ spec: WidgetSpec, family: String, embeddedImages: [String: Data], now: Date) throws
        -> DraftRender
    /// Presses the draft's button at `x`,`y` (points) without writing anything: the variable it
    /// would change and its new value, from `trial` over the store's values. `NothingToTap` when no
    /// button is there.
    func tryButton(_ spec: WidgetSpec, family: String, x: Double, y: Double, trial: [String: String], now: Date) throws
        -> TrialPress
    /// The design's template texts as the widget writes them now (`{{…}}` resolved), by field key.
    func resolvedTexts(_ spec: WidgetSpec, now: Date) -> [String: String]
    /// Every variable key a text may use with its current value: built-in keys, then stored ones.
    func variables(now: Date) -> [(key: String, value: String)]
    /// The built-in keys `variables` lacks because their data is not set up yet (the sample data's
    /// keys less the live ones), each with what to do, e.g. "weather is not set up yet (Data page)".
    func keysNotSetUp(now: Date) -> [(key: String, reason: String)]
    /// Every symbol name the renderer draws.
    func symbolNames() -> [String]
    /// Copies an uploaded PNG or JPEG into the store's `images/` folder (as `weaver designs set
    /// image=PATH` does): sizes checked from the header before decoding, a photo over the pixel
    /// cap scaled down, never overwriting a different picture of the same name.
    func importImage(_ data: Data) throws -> ImportedImage
    /// The colours of a picture in the store's `images/` and the accent and background that suit
    /// it (`PhotoTheme`); `NotFound` for a name that is not a bare file there.
    func photoTheme(fileName: String) throws -> PhotoTheme
    /// A picture in the store's `images/` as stored (PNG or JPEG), for the Editor's crop
    /// rectangles; `NotFound` for a name that is not a bare file there.
    func imageFile(fileName: String) throws -> (bytes: [UInt8], contentType: String)
    /// Whether Pro is unlocked in the store (actions, matched sets, custom variables).
    var isPro: Bool { get }
    /// Unlocks Pro in the store, as `weaver pro unlock` does (the same `ProEntitlement.set`).
    func unlockPro(now: Date) throws
    /// How the home screen draws widgets (the dock's default).
    var widgetAppearance: Appearance { get }
}

extension DesignWorkshop {
    /// A draft in the board's appearance.
    public func renderDraft(
        _ spec: WidgetSpec, family: String, format: DraftFormat, scale: Int, trial: [String: String], sample: Bool,
        now: Date
    ) throws -> DraftRender {
        try renderDraft(
            spec, family: family, format: format, scale: scale, trial: trial, sample: sample, appearance: nil,
            redraw: nil, now: now)
    }
}

/// A listed design (the Editor's chooser and the Library).
public struct DesignListing: Sendable, Equatable {
    public var id: String
    public var name: String
    public var template: String
    public var isDefault: Bool
}

/// An uploaded picture as stored: the bare file name a design's `image` field takes.
public struct ImportedImage: Sendable {
    public var fileName: String
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The original size when the upload was scaled down.
    public var scaledFromWidth: Int?
    public var scaledFromHeight: Int?
    public var damage: String?
}

public enum DraftFormat: String, Sendable, CaseIterable {
    case png, svg, json
    public var contentType: String {
        switch self {
        case .png: return "image/png"
        case .svg: return "image/svg+xml"
        case .json: return "application/json"
        }
    }
}

/// What pressing a draft's button would do: a message, and the variable it sets (nil for a
/// button that changes none, as a link).
public struct TrialPress: Sendable {
    public var message: String
    public var key: String?
    public var value: String?
}

/// One of a drawn draft's buttons, in points from the widget's top-left corner.
public struct DraftButton: Sendable {
    public var label: String
    public var x: Double, y: Double, width: Double, height: Double
}

/// A drawn draft: the bytes, and what the renderer warned about (shown beside the size).
public struct DraftRender: Sendable {
    public var bytes: [UInt8]
    public var warnings: [String]
    public var buttons: [DraftButton] = []
}

extension HomeScreenServer {
    /// The Editor's access to the library and renderer; nil when the board has none (then the
    /// Editor's routes answer 404).
    public var workshop: (any DesignWorkshop)? { board as? any DesignWorkshop }
}
