/// Where two long sequences first differ, for test messages. `#expect(a == b)` on millions of
/// samples is a trap: when it fails, Swift Testing explains the failure with a Myers diff of the two
/// collections, which takes hours on audio-sized arrays, so a failing test hangs the whole run.
/// Compare with this instead: nil when equal.
public func firstDifference<C: Collection>(_ a: C, _ b: C) -> String? where C.Element: Equatable {
    var i = a.startIndex, j = b.startIndex, n = 0
    while i != a.endIndex && j != b.endIndex {
        if a[i] != b[j] {
            return "first difference at element \(n): \(a[i]) against \(b[j]) (counts \(a.count) and \(b.count))"
        }
        a.formIndex(after: &i)
        b.formIndex(after: &j)
        n += 1
    }
    return a.count == b.count ? nil : "counts differ: \(a.count) and \(b.count) (equal for the first \(n))"
}

/// The same for arrays of channels.
public func firstDifference<E: Equatable>(channels a: [[E]], _ b: [[E]]) -> String? {
    guard a.count == b.count else { return "channel counts differ: \(a.count) and \(b.count)" }
    for (k, (x, y)) in zip(a, b).enumerated() {
        if let d = firstDifference(x, y) { return "channel \(k): \(d)" }
    }
    return nil
}
