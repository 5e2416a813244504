/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence on every platform,
/// which is what makes `weaver remix --seed N` reproducible.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n without modulo bias (Lemire's method); the standard library's
    /// `Int.random(in:using:)` is not guaranteed stable across Swift versions.
    public mutating func index(below n: Int) -> Int {
        precondition(n > 0)
        let bound = UInt64(n)
        var m = next().multipliedFullWidth(by: bound)
        if m.low < bound {
            let threshold = (0 &- bound) % bound
            while m.low < threshold { m = next().multipliedFullWidth(by: bound) }
        }
        return Int(m.high)
    }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[index(below: choices.count)] }
}
