import Foundation
import WidgetDataKeys
import WidgetDesign

/// Everything a layout depends on besides the design and family. Nothing in layout reads the
/// clock or the disk: it all arrives here (WidgetInputs' `RenderInputs.gather` reads it from the store).
public struct RenderInputs: Sendable {
    public var context: RenderContext
    public var appearance: Appearance
    public var noise: NoiseWidgetState?
    public var weather: WeatherState?
    public var calendar: CalendarSnapshot?
    public var reminders: RemindersSnapshot?
    /// The Forecast template's days and hours (loaded only for it).
    public var forecast: ForecastSnapshot?
    /// Decoded design images by file name.
    public var images: [String: DecodedImage]
    /// Why an image the design names is not in `images`, by file name.
    public var imageFailures: [String: String]
    /// Snapshot files (`weather.json`, `calendar.json`, `reminders.json`) that exist but could not
    /// be read: their templates say so instead of "no snapshot yet".
    public var unreadableSnapshots: Set<String> = []
    /// The host draws again each second when a layout asks (`weaver render --watch`, `weaver
    /// serve`): only then does a `clock.format` with seconds draw them. A file rendered once
    /// would show a second that is wrong a second later, so it shows the minute.
    public var redrawsEachSecond = false
    /// The presets a Play Preset design names, id → display name, as the host found them
    /// (`RenderInputs.gather` reads the preset library for such a design): an id missing here
    /// is drawn as "No preset". nil: not looked up (the design's id is drawn as it is).
    public var presetNames: [String: String]?

    public init(
        context: RenderContext, appearance: Appearance = .dark, noise: NoiseWidgetState? = nil,
        weather: WeatherState? = nil, calendar: CalendarSnapshot? = nil, reminders: RemindersSnapshot? = nil,
        images: [String: DecodedImage] = [:], imageFailures: [String: String] = [:]
    ) {
        self.context = context
        self.appearance = appearance
        self.noise = noise
        self.weather = weather
        self.calendar = calendar
        self.reminders = reminders
        self.images = images
        self.imageFailures = imageFailures
    }
}

extension WidgetSpec {
    /// The design as drawn in `family`: matched-set variants replace text, symbol, image and
    /// layout only with Pro (the seed's rule); the style is shared. Accessory families use
    /// medium ?? small ?? large.
    public func resolved(for family: WidgetFamily, isPro: Bool) -> WidgetSpec {
        guard isPro, let set = matchedSet, !set.isEmpty else { return self }
        let variant: SpecVariant? =
            switch family {
            case .small: set.small
            case .medium: set.medium
            case .large: set.large
            default: set.medium ?? set.small ?? set.large
            }
        guard let v = variant else { return self }
        var s = self
        s.primaryText = v.primaryText
        s.secondaryText = v.secondaryText
        s.symbol = v.symbol
        s.image = v.image
        s.layout = v.layout
        return s
    }
}
