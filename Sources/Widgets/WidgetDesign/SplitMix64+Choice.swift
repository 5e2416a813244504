import NoiseDSP

/// Choices for `weaver remix`, on the project's one seeded generator (NoiseDSP's `SplitMix64`).
extension SplitMix64 {
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
