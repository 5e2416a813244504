import Foundation

/// Parses durations as users type them: `90` (seconds), `30s`, `10m`, `1h30m`, `8h`, `1.5h`,
/// `150ms`, `2h15m30s`.
public enum DurationParser {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var text: String
        /// A duration written with a minus (`-1s`): said as such, not as "not a duration".
        public var isNegative = false
        public var description: String {
            isNegative
                ? "'\(text)' is negative; a duration must be positive (e.g. 90, 30s, 10m, 1h30m, 8h, 150ms)"
                : """
                '\(text)' is not a duration; use a number of seconds or units h, m, s, ms (e.g. 90, 30s, 10m, \
                1h30m, 8h, 150ms)
                """
        }
    }

    /// Seconds in `text`.
    public static func seconds(_ text: String) throws(Failure) -> Double {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if s.hasPrefix("-"), s.count <= 32, (try? seconds(String(s.dropFirst()))) != nil {
            throw Failure(text: text, isNegative: true)
        }
        guard !s.isEmpty, s.count <= 32 else { throw Failure(text: text) }
        if let plain = Double(s) {
            guard plain.isFinite, plain >= 0 else { throw Failure(text: text) }
            return plain
        }
        var total = 0.0
        var number = ""
        var chars = Array(s)
        var i = 0
        var lastUnitRank = Int.max
        while i < chars.count {
            let c = chars[i]
            if c.isNumber || c == "." {
                number.append(c)
                i += 1
                continue
            }
            guard let value = Double(number), value.isFinite else { throw Failure(text: text) }
            let unit: Double, rank: Int
            if c == "m", i + 1 < chars.count, chars[i + 1] == "s" {
                (unit, rank) = (0.001, 0)
                i += 2
            } else {
                switch c {
                case "h": (unit, rank) = (3600, 3)
                case "m": (unit, rank) = (60, 2)
                case "s": (unit, rank) = (1, 1)
                default: throw Failure(text: text)
                }
                i += 1
            }
            // Units must go from large to small, each once: "1h30m", not "30m1h".
            guard rank < lastUnitRank else { throw Failure(text: text) }
            lastUnitRank = rank
            total += value * unit
            number = ""
        }
        guard number.isEmpty else { throw Failure(text: text) }
        chars.removeAll()
        return total
    }
}
