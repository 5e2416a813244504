import Foundation
import Testing

@testable import WidgetDesign
@testable import WidgetRender

/// The clock template draws its `clockConfig`: each face its own marks, each theme its own
/// background and accent, the Icon face's dial and second-hand colours.
@Suite struct ClockFaceTests {
    let renderer = WidgetRenderer()

    func clock(
        _ config: ClockDesignConfig?, _ family: WidgetFamily = .small, appearance: Appearance = .dark,
        now: Date = Fixtures.now
    ) -> WidgetLayout {
        var d = Fixtures.design("clock")
        d.clockConfig = config
        var inputs = Fixtures.inputs(appearance: appearance)
        inputs.context.now = now
        return renderer.layout(design: d, family: family, scale: 2, inputs: inputs)
    }

    func texts(_ l: WidgetLayout) -> [String] { l.elements.compactMap(\.text) }

    func solidFills(_ l: WidgetLayout) -> [RGBA] {
        l.elements.compactMap { e -> RGBA? in
            switch e.primitive {
            case .polygon(_, .solid(let c)), .ellipse(.solid(let c), _, _), .shape(.solid(let c), _, _, _): c
            default: nil
            }
        }
    }

    func sectors(_ l: WidgetLayout) -> Int {
        l.elements.filter { if case .polygon(let points, _) = $0.primitive { points.count > 24 } else { false } }.count
    }

    @Test func eachFaceDrawsItsOwnMarks() {
        let ceramic = clock(ClockDesignConfig(face: .ceramic))
        let icon = clock(ClockDesignConfig(face: .icon))
        let segmented = clock(ClockDesignConfig(face: .segmented))
        // Ceramic: four numerals and accent pips; Icon: twelve numerals on a flat dial; Segmented:
        // twelve numerals on twelve ring blocks.
        #expect(texts(ceramic) == ["12", "3", "6", "9"])
        #expect(texts(icon) == (1...12).map(String.init))
        #expect(texts(segmented) == ["12"] + (1...11).map(String.init))
        let classic = ClockFacePalette.resolve(ClockDesignConfig(), appearance: .dark)
        #expect(solidFills(ceramic).filter { $0 == classic.accent }.count >= 3)
        #expect(solidFills(icon).contains(classic.iconDial) && !solidFills(ceramic).contains(classic.iconDial))
        #expect(sectors(segmented) == 12 && sectors(icon) == 0 && sectors(ceramic) == 0)
        #expect(
            ceramic.elements != icon.elements && icon.elements != segmented.elements
                && ceramic.elements != segmented.elements)
    }

    @Test func aDesignWithoutClockConfigDrawsTheLegacyCeramicClassic() {
        let legacy = clock(nil)
        #expect(legacy.elements == clock(ClockDesignConfig(theme: .classic, face: .ceramic)).elements)
        #expect(legacy.elements != clock(ClockDesignConfig()).elements)
        #expect(texts(legacy) == ["12", "3", "6", "9"])
    }

    @Test func everyThemeHasItsBackgroundAndAccent() {
        var backgrounds: Set<Paint> = []
        for theme in ClockThemeToken.allCases {
            let l = clock(ClockDesignConfig(theme: theme, face: .ceramic))
            let p = ClockFacePalette.resolve(ClockDesignConfig(theme: theme), appearance: .dark)
            guard case .shape(let fill?, _, _, _) = l.elements[0].primitive, case .linear(_, _, let stops) = fill else {
                Issue.record("\(theme): the first element is not the background gradient")
                continue
            }
            #expect(stops.map(\.colour) == [p.backgroundTop, p.backgroundBottom], "\(theme)")
            backgrounds.insert(fill)
            // The Ceramic pips and baton caps, and its second hand, are the theme accent.
            #expect(solidFills(l).filter { $0 == p.accent }.count >= 3 + 8 + 1, "\(theme)")
        }
        #expect(backgrounds.count == ClockThemeToken.allCases.count)
        // Light appearance: the theme's light gradient, and dark text beside the face.
        let light = clock(ClockDesignConfig(theme: .mint, face: .ceramic), .medium, appearance: .light)
        let p = ClockFacePalette.resolve(ClockDesignConfig(theme: .mint), appearance: .light)
        #expect(light.elements.compactMap(\.textRun).first { $0.text == "09:30" }?.colour == p.ink)
        #expect(p.ink.r < 0.2 && p.backgroundTop.r > 0.8)
    }

    @Test func iconDialAndSecondHandColoursAreHonoured() {
        let config = ClockDesignConfig(
            theme: .ocean, face: .icon, iconDialColour: .graphite, iconSecondHandColour: .white)
        let l = clock(config)
        let p = ClockFacePalette.resolve(config, appearance: .dark)
        #expect(p.iconDial == ClockFacePalette.iconDial(.graphite, dark: true))
        #expect(p.secondHand == ClockFacePalette.secondHand(.white))
        #expect(solidFills(l).contains(p.iconDial) && solidFills(l).contains(p.secondHand))
        // No override: the theme's dial and the red second hand.
        let plain = clock(ClockDesignConfig(theme: .ocean, face: .icon))
        #expect(solidFills(plain).contains(ClockFacePalette.iconDial(.ocean, dark: true)))
        #expect(solidFills(plain).contains(RGBA(hex: 0xF53842)))
        // Every dial family has its own colour.
        #expect(Set(ClockIconDialColourToken.allCases.map { ClockFacePalette.iconDial($0, dark: true) }).count == 7)
        #expect(Set(ClockSecondHandColourToken.allCases.map(ClockFacePalette.secondHand)).count == 8)
        // A second hand outside the dial's set draws as the dial's recommended one (mint is not
        // offered with the Classic dial: red).
        let unpaired = clock(ClockDesignConfig(theme: .classic, face: .icon, iconSecondHandColour: .mint))
        #expect(
            solidFills(unpaired).contains(RGBA(hex: 0xF53842))
                && !solidFills(unpaired).contains(ClockFacePalette.secondHand(.mint)))
    }

    @Test func handsShowTheMinuteAsItBegan() {
        for face in ClockFaceToken.allCases {
            let config = ClockDesignConfig(face: face)
            // 09:30:45 draws as 09:30:00: the face shows the minute, the second hand at 12.
            #expect(
                clock(config, now: Fixtures.now.addingTimeInterval(45)).elements == clock(config).elements, "\(face)")
            #expect(
                clock(config, now: Fixtures.now.addingTimeInterval(60)).elements != clock(config).elements, "\(face)")
            // A hand reaches straight down (the minute hand at 30) and one straight up (the
            // second hand); ring blocks (many-pointed polygons) aside.
            let points = clock(config).elements.flatMap { e -> [Point] in
                if case .polygon(let p, _) = e.primitive, p.count <= 24 { return p }
                return []
            }
            #expect(points.contains { abs($0.x - 85) < 8 && $0.y > 85 + 45 }, "\(face)")
            #expect(points.contains { abs($0.x - 85) < 8 && $0.y < 85 - 45 }, "\(face)")
        }
    }

    @Test func everyFaceAndThemeFitsEveryFamily() {
        for face in ClockFaceToken.allCases {
            for theme in ClockThemeToken.allCases {
                for family in [WidgetFamily.small, .medium, .large] {
                    for appearance in Appearance.allCases {
                        let l = clock(ClockDesignConfig(theme: theme, face: face), family, appearance: appearance)
                        for e in l.elements where e.kind != .background {
                            #expect(
                                l.bounds.encloses(e.rect, tolerance: 0.5),
                                "\(face) \(theme) \(family): \(e.kind) \(e.rect)")
                        }
                        #expect(l.warnings.isEmpty)
                    }
                }
            }
        }
    }
}
