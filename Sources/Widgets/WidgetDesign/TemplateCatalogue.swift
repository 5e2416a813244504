import Foundation

/// A named variation of a catalogue template: style and layout only, like a remix.
public struct CatalogueRemix: Sendable {
    public let id: String
    public let name: String
    let apply: @Sendable (inout WidgetSpec) -> Void
}

/// One entry in Explore: a starter design and its named remixes.
public struct CatalogueTemplate: Sendable {
    public let id: String
    public let name: String
    public let summary: String
    public let remixes: [CatalogueRemix]
    let make: @Sendable () -> WidgetSpec

    /// A new design (fresh ID, `updatedAt` = `now`), with `remix` applied when given.
    public func design(remix remixID: String? = nil, now: Date) throws -> WidgetSpec {
        var spec = make()
        spec.id = UUID()
        spec.updatedAt = WidgetSpec.wholeSeconds(now)
        if let remixID {
            guard let r = remix(named: remixID) else {
                throw DesignError(
                    "template '\(name)' has no remix '\(remixID)'; choose one of: "
                        + remixes.map(\.id).joined(separator: ", "))
            }
            r.apply(&spec)
            spec.name = "\(spec.name) – \(r.name)"
        }
        return spec
    }

    public func remix(named ref: String) -> CatalogueRemix? {
        let key = DesignSummary.fold(ref)
        return remixes.first { $0.id == key || DesignSummary.fold($0.name) == key }
    }
}

/// The built-in Explore catalogue.
public enum TemplateCatalogue {
    public static func find(_ ref: String) -> CatalogueTemplate? {
        // An ID as written (`--template noise-machine`) without folding: Foundation's folding bridges
        // through NSString, ~0.1 ms at each of a render's two look-ups. No name folds to another's ID.
        if let t = all.first(where: { $0.id == ref }) { return t }
        // Trimmed by Unicode's White_Space (the set `.whitespacesAndNewlines` holds) without
        // Foundation's CharacterSet, whose first use is ~0.15 ms of every `weaver render`.
        let scalars = ref.unicodeScalars
        let first = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let last = scalars.lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? first
        let key = DesignSummary.fold(String(scalars[first..<max(first, last)]))
        if let t = all.first(where: { $0.id == key || DesignSummary.fold($0.name) == key }) { return t }
        // A layout template token also names its starter (e.g. `nextUpCalendar`).
        if let token = LayoutTemplateToken.parse(ref) {
            return all.first { $0.make().layout.template == token }
        }
        return nil
    }

    public static var ids: String { all.map(\.id).joined(separator: ", ") }

    private static func base(
        _ name: String, _ primary: String, _ secondary: String?, template: LayoutTemplateToken,
        symbol: String?, accent: AccentToken, background: BackgroundToken
    ) -> WidgetSpec {
        var s = WidgetSpec(
            name: name, primaryText: primary, secondaryText: secondary, updatedAt: Date(timeIntervalSince1970: 0))
        s.layout.template = template
        if let symbol {
            s.symbol = SymbolSpec(name: symbol, sizePoints: 18, weight: .semibold, renderingMode: .hierarchical)
        }
        s.style.accent = accent
        s.style.background = background
        return s
    }

    private static func remix(_ id: String, _ name: String, _ apply: @escaping @Sendable (inout WidgetSpec) -> Void)
        -> CatalogueRemix
    {
        CatalogueRemix(id: id, name: name, apply: apply)
    }

    private static func look(_ bg: BackgroundToken, _ accent: AccentToken, glow: Bool = false)
        -> @Sendable (inout WidgetSpec) -> Void
    {
        { s in
            s.style.background = bg
            s.style.accent = accent
            s.style.backgroundGlowEnabled = glow
        }
    }

    public static let all: [CatalogueTemplate] = [
        CatalogueTemplate(
            id: "classic", name: "Classic", summary: "Stacked header and text, optional symbol and accent bar.",
            remixes: [
                remix("midnight", "Midnight", look(.midnight, .indigo, glow: true)),
                remix("sunset", "Sunset", look(.sunset, .orange)),
                remix("minimal", "Minimal") { s in
                    look(.plain, .gray)(&s)
                    s.layout.showsAccentBar = false
                },
                remix("candy", "Candy") { s in
                    look(.candy, .pink)(&s)
                    s.layout.alignment = .centre
                },
            ],
            make: {
                base(
                    // The seed app's developer caption ("Saved spec → widget") was what every new
                    // design said until edited (issue 41 item 18).
                    "Classic", "Hello", "Your text here", template: .classic, symbol: "sparkles", accent: .blue,
                    background: .accentGlow)
            }),
        CatalogueTemplate(
            id: "hero", name: "Hero", summary: "Text on the left, a big symbol on the right.",
            remixes: [
                remix("aurora", "Aurora", look(.aurora, .teal, glow: true)),
                remix("solid", "Solid Accent", look(.solidAccent, .purple)),
                remix("wide", "Wide") { s in
                    s.layout.axis = .horizontal
                    s.layout.spacingPoints = 16
                },
            ],
            make: {
                var s = base(
                    "Hero", "Focus", "One thing at a time", template: .hero, symbol: "bolt.fill", accent: .orange,
                    background: .radialGlow)
                s.symbol?.sizePoints = 44
                return s
            }),
        CatalogueTemplate(
            id: "poster", name: "Poster",
            summary: "Photo first, with a caption over a gradient (add an image with 'designs set ID image=PATH').",
            remixes: [
                remix("caption-top", "Caption Top") { s in s.layout.alignment = .topLeading },
                remix("photo-only", "Photo Only") { s in s.layout.posterOverlayMode = .none },
                remix("warm", "Warm") { s in
                    s.style.backgroundOverlay = .sunset
                    s.style.backgroundOverlayOpacity = 0.3
                },
            ],
            make: {
                var s = base(
                    "Poster", "Weekend", "Photo + caption", template: .poster, symbol: nil, accent: .yellow,
                    background: .plain)
                s.layout.showsAccentBar = false
                return s
            }),
        CatalogueTemplate(
            id: "weather", name: "Weather", summary: "Rain-first next-hour nowcast from the cached weather snapshot.",
            remixes: [
                remix("rain-glass", "Rain Glass", look(.subtleMaterial, .teal, glow: true)),
                remix("night", "Night", look(.midnight, .indigo)),
                remix("bright", "Bright", look(.aurora, .yellow)),
            ],
            make: {
                base(
                    "Weather", "", "{{__weather_rain_next_hour_summary|}}", template: .weather,
                    symbol: "cloud.rain.fill", accent: .blue, background: .midnight)
            }),
        CatalogueTemplate(
            id: "next-up", name: "Next Up", summary: "Next calendar event and a countdown, 'Then' on larger sizes.",
            remixes: [
                remix("calm", "Calm", look(.subtleMaterial, .teal)),
                remix("bold", "Bold", look(.solidAccent, .red, glow: true)),
                remix("mono", "Mono", look(.plain, .gray)),
            ],
            make: {
                base(
                    "Next Up", "", nil, template: .nextUpCalendar, symbol: "calendar", accent: .purple,
                    background: .accentGlow)
            }),
        CatalogueTemplate(
            id: "steps", name: "Steps", summary: "Starter design using the built-in __steps_* variables.",
            remixes: [
                remix("green-glow", "Green Glow", look(.radialGlow, .green, glow: true)),
                remix("night-walk", "Night Walk", look(.midnight, .teal)),
                remix("compact", "Compact") { s in
                    s.layout.spacingPoints = 4
                    s.style.paddingPoints = 12
                    s.layout.showsAccentBar = false
                },
            ],
            make: {
                base(
                    "Steps", "{{__steps_today|--}} steps", "Streak {{__steps_streak|0}}d", template: .classic,
                    symbol: "figure.walk", accent: .green, background: .accentGlow)
            }),
        CatalogueTemplate(
            id: "noise-machine", name: "Noise Machine", summary: "Shows and controls the noise machine's Last Mix.",
            remixes: [
                remix("sleep", "Sleep", look(.midnight, .indigo)),
                remix("focus", "Focus", look(.plain, .teal)),
                remix("rain", "Rain", look(.aurora, .blue, glow: true)),
            ],
            make: {
                base(
                    "Noise Machine", "", "{{__noise_status|Off}}", template: .noiseMachine, symbol: "waveform",
                    accent: .indigo, background: .midnight)
            }),
        CatalogueTemplate(
            id: "reminders", name: "Reminders", summary: "Today's reminders from the cached snapshot.",
            remixes: [
                remix("paper", "Paper", look(.plain, .orange)),
                remix("focus", "Focus", look(.solidAccent, .red)),
            ],
            make: {
                base(
                    "Reminders", "", nil, template: .reminders, symbol: "checklist", accent: .orange,
                    background: .subtleMaterial)
            }),
        CatalogueTemplate(
            id: "month", name: "Month",
            summary: "This month's grid, weeks from the locale's first weekday, today highlighted, event days marked.",
            remixes: [
                remix("paper", "Paper", look(.plain, .red)),
                remix("night", "Night", look(.midnight, .indigo)),
            ],
            make: { base("Month", "", nil, template: .month, symbol: nil, accent: .red, background: .subtleMaterial) }),
        CatalogueTemplate(
            id: "countdown", name: "Countdown",
            summary: """
                Counts down to a time ('designs set ID countdown.target=…'): red in the last 10 s, then \"end\".
                """,
            remixes: [
                remix("bold", "Bold", look(.solidAccent, .orange, glow: true)),
                remix("mono", "Mono", look(.plain, .gray)),
            ],
            make: {
                var s = base(
                    "Countdown", "Sleep timer", nil, template: .countdown, symbol: "timer", accent: .teal,
                    background: .midnight)
                s.countdown = CountdownSpec(target: .sleepTimer)
                return s
            }),
        CatalogueTemplate(
            id: "forecast", name: "Forecast",
            summary:
                """
                Four days from the weather snapshot: high/low, condition, rain chance as drops, the day's \
                temperature curve.
                """,
            remixes: [
                remix("glass", "Glass", look(.subtleMaterial, .teal)),
                remix("dawn", "Dawn", look(.sunset, .orange)),
            ],
            make: {
                base(
                    "Forecast", "", nil, template: .forecast, symbol: "cloud.sun.fill", accent: .blue,
                    background: .midnight)
            }),
        CatalogueTemplate(
            id: "clock", name: "Clock", summary: "Analogue clock face (small).",
            remixes: [
                remix("ceramic", "Ceramic") { s in
                    look(.plain, .gray)(&s)
                    s.clockConfig?.face = .ceramic  // the 4-numeral face
                },
                remix("neon", "Neon", look(.midnight, .pink, glow: true)),
            ],
            make: {
                var s = base(
                    "Clock", "", nil, template: .clockIcon, symbol: nil, accent: .orange, background: .midnight)
                s.clockConfig = ClockDesignConfig()  // a new clock: Icon face, Classic theme, as in the seed app
                return s
            }),
        CatalogueTemplate(
            id: "play-preset", name: "Play Preset",
            summary: """
                One tap plays a noise preset ('designs set ID presetButton.preset=rain'): starts the player or \
                switches the running one.
                """,
            remixes: [
                remix("night", "Night", look(.midnight, .indigo, glow: true)),
                remix("paper", "Paper", look(.plain, .blue)),
            ],
            make: {
                var s = base(
                    "Play Preset", "", nil, template: .presetButton, symbol: "cloud.rain.fill", accent: .teal,
                    background: .midnight)
                s.presetButton = PresetButtonSpec(presetID: "rain")
                return s
            }),
    ]
}
