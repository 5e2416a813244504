import Foundation

/// An ITU-R BS.1770-4 loudness meter written from the standard's 48 kHz coefficient table (not from
/// the engine's analog K-weighting design, so the two check each other). Gated integrated loudness
/// with 400 ms blocks, 75 % overlap, −70 LUFS absolute and −10 LU relative gates.
public enum Loudness {
    struct Biquad {
        var b0, b1, b2, a1, a2: Double
        var s1 = 0.0, s2 = 0.0
        mutating func run(_ x: Double) -> Double {
            let y = b0 * x + s1
            s1 = b1 * x - a1 * y + s2
            s2 = b2 * x - a2 * y
            return y
        }
    }

    static func kWeighted(_ channels: [[Float]]) -> [[Double]] {
        channels.map { ch in
            var shelf = Biquad(
                b0: 1.53512485958697, b1: -2.69169618940638, b2: 1.19839281085285,
                a1: -1.69065929318241, a2: 0.73248077421585)
            var hp = Biquad(b0: 1.0, b1: -2.0, b2: 1.0, a1: -1.99004745483398, a2: 0.99007225036621)
            return ch.map { hp.run(shelf.run(Double($0))) }
        }
    }

    /// Ungated loudness of sliding windows (EBU Tech 3341: 3 s is "short-term", 0.4 s "momentary"),
    /// one value per `hopSeconds`, in LUFS, for 48 kHz channels.
    public static func slidingLufs(_ channels: [[Float]], windowSeconds: Double = 3, hopSeconds: Double = 0.1)
        -> [Double]
    {
        let weighted = kWeighted(channels)
        let window = Int(windowSeconds * 48000), hop = Int(hopSeconds * 48000)
        let n = weighted[0].count
        // Running sums of squares per channel (prefix sums), so each window costs O(1).
        var prefix = [Double](repeating: 0, count: n + 1)
        for ch in weighted { for i in 0..<n { prefix[i + 1] += ch[i] * ch[i] } }
        for i in 1...n { prefix[i] += prefix[i - 1] }
        var out: [Double] = []
        var start = 0
        while start + window <= n {
            let z = (prefix[start + window] - prefix[start]) / Double(window)
            out.append(-0.691 + 10 * log10(z))
            start += hop
        }
        return out
    }

    /// Integrated loudness in LUFS of 48 kHz channels (1 or 2, weights 1.0).
    public static func integratedLufs(_ channels: [[Float]], sampleRate: Double = 48000) -> Double {
        precondition(sampleRate == 48000, "the meter uses the standard's 48 kHz table")
        var meter = Meter(channelCount: channels.count)
        meter.add(channels)
        return meter.integratedLufs
    }

    /// The integrated meter fed a chunk at a time (for renders too long to hold): the K-weighting
    /// carries its state across chunks, and each 400 ms block is the sum of four 100 ms hops, so the
    /// blocks are exactly those of one pass over the whole signal.
    public struct Meter {
        var filters: [(Biquad, Biquad)]
        /// Σ over channels of the K-weighted squares of each whole 100 ms hop so far.
        var hops: [Double] = []
        var partial = 0.0, partialCount = 0
        static let hop = 4800

        public init(channelCount: Int) {
            let shelf = Biquad(
                b0: 1.53512485958697, b1: -2.69169618940638, b2: 1.19839281085285,
                a1: -1.69065929318241, a2: 0.73248077421585)
            let hp = Biquad(b0: 1.0, b1: -2.0, b2: 1.0, a1: -1.99004745483398, a2: 0.99007225036621)
            filters = Array(repeating: (shelf, hp), count: channelCount)
        }

        public mutating func add(_ channels: [[Float]]) {
            let n = channels[0].count
            var i = 0
            while i < n {
                let m = min(Self.hop - partialCount, n - i)
                for c in channels.indices {
                    var (shelf, hp) = filters[c]
                    var s = 0.0
                    for x in channels[c][i..<(i + m)] {
                        let y = hp.run(shelf.run(Double(x)))
                        s += y * y
                    }
                    filters[c] = (shelf, hp)
                    partial += s
                }
                partialCount += m
                i += m
                if partialCount == Self.hop {
                    hops.append(partial)
                    partial = 0
                    partialCount = 0
                }
            }
        }

        /// The mean over the blocks above −70 LUFS, before the relative gate (BS.1770's "ungated").
        public var ungatedLufs: Double {
            guard hops.count >= 4 else { return -.infinity }
            let blocks = (0...(hops.count - 4)).map { (i: Int) -> Double in
                let sum: Double = hops[i] + hops[i + 1] + hops[i + 2] + hops[i + 3]
                return sum / 19200
            }
            let absolute = blocks.filter { -0.691 + 10 * log10($0) > -70 }
            guard !absolute.isEmpty else { return -.infinity }
            return -0.691 + 10 * log10(absolute.reduce(0, +) / Double(absolute.count))
        }

        public var integratedLufs: Double {
            func lufs(_ z: Double) -> Double { -0.691 + 10 * log10(z) }
            guard hops.count >= 4 else { return -.infinity }
            let blocks = (0...(hops.count - 4)).map { (i: Int) -> Double in
                let sum: Double = hops[i] + hops[i + 1] + hops[i + 2] + hops[i + 3]
                return sum / 19200
            }
            let absolute = blocks.filter { lufs($0) > -70 }
            guard !absolute.isEmpty else { return -.infinity }
            let relativeGate = lufs(absolute.reduce(0, +) / Double(absolute.count)) - 10
            let gated = absolute.filter { lufs($0) > relativeGate }
            return lufs(gated.reduce(0, +) / Double(gated.count))
        }
    }
}
