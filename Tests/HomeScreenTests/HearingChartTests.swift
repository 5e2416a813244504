import Foundation
import NoiseEngine
import Testing

@testable import HomeScreen

/// The profile chart is laid out before it is drawn: its numbers are checked here, without pixels.
@Suite struct HearingChartTests {
    @Test func theLayoutPlacesBandsOnALogAxisAndWidensForLargeGains() {
        var p = HearingProfile(centresHz: [63, 1000, 12500], gainsDb: [6, 0, -3])
        p.pendingCentresHz = [250]
        let l = HearingChart.layout(p)
        #expect(l.dbRange == -12...12)
        #expect(l.points.count == 3 && l.pendingX.count == 1)
        // A log axis: an octave is the same distance everywhere.
        let perOctave = (l.points[2].x - l.points[1].x) / log2(12500 / 1000.0)
        #expect(abs((l.points[1].x - l.points[0].x) / log2(1000 / 63.0) - perOctave) < 1e-9)
        // 0 dB at mid height, +6 dB above it.
        let zero = l.yTicks.first { $0.label == "0" }!.y
        #expect(abs(l.points[1].y - zero) < 1e-9 && l.points[0].y < zero && l.points[2].y > zero)
        #expect(abs(zero - (HearingChart.plot.top + HearingChart.plot.bottom) / 2) < 1e-9)

        let loud = HearingChart.layout(HearingProfile(centresHz: [100, 1000], gainsDb: [-20, 0]))
        #expect(loud.dbRange == -24...24)
    }

    @Test func theSVGEscapesTheDeviceAndSaysWhatIsLeft() {
        let p = HearingProfile(centresHz: [63, 80], gainsDb: [1, 2], complete: false, pendingCentresHz: [100, 125])
        let svg = HearingChart.svg(p, device: "a<b>&c")
        #expect(svg.contains("a&lt;b&gt;&amp;c") && !svg.contains("a<b>"))
        #expect(svg.contains("unfinished: 2 bands to go"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 4)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }
}
