/// How far apart two sounds' statistics are: per class the RMS difference of the vectors over
/// that class's spread across real recordings (`StatisticClass.poolSpread`), i.e. "how many
/// typical recording-to-recording standard deviations apart". Two independent noises of one
/// spectrum measure about 0.13 overall.
public struct TextureDistance: Sendable, Equatable {
    public var perClass: [StatisticClass: Double]

    public init(_ a: TextureStats, _ b: TextureStats) {
        var d: [StatisticClass: Double] = [:]
        for c in StatisticClass.allCases {
            let x = a[c], y = b[c]
            let n = min(x.count, y.count)
            var s = 0.0
            for i in 0..<n { s += (x[i] - y[i]) * (x[i] - y[i]) }
            d[c] = n > 0 ? (s / Double(n)).squareRoot() / c.poolSpread : 0
        }
        perClass = d
    }

    public subscript(_ c: StatisticClass) -> Double { perClass[c] ?? 0 }

    /// Texture beyond the spectrum: the mean over every class but M1 (texstat's `tex`).
    public var texture: Double {
        let cs = StatisticClass.allCases.filter { $0 != .m1 }
        return cs.map { self[$0] }.reduce(0, +) / Double(cs.count)
    }

    /// The mean over all eight classes (texstat's `all`).
    public var total: Double {
        StatisticClass.allCases.map { self[$0] }.reduce(0, +) / Double(StatisticClass.allCases.count)
    }
}
