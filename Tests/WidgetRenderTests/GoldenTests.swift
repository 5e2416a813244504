import Foundation
import Testing

@testable import WidgetDesign
@testable import WidgetRender

/// Golden images: every template × small/medium/large, the Noise Machine widget playing, paused
/// and stopped, the lock-screen families, the clock faces and themes, and the Weather template at
/// both ends of `weatherScale`, compared with a small tolerance. `make goldens`
/// re-records them (WW_RECORD_GOLDENS=1) and redraws the docs gallery; a failing comparison
/// writes the actual image and a diff image (red = different) next to the build products.
@Suite struct GoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let gallery = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/gallery")
    /// `WW_RECORD_GOLDENS=1` re-records every golden; a comma-separated list of case names
    /// (`WW_RECORD_GOLDENS=clock-small,weather-scale-1.4-medium`) re-records only those and
    /// compares the rest.
    static let recordSetting = ProcessInfo.processInfo.environment["WW_RECORD_GOLDENS"] ?? ""
    static func recording(_ name: String) -> Bool {
        recordSetting == "1"
            || recordSetting.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == name }
    }
    /// Lock-screen previews in the gallery sit on this wallpaper colour.
    static let lockScreen = RGBA(hex: 0x2C3A55)

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var template: String
        var family: WidgetFamily
        var noise: NoiseWidgetState.Playback = .playing
        var appearance: Appearance = .dark
        /// Clock cases: the face and palette (`.some(nil)`: no `clockConfig`, the legacy default).
        var clockConfig: ClockDesignConfig?? = nil
        var weatherScale: Double? = nil
        /// The design's typeface (`style.fontDesign`; nil: the fixture's, the default).
        var fontDesign: FontDesignToken? = nil
        /// The render clock (default `Fixtures.now`) and locale (default en_GB, Monday first).
        var now: Date? = nil
        var locale: String? = nil
        /// Countdown cases: the target this many seconds after the render clock.
        var countdownIn: Double? = nil
        /// Forecast cases: the last good fetch this many hours before the render clock.
        var forecastAgeHours: Double? = nil
        /// Weather cases: a snapshot with minute bins (the rain surface).
        var rain: RainScenario? = nil
        /// Weather cases: the rain scenario's bins ended before the render clock although the fetch is
        /// fresh (no minute data for the next hour: no chart is reserved for it).
        var minutesEnded = false
        /// Reminders cases: the design's mode and presentation.
        var reminders: RemindersConfig? = nil
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var c: [Case] = []
        for t in TemplateCatalogue.all {
            for f in [WidgetFamily.small, .medium, .large, .circular, .rectangular, .inline] {
                c.append(Case(name: "\(t.id)-\(f.rawValue)", template: t.id, family: f))
            }
        }
        for state in [NoiseWidgetState.Playback.paused, .stopped] {
            for f in [WidgetFamily.small, .medium, .large] {
                c.append(
                    Case(
                        name: "noise-machine-\(state.rawValue)-\(f.rawValue)", template: "noise-machine", family: f,
                        noise: state))
            }
        }
        c.append(Case(name: "classic-light-medium", template: "classic", family: .medium, appearance: .light))
        c.append(Case(name: "noise-machine-light-small", template: "noise-machine", family: .small, appearance: .light))
        return c
    }()

    /// Clock faces and themes from `clockConfig` (the catalogue clock above is Icon, Classic),
    /// and the Weather template at both ends of `weatherScale`.
    static let configuredCases: [Case] =
        [
            Case(name: "clock-ceramic-small", template: "clock", family: .small, clockConfig: .some(nil)),
            Case(
                name: "clock-segmented-small", template: "clock", family: .small,
                clockConfig: ClockDesignConfig(theme: .ember, face: .segmented)),
            Case(
                name: "clock-icon-orchid-small", template: "clock", family: .small,
                clockConfig: ClockDesignConfig(theme: .orchid, face: .icon, iconSecondHandColour: .sunset)),
            Case(
                name: "clock-icon-ocean-graphite-dial-small", template: "clock", family: .small,
                clockConfig: ClockDesignConfig(
                    theme: .ocean, face: .icon, iconDialColour: .graphite, iconSecondHandColour: .white)),
            Case(
                name: "clock-ceramic-mint-light-medium", template: "clock", family: .medium, appearance: .light,
                clockConfig: ClockDesignConfig(theme: .mint, face: .ceramic)),
            Case(
                name: "clock-segmented-large", template: "clock", family: .large,
                clockConfig: ClockDesignConfig(theme: .classic, face: .segmented)),
            // Issue 41.18: the Classic design in each other font design (the default is classic-medium).
            Case(name: "classic-font-rounded-medium", template: "classic", family: .medium, fontDesign: .rounded),
            Case(name: "classic-font-serif-medium", template: "classic", family: .medium, fontDesign: .serif),
            Case(
                name: "classic-font-monospaced-medium", template: "classic", family: .medium, fontDesign: .monospaced),
            Case(name: "reminders-font-rounded-large", template: "reminders", family: .large, fontDesign: .rounded),
            Case(name: "weather-scale-0.6-medium", template: "weather", family: .medium, weatherScale: 0.6),
            Case(name: "weather-scale-1.4-medium", template: "weather", family: .medium, weatherScale: 1.4),
            Case(name: "weather-scale-1.4-small", template: "weather", family: .small, weatherScale: 1.4),
            Case(name: "weather-scale-1.4-large", template: "weather", family: .large, weatherScale: 1.4),
            // The month grid on the last minute of January and the first of February (en_GB: Monday
            // first), a Sunday-first locale (en_US) and German (Monday first, its own letters).
            Case(
                name: "month-boundary-jan31-small", template: "month", family: .small,
                now: Date(timeIntervalSince1970: 1_769_903_940)),
            Case(
                name: "month-boundary-feb01-small", template: "month", family: .small,
                now: Date(timeIntervalSince1970: 1_769_904_060)),
            Case(
                name: "month-boundary-feb01-medium", template: "month", family: .medium,
                now: Date(timeIntervalSince1970: 1_769_904_060)),
            Case(name: "month-sunday-first-en-us-large", template: "month", family: .large, locale: "en_US"),
            Case(name: "month-monday-first-de-small", template: "month", family: .small, locale: "de_DE"),
            // A countdown 15 s before its target (accent), at its last 10 s (red), and after it ("end").
            Case(name: "countdown-before-small", template: "countdown", family: .small, countdownIn: 15),
            Case(name: "countdown-at-small", template: "countdown", family: .small, countdownIn: 10),
            Case(name: "countdown-at-medium", template: "countdown", family: .medium, countdownIn: 10),
            Case(name: "countdown-at-rectangular", template: "countdown", family: .rectangular, countdownIn: 10),
            Case(name: "countdown-after-small", template: "countdown", family: .small, countdownIn: -1),
            Case(
                name: "countdown-hours-large", template: "countdown", family: .large,
                countdownIn: 3 * 3600 + 25 * 60 + 7),
            // The forecast 4 h after its last fetch (current temperature hidden) and 7 h after (all unknown).
            Case(name: "forecast-4h-medium", template: "forecast", family: .medium, forecastAgeHours: 4),
            Case(name: "forecast-4h-rectangular", template: "forecast", family: .rectangular, forecastAgeHours: 4),
            Case(name: "forecast-7h-medium", template: "forecast", family: .medium, forecastAgeHours: 7),
            Case(name: "forecast-7h-rectangular", template: "forecast", family: .rectangular, forecastAgeHours: 7),
        ] + remindersCases
        + RainScenario.allCases.flatMap { scenario in
            // The seed's rain surface: dry, a light shower, a heavy burst with tapered ends, and an
            // uncertain drizzle under mist.
            [WidgetFamily.small, .medium, .large, .rectangular].map {
                Case(
                    name: "weather-rain-\(scenario.rawValue)-\($0.rawValue)", template: "weather", family: $0,
                    rain: scenario)
            }
        }
        // A fresh fetch without minute data for the next hour: the text, and on large the hours
        // and days moved up; no empty chart plate.
        + [WidgetFamily.small, .medium, .large].map {
            Case(
                name: "weather-no-minutes-\($0.rawValue)", template: "weather", family: $0, rain: .lightShower,
                minutesEnded: true)
        }

    /// Every reminders mode × presentation at medium and large (focus mode has one look), each
    /// presentation at small, and the lock-screen families in the overdue and focus modes.
    static let remindersCases: [Case] = {
        var c: [Case] = []
        for mode in RemindersModeToken.allCases {
            for presentation in mode == .focus
                ? [RemindersPresentationToken.focus] : RemindersPresentationToken.allCases
            {
                var config = RemindersConfig()
                config.mode = mode
                config.presentation = presentation
                let families: [WidgetFamily] = mode == .today ? [.small, .medium, .large] : [.medium, .large]
                for f in families {
                    c.append(
                        Case(
                            name: "reminders-\(mode.rawValue)-\(presentation.rawValue)-\(f.rawValue)",
                            template: "reminders", family: f, reminders: config))
                }
            }
        }
        for mode in [RemindersModeToken.overdue, .focus] {
            var config = RemindersConfig()
            config.mode = mode
            for f in [WidgetFamily.circular, .rectangular, .inline] {
                c.append(
                    Case(
                        name: "reminders-\(mode.rawValue)-\(f.rawValue)", template: "reminders", family: f,
                        reminders: config))
            }
        }
        return c
    }()

    static func render(_ c: Case, scale: Int, backdrop: RGBA? = nil) throws -> PixelImage {
        let renderer = WidgetRenderer()
        var design = c.template == "poster" ? Fixtures.posterWithPhoto() : Fixtures.design(c.template)
        if let config = c.clockConfig { design.clockConfig = config }
        if let scale = c.weatherScale { design.style.weatherScale = scale }
        if let face = c.fontDesign { design.style.fontDesign = face }
        if let config = c.reminders { design.reminders = config }
        var inputs = Fixtures.inputs(
            noise: c.noise, images: ["sunset.jpg": Fixtures.samplePhoto], appearance: c.appearance)
        if let now = c.now { inputs.context.now = now }
        if let locale = c.locale { inputs.context.locale = Locale(identifier: locale) }
        if c.template == "month" { inputs.calendar = Fixtures.monthCalendar }
        if let seconds = c.countdownIn {
            design.countdown = CountdownSpec(target: .instant(inputs.context.now.addingTimeInterval(seconds)))
            design.primaryText = "Tea"
        }
        if let hours = c.forecastAgeHours { inputs.forecast = Fixtures.forecast(ageSeconds: hours * 3600) }
        if let rain = c.rain { inputs.weather = c.minutesEnded ? rain.weatherWithMinutesEnded : rain.weather }
        let layout = renderer.layout(design: design, family: c.family, scale: scale, inputs: inputs)
        return try renderer.pixels(layout, images: inputs.images, backdrop: backdrop)
    }

    @Test(arguments: cases) func matchesGolden(_ c: Case) throws {
        try Self.check(c)
    }

    @Test(arguments: configuredCases) func configuredDesignMatchesGolden(_ c: Case) throws {
        try Self.check(c)
    }

    static func check(_ c: Case) throws {
        let actual = try Self.render(c, scale: 1)
        let url = Self.goldens.appendingPathComponent("\(c.name).png")
        if Self.recording(c.name) {
            try Data(actual.png()).write(to: url)
            let backdrop = c.family.isAccessory ? Self.lockScreen : nil
            try FileManager.default.createDirectory(at: Self.gallery, withIntermediateDirectories: true)
            try Data(Self.render(c, scale: 2, backdrop: backdrop).png()).write(
                to: Self.gallery.appendingPathComponent("\(c.name).png"))
            return
        }
        let golden = try PixelImage(png: [UInt8](Data(contentsOf: url)), name: url.path)
        let d = try #require(
            golden.difference(actual),
            "\(c.name): size \(actual.width)×\(actual.height), golden \(golden.width)×\(golden.height)")
        let ok = d.mean <= 1.0 && d.fraction <= 0.005
        if !ok {
            let out = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widget-golden-failures")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data(actual.png()).write(to: out.appendingPathComponent("\(c.name).actual.png"))
            try Data(d.diff.png()).write(to: out.appendingPathComponent("\(c.name).diff.png"))
            Issue.record(
                """
                \(c.name): mean difference \(d.mean), \(d.fraction * 100)% of pixels differ; see \
                \(out.path)/\(c.name).{actual,diff}.png (re-record with 'make goldens' if the change is intended)
                """
            )
        }
    }

    @Test func comparisonCatchesAChange() throws {
        let a = try Self.render(Self.cases[0], scale: 1)
        var b = a
        for i in 0..<(b.argb.count / 50) { b.argb[i] = 0xFF00FF00 }
        let d = try #require(a.difference(b))
        #expect(d.fraction > 0.005)
        #expect(a.difference(a)!.mean == 0)
    }
}
