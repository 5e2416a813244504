import Foundation
import WidgetDesign

/// Explore's seeded remix row: the variants `weaver remix DESIGN --seed S` makes of a template's
/// starter, with a seed fixed per template so the row is the same on every visit and a person
/// can make the same variants on the command line (the page shows the seed).
enum ExploreRemixes {
    /// Variants shown per template (the first `count` of `weaver remix`'s list for the seed: the
    /// list is a prefix-stable sequence, so `--count 12` starts with the same ones).
    static let count = 4

    /// The template's seed: FNV-1a (64-bit) of its ID, so it stays fixed across runs and builds
    /// (Swift's `hashValue` is randomised per process).
    static func seed(for template: CatalogueTemplate) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in template.id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Variant `number` (1…`Remixer.maxCount`) of the template's starter for `seed`, and the
    /// starter it came from.
    static func variant(of template: CatalogueTemplate, seed: UInt64, number: Int, now: Date) throws
        -> (original: WidgetSpec, variant: WidgetSpec)
    {
        guard (1...Remixer.maxCount).contains(number) else {
            throw DesignError("'variant' must be in 1…\(Remixer.maxCount); got \(number)")
        }
        let original = try template.design(now: now)
        return (original, Remixer.variants(of: original, seed: seed, count: number)[number - 1])
    }

    /// A seed as JSON and URLs carry it: a decimal string (a JSON number loses digits past 2^53).
    static func parseSeed(_ text: String?) -> UInt64? { text.flatMap { UInt64($0) } }
}
