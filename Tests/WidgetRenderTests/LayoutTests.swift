import Foundation
import NoiseEngine
import Testing
import WidgetDesign

@testable import TemplateLanguage
@testable import WidgetDataKeys
@testable import WidgetRender

@Suite struct LayoutTests {
    let renderer = WidgetRenderer()

    func layout(_ d: WidgetSpec, _ f: WidgetFamily, _ inputs: RenderInputs = Fixtures.inputs()) -> WidgetLayout {
        renderer.layout(design: d, family: f, scale: 2, inputs: inputs)
    }

    @Test func familySizesInPoints() {
        let expected: [WidgetFamily: (Double, Double)] = [
            .small: (170, 170), .medium: (364, 170), .large: (364, 382),
            .circular: (76, 76), .rectangular: (172, 76), .inline: (257, 26),
        ]
        for (f, size) in expected {
            let l = layout(Fixtures.design("classic"), f)
            #expect(l.width == size.0 && l.height == size.1, "\(f)")
        }
    }

    @Test func everyElementAndActionLiesInsideTheWidget() {
        for t in TemplateCatalogue.all {
            for f in WidgetFamily.allCases {
                var d = Fixtures.design(t.id)
                if t.id == "poster" { d = Fixtures.posterWithPhoto() }
                let l = layout(d, f, Fixtures.inputs(images: ["sunset.jpg": Fixtures.samplePhoto]))
                #expect(!l.elements.isEmpty, "\(t.id) \(f)")
                for e in l.elements where e.kind != .background {
                    #expect(
                        l.bounds.encloses(e.rect, tolerance: 0.5), "\(t.id) \(f): \(e.kind) \(e.rect) \(e.text ?? "")")
                }
                for a in l.actions { #expect(l.bounds.encloses(a.rect), "\(t.id) \(f): \(a.id)") }
                #expect(l.warnings.isEmpty, "\(t.id) \(f): \(l.warnings)")
            }
        }
    }

    @Test func primaryTextHonoursLineLimitsAndTruncatesWithEllipsis() {
        var d = Fixtures.design("classic")
        d.primaryText = String(repeating: "A long headline that keeps going ", count: 8)
        d.layout.primaryLineLimitSmall = 1
        d.layout.primaryLineLimit = 3
        let small = layout(d, .small).elements.compactMap(\.textRun).first { $0.text.hasPrefix("A long") }!
        #expect(small.lineCount == 1 && small.isTruncated)
        let medium = layout(d, .medium).elements.compactMap(\.textRun).first { $0.text.hasPrefix("A long") }!
        #expect(medium.lineCount == 3 && medium.isTruncated)
        d.primaryText = "Short"
        let short = layout(d, .medium).elements.compactMap(\.textRun).first { $0.text == "Short" }!
        #expect(short.lineCount == 1 && !short.isTruncated)
    }

    @Test func variablesAreSubstitutedInTheTree() {
        var d = Fixtures.design("classic")
        d.primaryText = "At {{__time}}"
        let texts = layout(d, .small).elements.compactMap(\.text)
        #expect(texts.contains("At 09:30"))
    }

    @Test func alignmentPlacesTextBlocks() {
        var d = Fixtures.design("classic")
        d.primaryText = "Hi"
        d.layout.alignment = .centre
        let centred = layout(d, .medium).elements.first { $0.text == "Hi" }!
        #expect(abs(centred.rect.midX - 182) < 1)
        d.layout.alignment = .trailing
        let trailing = layout(d, .medium).elements.first { $0.text == "Hi" }!
        #expect(abs(trailing.rect.maxX - (364 - 16)) < 1)
        d.layout.alignment = .leading
        let leading = layout(d, .medium).elements.first { $0.text == "Hi" }!
        #expect(abs(leading.rect.minX - 16) < 0.01)
    }

    @Test func matchedSetVariantsApplyOnlyWithPro() {
        var d = Fixtures.design("classic")
        d.matchedSet = MatchedSet(
            small: SpecVariant(primaryText: "Small only"), large: SpecVariant(primaryText: "Large only"))
        #expect(layout(d, .small, Fixtures.inputs(isPro: false)).elements.contains { $0.text == "Hello" })
        #expect(layout(d, .small, Fixtures.inputs(isPro: true)).elements.contains { $0.text == "Small only" })
        #expect(layout(d, .large, Fixtures.inputs(isPro: true)).elements.contains { $0.text == "Large only" })
        // Medium has no variant: the base design.
        #expect(layout(d, .medium, Fixtures.inputs(isPro: true)).elements.contains { $0.text == "Hello" })
    }

    @Test func actionBarNeedsProAndCarriesItsParameters() {
        var d = Fixtures.design("classic")
        let id = UUID()
        d.actionBar = ActionBarSpec(actions: [
            ActionSpec(id: id, title: "", kind: .incrementVariable, variableKey: "coffees", incrementAmount: 2),
            ActionSpec(
                title: "Fed", systemImage: "checkmark", kind: .setVariableToNow, variableKey: "fed",
                nowFormat: .timeOnly),
        ])
        #expect(layout(d, .medium, Fixtures.inputs(isPro: false)).actions.isEmpty)
        let l = layout(d, .medium, Fixtures.inputs(isPro: true))
        #expect(l.actions.count == 2)
        let inc = l.actions[0]
        #expect(
            inc.action == .incrementVariable(key: "coffees", amount: 2) && inc.kind == .incrementVariable
                && inc.title == "+1" && inc.id == id.uuidString)
        #expect(
            l.actions[1].action == .setVariableToNow(key: "fed", format: .timeOnly)
                && l.actions[1].kind == .setVariableToNow && l.actions[1].title == "Fed")
        #expect(inc.rect.height == 44 && inc.rect.maxX < l.actions[1].rect.minX)
    }

    /// Issue 28.1: a classic design with a secondary line and two buttons drew no secondary in
    /// small and medium while the text rendition and the accessible name still carried it. The
    /// line now makes room (smaller type, fewer lines) or is dropped with a warning, and the text
    /// rendition holds exactly the texts drawn.
    @Test func classicSecondaryMakesRoomForTheActionBarAndTheTextRenditionMatchesTheDrawing() throws {
        var d = Fixtures.design("classic")
        d.name = "Coffee"
        d.primaryText = "Morning"
        d.secondaryText = "Coffees today: 3"
        d.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "+1", kind: .incrementVariable, variableKey: "coffees", incrementAmount: 1),
            ActionSpec(title: "Reset", kind: .setVariableToNow, variableKey: "reset", nowFormat: .timeOnly),
        ])
        for family in [WidgetFamily.small, .medium, .large] {
            let l = layout(d, family, Fixtures.inputs(isPro: true))
            let drawn = l.elements.filter { $0.kind == .text }
            let secondary = try #require(
                drawn.first { $0.text == "Coffees today: 3" }, "\(family): \(drawn.compactMap(\.text)) \(l.warnings)")
            let bar = try #require(l.actions.first)
            #expect(secondary.rect.maxY <= bar.rect.minY + 0.01, "\(family): the secondary runs into the action bar")
            // Never smaller than the seed's minimum scale (0.75 of caption2's 11 pt).
            #expect((secondary.textRun?.sizePoints ?? 0) >= 11 * 0.75 - 0.001)
            #expect(l.warnings.isEmpty, "\(family): \(l.warnings)")
            #expect(l.textLines == ["Coffee", "Morning", "Coffees today: 3"], "\(family): \(l.textLines)")
        }
        // Less room: the secondary line gets smaller type (padding 16, title2 primary)...
        d.style.primaryTextStyle = .title2
        let smaller = layout(d, .medium, Fixtures.inputs(isPro: true))
        let shrunk = try #require(
            smaller.elements.first { $0.text == "Coffees today: 3" },
            "\(smaller.elements.compactMap(\.text)) \(smaller.warnings)")
        #expect((shrunk.textRun?.sizePoints ?? 0) < 11 && (shrunk.textRun?.sizePoints ?? 0) >= 11 * 0.75 - 0.001)
        #expect(shrunk.rect.maxY <= smaller.actions[0].rect.minY + 0.01)
        #expect(smaller.warnings.isEmpty && smaller.textLines.contains("Coffees today: 3"))
        // ... and with less still (padding 20, title3), the primary goes to one smaller line too.
        d.style.paddingPoints = 20
        d.style.primaryTextStyle = .title3
        let both = layout(d, .medium, Fixtures.inputs(isPro: true))
        let primary = try #require(both.elements.first { $0.text == "Morning" })
        let secondary = try #require(
            both.elements.first { $0.text == "Coffees today: 3" },
            "\(both.elements.compactMap(\.text)) \(both.warnings)")
        #expect((primary.textRun?.sizePoints ?? 99) < 20 && (primary.textRun?.sizePoints ?? 0) >= 15 - 0.001)
        #expect(primary.rect.maxY <= secondary.rect.minY && secondary.rect.maxY <= both.actions[0].rect.minY + 0.01)
        #expect(both.warnings.isEmpty, "\(both.warnings)")
        // No room even for a shrunk line (large padding, big type): dropped, said, and left out of
        // every rendition.
        d.style.paddingPoints = 24
        d.style.primaryTextStyle = .title2
        let tight = layout(d, .medium, Fixtures.inputs(isPro: true))
        let texts = tight.elements.compactMap(\.text)
        #expect(texts.contains("Morning"), "\(texts) \(tight.warnings)")
        #expect(!texts.contains("Coffees today: 3"), "\(texts)")
        #expect(tight.warnings.contains { $0.hasPrefix("secondaryText: no room") }, "\(tight.warnings)")
        #expect(!tight.textLines.contains("Coffees today: 3"), "\(tight.textLines)")
        #expect(!renderer.text(tight).contains("Coffees"))
        #expect(!renderer.json(tight).contains("Coffees"))
    }

    /// Issue 28.1: a text cut with "…" is said as drawn in the text rendition and the JSON (a
    /// counter at the end of a cut line would otherwise change in the text but not the picture).
    @Test func aCutTextIsSaidAsDrawn() throws {
        var d = Fixtures.design("classic")
        d.name = "Coffee"
        d.primaryText = "Coffee counter for the whole morning and afternoon"
        d.layout.primaryLineLimitSmall = 1
        let l = layout(d, .small)
        let run = try #require(l.elements.compactMap(\.textRun).first { $0.text == d.primaryText })
        #expect(run.isTruncated)
        let shown = try #require(run.shownText)
        #expect(
            shown.hasSuffix("…") && shown.count < d.primaryText.count
                && d.primaryText.hasPrefix(String(shown.dropLast()).trimmingCharacters(in: .whitespaces)), "\(shown)")
        #expect(l.textLines[1] == shown, "\(l.textLines)")
        #expect(renderer.json(l).contains("\"shown\": \"\(shown)\""))
        // Not cut: said as written, and no `shown` in the JSON.
        d.primaryText = "Morning"
        let short = layout(d, .small)
        #expect(short.textLines[1] == "Morning" && !renderer.json(short).contains("\"shown\""))
    }

    /// Issue 28.1, lists: the text rendition of a list secondary holds the rows drawn and the
    /// "+N more" line, not rows the widget has no room for.
    @Test func aListsTextRenditionHoldsOnlyTheRowsDrawn() {
        var d = Fixtures.design("classic")
        d.name = "Shop"
        d.primaryText = "Groceries"
        d.secondaryText = (1...8).map { "- [ ] Item \($0)" }.joined(separator: "\n")
        let l = layout(d, .small)
        let rows = l.elements.compactMap(\.text).filter { $0.hasPrefix("Item ") }
        #expect(!rows.isEmpty && rows.count < 8, "\(rows)")
        let more = "+\(8 - rows.count) more"
        #expect(l.elements.contains { $0.text == more })
        let expected = rows.map { "- [ ] \($0)" } + [more]
        // The checklist pill shortens the primary line: it is said as drawn.
        let primary = l.elements.compactMap(\.textRun).first { $0.text == "Groceries" }
        #expect(
            l.textLines == ["Shop", primary?.shownText ?? "Groceries", expected.joined(separator: "\n")],
            "\(l.textLines)")
        #expect(!renderer.text(l).contains("Item 8"))
        // All rows drawn: the secondary as written.
        d.secondaryText = "- [ ] Milk\n- [x] Eggs"
        #expect(layout(d, .large).textLines.last == "- [ ] Milk\n- [x] Eggs")
    }

    /// Issue 28.2: layers the mix does not use showed 65 % on the large Noise widget while the
    /// mixer showed (and turning the layer on played) a new layer's 80 %.
    @Test func unusedNoiseLayersShowTheVolumeTheyWouldPlayAt() {
        let newLayer = Mix.Layer(enabled: false)
        let state = NoiseWidgetState.default
        #expect(state.layers.count == 4)
        for layer in state.layers.dropFirst() {
            #expect(layer.volume == newLayer.volume && layer.colour == newLayer.colour && !layer.enabled)
        }
        var inputs = Fixtures.inputs()
        inputs.noise = state
        let texts = layout(Fixtures.design("noise-machine"), .large, inputs).elements.compactMap(\.text)
        #expect(texts.filter { $0 == "80%" }.count == 4, "\(texts)")
        #expect(!texts.contains("65%"), "\(texts)")
    }

    /// Issue 29.1: a layer making drops or crackle names its texture on the large Noise widget's
    /// tile (the colour name only describes noise), from the Last Mix or the status feed.
    @Test func noiseLayerTilesNameTheirTexture() {
        var mix = Mix(
            name: "Campfire",
            layers: [
                Mix.Layer(colour: 2), Mix.Layer(texture: .crackle), Mix.Layer(texture: .drops, densityPerSecond: 40),
            ])
        mix.masterVolume = 0.9
        let state = NoiseWidgetState(
            playback: .playing, mixName: mix.name,
            layers: mix.layers.map {
                NoiseWidgetState.Layer(
                    enabled: $0.enabled, volume: $0.volume, colour: $0.colour, texture: $0.texture?.rawValue)
            },
            masterVolume: mix.masterVolume)
        #expect(state.layers.map(\.texture) == [nil, "crackle", "drops", nil])
        var inputs = Fixtures.inputs()
        inputs.noise = state
        let texts = layout(Fixtures.design("noise-machine"), .large, inputs).elements.compactMap(\.text)
        #expect(texts.contains("Crackle") && texts.contains("Drops") && texts.contains("Brown"), "\(texts)")
    }

    /// Issue 28.7: under en_US `__calendar_next_range` said "10:15 AM–11:00 AM" while the Next Up
    /// widget drew "10:15–11:00": both now follow the locale, one formatter.
    @Test(arguments: ["en_US", "en_GB", "de_DE"])
    func nextUpTimeRangeMatchesTheCalendarRangeKey(locale: String) throws {
        let first = Fixtures.calendar.events[0]
        let provider = CalendarSnapshotProvider(
            generatedAt: Fixtures.now,
            upcoming: [
                .init(
                    title: first.title, start: first.start, end: first.end!, isAllDay: false, location: first.location,
                    calendar: nil, startDay: nil)
            ])
        let context = RenderContext(
            now: Fixtures.now, timeZone: Fixtures.timeZone, locale: Locale(identifier: locale), isPro: false,
            builtIns: BuiltInKeys(sources: [TimeProvider(), provider]))
        let key = TemplateRenderer().render("{{__calendar_next_range}}", in: context)
        #expect(key.contains("–"), "\(key)")
        var inputs = Fixtures.inputs()
        inputs.context = context
        for family in [WidgetFamily.small, .medium] {
            let l = layout(Fixtures.design("next-up"), family, inputs)
            #expect(
                l.elements.contains { $0.text == key },
                "\(locale) \(family): \(l.elements.compactMap(\.text)) vs \(key)")
            #expect(l.textLines.contains(key), "\(l.textLines)")
        }
    }

    /// A medium hero with an action bar has ~30 pt between its name and the bar: the primary text
    /// keeps its line (the accent bar gives its room up first), and when not even a shrunk line
    /// fits, the secondary is not drawn on its own and a warning says why.
    @Test func heroWithAnActionBarKeepsItsPrimaryText() throws {
        var d = Fixtures.design("hero")
        d.primaryText = "Short"
        d.secondaryText = "One thing at a time"
        d.layout.showsAccentBar = true
        d.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "Cup", kind: .incrementVariable, variableKey: "coffee", incrementAmount: 1)
        ])
        let l = layout(d, .medium, Fixtures.inputs(isPro: true))
        let primary = try #require(l.elements.first { $0.text == "Short" }, "\(l.elements.compactMap(\.text))")
        let bar = try #require(l.actions.first)
        #expect(primary.rect.maxY <= bar.rect.minY)
        #expect(!l.warnings.contains { $0.hasPrefix("primaryText") })

        d.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "Cup", kind: .incrementVariable, variableKey: "coffee", incrementAmount: 1),
            ActionSpec(title: "Tea", kind: .incrementVariable, variableKey: "tea", incrementAmount: 1),
        ])
        d.style.paddingPoints = 32
        let tight = layout(d, .medium, Fixtures.inputs(isPro: true))
        let texts = tight.elements.compactMap(\.text)
        // The hero's inner inset gives up its height before the primary text goes.
        #expect(texts.contains("Short"), "\(texts) \(tight.warnings)")
        #expect(
            !texts.contains("One thing at a time") || texts.contains("Short"),
            "secondary drawn without the primary: \(texts)")
        for e in tight.elements where e.kind == .text {
            #expect(
                e.rect.maxY <= tight.actions[0].rect.minY
                    || tight.actions.contains { $0.rect.contains(Point(x: e.rect.midX, y: e.rect.midY)) })
        }
        // A primary text too big for any room left is not drawn, nor is the secondary alone.
        d.style.primaryTextStyle = .title
        d.primaryText = "Short"
        d.name = String(repeating: "Name ", count: 3)
        d.style.nameTextStyle = .title
        let none = layout(d, .medium, Fixtures.inputs(isPro: true))
        let noneTexts = none.elements.compactMap(\.text)
        #expect(
            noneTexts.contains("Short") || none.warnings.contains { $0.hasPrefix("primaryText: no room") },
            "\(noneTexts) \(none.warnings)")
        #expect(!noneTexts.contains("One thing at a time") || noneTexts.contains("Short"), "\(noneTexts)")
    }

    /// The reminders footer ("+3 more" and when the snapshot was made) is never cut: on small,
    /// "Updated" goes first ("Updated 3…" before).
    @Test(arguments: [WidgetFamily.small, .medium, .large]) func remindersFooterIsNotCut(_ family: WidgetFamily) throws
    {
        let l = layout(Fixtures.design("reminders"), family)
        let footer = try #require(
            l.elements.compactMap(\.textRun).first { $0.text.hasSuffix(" ago") }, "\(l.elements.compactMap(\.text))")
        #expect(!footer.isTruncated, "\(family): \(footer.text)")
    }

    @Test func listSecondaryTextBecomesRowsWithOverflow() {
        var d = Fixtures.design("classic")
        d.secondaryText = "- [x] one\n- [ ] two\n- [ ] three\n- [ ] four\n- [ ] five"
        let l = layout(d, .small)
        let texts = l.elements.compactMap(\.text)
        #expect(texts.contains("1/5"))
        #expect(texts.contains { $0.hasPrefix("+") && $0.hasSuffix("more") })
        #expect(l.elements.compactMap(\.textRun).first { $0.text == "one" }?.strikethrough == true)
    }

    @Test func clockHandsFollowTheRenderClock() {
        #expect(TemplateContext.handAngles(hour: 9, minute: 30) == (285, 180))
        #expect(TemplateContext.handAngles(hour: 15, minute: 0) == (90, 0))
        #expect(TemplateContext.handAngles(hour: 0, minute: 59) == (29.5, 354))
        // The layout's minute hand for 09:30 points straight down (a needle polygon from the hub).
        let l = layout(Fixtures.design("clock"), .small)
        let tips = l.elements.flatMap { e -> [Point] in
            if case .polygon(let points, _) = e.primitive { return points }
            return []
        }
        #expect(tips.contains { abs($0.x - 85) < 0.01 && $0.y > 85 + 50 })
    }

    /// The clock's date follows the locale's order and punctuation, not an English pattern.
    @Test(arguments: [
        ("en_GB", "Saturday 24 January"), ("de_DE", "Samstag, 24. Januar"), ("en_US", "Saturday, January 24"),
        ("fr_FR", "samedi 24 janvier"),
    ])
    func clockDateFollowsTheLocale(_ locale: String, _ expected: String) {
        var inputs = Fixtures.inputs()
        inputs.context.locale = Locale(identifier: locale)
        let l = layout(Fixtures.design("clock"), .medium, inputs)
        #expect(l.elements.contains { $0.text == expected }, "\(locale): \(l.elements.compactMap(\.text))")
    }

    @Test func noiseWidgetStatesAndActions() {
        let d = Fixtures.design("noise-machine")
        let playing = layout(d, .small, Fixtures.inputs(noise: .playing))
        #expect(playing.elements.contains { $0.text == "Playing" })
        #expect(
            playing.elements.contains {
                if case .symbol(let g, _, _) = $0.primitive { g.sfName == "pause.fill" } else { false }
            })
        let stopped = layout(d, .small, Fixtures.inputs(noise: .stopped))
        #expect(stopped.elements.contains { $0.text == "Stopped" })
        #expect(
            stopped.elements.contains {
                if case .symbol(let g, _, _) = $0.primitive { g.sfName == "play.fill" } else { false }
            })
        let kinds = Set(layout(d, .large).actions.map(\.kind))
        // The fixture's player runs a sleep timer, so the ±15 buttons are there too.
        #expect(kinds == [.togglePlayPause, .stop, .toggleLayer, .toggleResumeOnLaunch, .adjustTimer])
        let layers = layout(d, .medium).actions.filter { $0.kind == .toggleLayer }.compactMap(\.layer)
        #expect(layers == [1, 2, 3, 4])
        for f in WidgetFamily.allCases {
            #expect(layout(d, f).actions.contains { $0.kind == .togglePlayPause }, "\(f)")
        }
    }

    @Test func noiseStateComesFromTheStatusFeedThenTheLastMix() {
        let mix = LastMixFixtures.lastMix
        let fromMix = NoiseWidgetState.make(status: nil, lastMix: mix, now: Fixtures.now)
        #expect(fromMix.playback == .stopped && fromMix.mixName == mix.mix.name && fromMix.resumeOnLaunch)
        let live = NoiseWidgetState.make(
            status: LastMixFixtures.status(.playing, updatedAt: Fixtures.now.addingTimeInterval(-30)), lastMix: mix,
            now: Fixtures.now)
        #expect(live.playback == .playing && live.timerRemainingSeconds == 570)
        let paused = NoiseWidgetState.make(
            status: LastMixFixtures.status(.paused, updatedAt: Fixtures.now), lastMix: mix, now: Fixtures.now)
        #expect(paused.playback == .paused)
    }

    @Test func jsonFollowsTheSchema() throws {
        let l = layout(Fixtures.design("noise-machine"), .medium)
        let object = try JSONSerialization.jsonObject(with: Data(renderer.json(l).utf8)) as! [String: Any]
        #expect(Set(object.keys) == ["family", "scale", "width", "height", "elements", "actions"])
        #expect(
            object["family"] as? String == "medium" && object["scale"] as? Int == 2 && object["width"] as? Double == 364
        )
        let elements = object["elements"] as! [[String: Any]]
        #expect(elements.allSatisfy { Set($0.keys).isSubset(of: ["kind", "text", "rect"]) && $0["kind"] is String })
        let rect = elements[0]["rect"] as! [String: Any]
        #expect(Set(rect.keys) == ["x", "y", "width", "height"])
        let actions = object["actions"] as! [[String: Any]]
        #expect(actions.contains { $0["kind"] as? String == "toggleLayer" && $0["layer"] as? Int == 3 })
        #expect(
            actions.allSatisfy { Set($0.keys).isSubset(of: ["id", "kind", "title", "layer", "minutes", "rect"]) })
    }

    @Test func textRenditionIsOneLineForInline() {
        let inline = renderer.text(layout(Fixtures.design("noise-machine"), .inline))
        #expect(inline.filter { $0 == "\n" }.count == 1 && inline.contains("Noise playing"))
        let small = renderer.text(layout(Fixtures.design("classic"), .small))
        #expect(small == "Classic\nHello\nYour text here\n")
        // Enormous text is cut with "…": 200 characters for inline, 500 per line otherwise.
        var huge = Fixtures.design("classic")
        huge.primaryText = String(repeating: "word ", count: 400)
        let hugeInline = renderer.text(layout(huge, .inline))
        #expect(hugeInline.count == 201 && hugeInline.hasSuffix("…\n"), "\(hugeInline.count)")
        // On small the primary says what is drawn (issue 28.1): one line cut with "…".
        let hugeSmall = renderer.text(layout(huge, .small)).split(separator: "\n")
        #expect(
            hugeSmall.allSatisfy { $0.count <= 500 }
                && hugeSmall.contains { $0.count < 100 && $0.hasPrefix("word") && $0.hasSuffix("…") }, "\(hugeSmall)")
    }

    @Test func pngSizeFollowsScale() throws {
        for scale in 1...3 {
            let l = renderer.layout(
                design: Fixtures.design("classic"), family: .medium, scale: scale, inputs: Fixtures.inputs())
            let px = try renderer.pixels(l)
            #expect(px.width == 364 * scale && px.height == 170 * scale)
            // Corners are transparent, the centre is not.
            #expect(px.argb[0] >> 24 == 0)
            #expect(px.argb[(px.height / 2) * px.width + px.width / 2] >> 24 == 0xFF)
        }
        let png = try renderer.png(layout(Fixtures.design("classic"), .small))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func svgIsWellFormedXML() throws {
        var d = Fixtures.design("classic")
        d.primaryText = "<b>bold?</b> & \"quotes\" ]]> <!--"
        let svg = try renderer.svg(layout(d, .medium))
        #expect(svg.hasPrefix("<?xml"))
        #expect(XMLCheck.isWellFormed(svg))
    }

    @Test func symbolMapGlyphsAllExistInTheIconFont() {
        let engine = TextEngine(fonts: .shared)
        for (sf, material) in SymbolMap.table {
            let g = SymbolMap.glyph(sf)
            #expect(!g.isFallback && g.materialName == material, "\(sf)")
            #expect(
                engine.unknownGlyphCount(g.character, family: FontSystem.symbolFamily) == 0,
                "\(sf) → \(material) missing from the font")
        }
        #expect(SymbolMap.glyph("no.such.symbol").isFallback)
        #expect(FontSystem.shared.missingFiles.isEmpty, "\(FontSystem.shared.missingFiles)")
    }

    @Test func classicDrawsTheImageAtItsHeightAndRadius() throws {
        var d = Fixtures.design("classic")
        d.image = ImageSpec(fileName: "sunset.jpg", contentMode: .fit, heightPoints: 90, cornerRadiusPoints: 12)
        let l = layout(d, .large, Fixtures.inputs(images: ["sunset.jpg": Fixtures.samplePhoto]))
        let image = try #require(l.elements.first { $0.kind == .image })
        #expect(image.rect.height == 90)
        #expect(image.primitive == .image(key: "sunset.jpg", contentMode: .fit, cornerRadius: 12, blurred: false))
        let missing = layout(d, .large, Fixtures.inputs())
        #expect(missing.warnings.contains { $0.contains("image.fileName") })
    }
}
