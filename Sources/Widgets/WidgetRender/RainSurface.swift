import Foundation
import WidgetDataKeys

/// The nowcast chart's rain surface as the seed draws it (notes §6; the seed README's "Nowcast
/// rain surface chart rendering"), as geometry: the backends draw it (`CairoDrawer+RainSurface`).
/// Plotted is the expected intensity (mm/h × chance) per minute, minute i at [i, i+1) of a fixed
/// 60-minute axis, so a forecast shorter than an hour is not stretched across the chart.
public struct RainSurface: Sendable, Hashable {
    public struct Colours: Sendable, Hashable {
        /// The core at the ridge and at the baseline (a vertical gradient between them).
        public var ridge: RGBA
        public var deep: RGBA
        /// The haze above the surface and the grain's tint.
        public var mist: RGBA
        public var baseline: RGBA

        /// The seed's blues.
        public static let rain = Colours(
            ridge: RGBA(0, 0.41, 0.94), deep: RGBA(0, 0.02, 0.18),
            mist: RGBA(0, 0.30, 0.92), baseline: RGBA(0.18, 0.34, 0.98, 0.20))
        /// Lock-screen families draw in one vibrant tone.
        public static let monochrome = Colours(
            ridge: RGBA(1, 1, 1, 0.92), deep: RGBA(1, 1, 1, 0.30),
            mist: RGBA(1, 1, 1, 0.9), baseline: RGBA(1, 1, 1, 0.35))
        /// Data past its validity: the same surface without colour.
        public static let old = Colours(
            ridge: RGBA(0.50, 0.52, 0.56), deep: RGBA(0.10, 0.10, 0.12),
            mist: RGBA(0.55, 0.57, 0.60), baseline: RGBA(0.6, 0.6, 0.65, 0.25))
    }

    /// The chart's area; the surface is clipped to it.
    public var plot: Rect
    public var baselineY: Double
    /// One closed outline per wet run: from the baseline up the left taper, along the ridge and
    /// down the right taper to the baseline, in widget points.
    public var segments: [[Point]]
    /// Where the data ends (a window shorter than an hour), x in points.
    public var dataEndX: Double
    /// Chance (0…1) per minute of the window: low certainty thickens the grain and the mist.
    public var certainty: [Double]
    /// Seeds the texture offsets: the same snapshot and clock draw the same pixels.
    public var seed: UInt64
    public var colours: Colours
    /// Texture on (grain, surface band, mist); off leaves the solid core only.
    public var textured: Bool

    // The seed's numbers (notes §6).
    static let baselineFraction = 0.83
    static let headroomFraction = 0.075
    static let intensityGamma = 0.62
    static let referencePercentile = 0.9
    static let maxDenseSamples = 240
    /// Target taper width at each end of a wet run, points (bounded by the dry space there).
    static let taperPoints = 12.0

    /// The reference maximum: the wet minutes' 90th percentile rounded up to the seed's steps
    /// 1 → 2.5 → 5 → 10 mm/h (above 10 the percentile itself), so a single spike does not flatten
    /// the rest and light rain is not drawn as a downpour.
    static func referenceMax(_ expected: [Double]) -> Double {
        let wet = expected.filter { $0 >= Nowcast.wetThreshold }.sorted()
        guard !wet.isEmpty else { return 1 }
        let rank = min(wet.count - 1, max(0, Int((referencePercentile * Double(wet.count)).rounded(.up)) - 1))
        let p = wet[rank]
        for step in [1.0, 2.5, 5, 10] where p <= step { return step }
        return p
    }

    /// Laid out in `plot` from the window at the render's clock (bin 0 = now).
    public init(window: [Nowcast.Minute], plot: Rect, seed: UInt64, colours: Colours = .rain, textured: Bool = true) {
        self.plot = plot
        self.seed = seed
        self.colours = colours
        self.textured = textured
        let minutes = Array(window.prefix(60))
        let expected = minutes.map { $0.isWet ? $0.expectedMMh : 0 }
        // A dry minute's chance says nothing about the rain drawn beside it (a taper reaches into
        // it): it takes the nearest wet minute's, so the texture does not flare at a run's ends.
        let wetIndices = minutes.indices.filter { minutes[$0].isWet }
        certainty = minutes.indices.map { i in
            guard !minutes[i].isWet, let nearest = wetIndices.min(by: { abs($0 - i) < abs($1 - i) }) else {
                return minutes[i].chance
            }
            return minutes[nearest].chance
        }
        let baselineY = plot.minY + plot.height * Self.baselineFraction
        self.baselineY = baselineY
        let top = plot.minY + plot.height * Self.headroomFraction
        let reference = Self.referenceMax(expected)
        let heights = expected.map { v in
            v <= 0 ? 0.0 : pow(min(1, v / reference), Self.intensityGamma) * (baselineY - top)
        }
        let perMinute = plot.width / 60
        let dataEndX = plot.minX + perMinute * Double(minutes.count)
        self.dataEndX = dataEndX
        var segments: [[Point]] = []

        // Wet runs, in minutes [start, end).
        var runs: [(start: Int, end: Int)] = []
        var i = 0
        while i < heights.count {
            guard heights[i] > 0 else {
                i += 1
                continue
            }
            var j = i
            while j < heights.count && heights[j] > 0 { j += 1 }
            runs.append((i, j))
            i = j
        }
        let samplesPerPoint = Double(Self.maxDenseSamples) / max(1, plot.width)
        for (k, run) in runs.enumerated() {
            let x0 = plot.minX + Double(run.start) * perMinute, x1 = plot.minX + Double(run.end) * perMinute
            // Dense samples along the run: Catmull-Rom through the minute centres, held flat at
            // the run's ends, so the ridge is smooth at any width.
            let count = max(2, Int(((x1 - x0) * samplesPerPoint).rounded(.up)) + 1)
            func h(_ m: Int) -> Double { heights[min(run.end - 1, max(run.start, m))] }
            var ridge: [Point] = []
            ridge.reserveCapacity(count + 20)
            for s in 0..<count {
                let x = x0 + (x1 - x0) * Double(s) / Double(count - 1)
                let t = (x - plot.minX) / perMinute - 0.5
                let m = Int(t.rounded(.down)), f = t - Double(m)
                let p0 = h(m - 1), p1 = h(m), p2 = h(m + 1), p3 = h(m + 2)
                let f2 = f * f, f3 = f2 * f
                let v =
                    0.5
                    * (2 * p1 + (-p0 + p2) * f + (2 * p0 - 5 * p1 + 4 * p2 - p3) * f2 + (-p0 + 3 * p1 - 3 * p2 + p3)
                        * f3)
                ridge.append(Point(x: x, y: baselineY - max(0.5, v)))
            }
            // Tapers measured in points, each at most half the dry gap to the next run (or to the
            // data's edge: rain running off the end of the data is not tapered, it goes on there).
            let leftRoom = k == 0 ? x0 - plot.minX : (x0 - (plot.minX + Double(runs[k - 1].end) * perMinute)) / 2
            let rightRoom =
                k == runs.count - 1
                ? (run.end >= minutes.count ? 0 : dataEndX - x1)
                : ((plot.minX + Double(runs[k + 1].start) * perMinute) - x1) / 2
            let leftTaper = min(Self.taperPoints, leftRoom), rightTaper = min(Self.taperPoints, rightRoom)
            var outline: [Point] = []
            outline.reserveCapacity(ridge.count + 18)
            // Cosine ease from the edge height to the baseline (passes ≈ 0.68 and ≈ 0.22 of it).
            let steps = 8
            if leftTaper > 0.5 {
                let edge = baselineY - ridge[0].y
                for s in 0..<steps {
                    let f = 1 - Double(s) / Double(steps)
                    outline.append(Point(x: x0 - leftTaper * f, y: baselineY - edge * 0.5 * (1 - cos(.pi * (1 - f)))))
                }
            } else {
                outline.append(Point(x: x0, y: baselineY))
            }
            outline += ridge
            if rightTaper > 0.5 {
                let edge = baselineY - ridge[ridge.count - 1].y
                for s in 1...steps {
                    let f = Double(s) / Double(steps)
                    outline.append(Point(x: x1 + rightTaper * f, y: baselineY - edge * 0.5 * (1 + cos(.pi * f))))
                }
            } else {
                outline.append(Point(x: x1, y: baselineY))
            }
            segments.append(outline)
        }
        self.segments = segments
    }

    /// The topmost point of a segment (its ridge colour is drawn there).
    static func crestY(_ segment: [Point]) -> Double { segment.map(\.y).min() ?? 0 }

    public var isDry: Bool { segments.isEmpty }
}
