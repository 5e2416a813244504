import Foundation
import Testing
import WidgetDesign

@testable import WidgetRender

/// `style.weatherScale` scales the Weather template as the seed app does (drawn clamped to
/// 0.85…1.35), and a large scale never makes text overlap text or the chart.
@Suite struct WeatherScaleTests {
    let renderer = WidgetRenderer()

    func weather(_ scale: Double, _ family: WidgetFamily) -> WidgetLayout {
        var d = Fixtures.design("weather")
        d.style.weatherScale = scale
        return renderer.layout(design: d, family: family, scale: 2, inputs: Fixtures.inputs())
    }

    func rect(_ text: String, _ l: WidgetLayout) -> Rect? { l.elements.first { $0.text == text }?.rect }

    /// The chart's plot (the dark rounded panel) and its rain ribbon.
    func plot(_ l: WidgetLayout) -> Rect? {
        l.elements.first { $0.kind == .chart }?.rect
    }

    @Test func typeGrowsAndShrinksWithTheScale() throws {
        for family in [WidgetFamily.small, .medium, .large] {
            let big = try #require(rect("7°C", weather(1.4, family))),
                normal = try #require(rect("7°C", weather(1, family)))
            let small = try #require(rect("7°C", weather(0.6, family)))
            #expect(big.height > normal.height && normal.height > small.height, "\(family)")
            #expect(big.width > normal.width && normal.width > small.width, "\(family)")
            let runs = [weather(1.4, family), weather(1, family), weather(0.6, family)].map {
                $0.elements.compactMap(\.textRun).first { $0.text == "London" }!.sizePoints
            }
            #expect(runs[0] > runs[1] && runs[1] > runs[2], "\(family)")
            // Padding scales too: the location starts further in at a larger scale.
            #expect(
                rect("London", weather(1.4, family))!.minX > rect("London", weather(0.6, family))!.minX, "\(family)")
        }
    }

    @Test func scaleIsClampedAsTheAppDrawsIt() {
        for family in [WidgetFamily.small, .medium] {
            // 0.6…1.4 is stored; the template draws 0.85…1.35 (StyleSpec.weatherRenderScale).
            #expect(weather(1.4, family).elements == weather(1.35, family).elements)
            #expect(weather(3, family).elements == weather(1.35, family).elements)
            #expect(weather(0.6, family).elements == weather(0.85, family).elements)
            #expect(weather(-1, family).elements == weather(0.85, family).elements)
            #expect(weather(1.2, family).elements != weather(1, family).elements)
            #expect(weather(1.4, family).elements != weather(1, family).elements)
        }
        var d = Fixtures.design("weather")
        d.style.weatherScale = 9
        #expect(d.style.weatherRenderScale == 1.35)
    }

    @Test func textNeverOverlapsTextOrTheChart() {
        for family in [WidgetFamily.small, .medium, .large] {
            for scale in [0.6, 0.85, 1, 1.2, 1.4] {
                let l = weather(scale, family)
                let texts = l.elements.filter { $0.kind == .text }
                for (i, a) in texts.enumerated() {
                    #expect(
                        l.bounds.insetBy(6).encloses(a.rect, tolerance: 0.5),
                        "\(family) \(scale): \(a.text!) outside the glass")
                    for other in texts[(i + 1)...] {
                        #expect(
                            overlap(a.rect, other.rect) < 0.5,
                            "\(family) \(scale): '\(a.text!)' overlaps '\(other.text!)'")
                    }
                    if let plot = plot(l) {
                        #expect(overlap(a.rect, plot) < 0.5, "\(family) \(scale): '\(a.text!)' overlaps the chart")
                    }
                }
                for e in l.elements where e.kind == .symbol {
                    for t in texts {
                        #expect(overlap(e.rect, t.rect) < 0.5, "\(family) \(scale): symbol overlaps '\(t.text!)'")
                    }
                }
            }
        }
    }

    @Test func largeScaleKeepsTheChartOnMediumAndTheWholeHeadline() throws {
        // Medium at 1.4: the high/low moves to the footer row and the headline keeps to one
        // (slightly smaller) line so the chart still fits.
        let medium = weather(1.4, .medium)
        let p = try #require(plot(medium))
        #expect(p.height >= 22)
        let headline = try #require(medium.elements.compactMap(\.textRun).first { $0.text == "Light rain in 20 min" })
        #expect(!headline.isTruncated && headline.lineCount == 1)
        #expect(rect("H 9° L 3°", medium)!.minY > p.maxY)
        // Small at 1.4: no room for a chart beside a two-line headline and the temperature, so
        // the chart is left out rather than the headline cut.
        let small = weather(1.4, .small)
        #expect(plot(small) == nil)
        let smallHeadline = try #require(
            small.elements.compactMap(\.textRun).first { $0.text == "Light rain in 20 min" })
        #expect(!smallHeadline.isTruncated)
        // At 1 every family keeps its chart and the layout it had before weatherScale.
        for family in [WidgetFamily.small, .medium, .large] { #expect(plot(weather(1, family)) != nil) }
    }

    func overlap(_ a: Rect, _ b: Rect) -> Double {
        max(0, min(a.maxX, b.maxX) - max(a.minX, b.minX)) * max(0, min(a.maxY, b.maxY) - max(a.minY, b.minY))
    }
}
