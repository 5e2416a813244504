import Foundation
import NoiseDSP

/// Deterministic design variants: only layout and style tokens change, never the name, texts,
/// symbol, image or action bar, and each template stays within the set it allows.
///
/// Unlike the seed app's remix this one is seeded (the same seed gives the same variants), does
/// not turn data-driven designs (weather, calendar, reminders, clock, noise machine) into other
/// templates, and never makes a poster out of a design without an image.
public enum Remixer {
    public static let maxCount = 100

    /// Templates a variant of `spec` may use.
    public static func allowedTemplates(for spec: WidgetSpec) -> [LayoutTemplateToken] {
        let hasImage = spec.image != nil
        switch spec.layout.template {
        case .classic, .hero: return hasImage ? [.classic, .hero, .poster] : [.classic, .hero]
        case .poster: return hasImage ? [.poster, .classic, .hero] : [.poster]
        case .weather, .nextUpCalendar, .reminders, .clockIcon, .noiseMachine, .month, .countdown, .forecast,
            .presetButton:
            return [spec.layout.template]
        }
    }

    /// `count` variants (1…100), each different from the original and from each other where the
    /// template's choices allow.
    public static func variants(of spec: WidgetSpec, seed: UInt64, count: Int) -> [WidgetSpec] {
        var rng = SplitMix64(seed: seed)
        var seen: Set<Look> = [Look(spec)]
        var out: [WidgetSpec] = []
        out.reserveCapacity(count)
        for _ in 0..<min(max(count, 0), maxCount) {
            var candidate = perturb(spec, &rng)
            var attempts = 1
            while seen.contains(Look(candidate)), attempts < 16 {
                candidate = perturb(spec, &rng)
                attempts += 1
            }
            seen.insert(Look(candidate))
            out.append(candidate)
        }
        return out
    }

    /// Variant `number` (1-based) of `original` made a design of its own, as `weaver remix
    /// --save K` and Explore's "Add" save it: a new ID, "Name (Remix K)", updated `now`; the
    /// original is left as it is.
    public static func saved(_ variant: WidgetSpec, number: Int, of original: WidgetSpec, now: Date) -> WidgetSpec {
        var spec = variant
        spec.id = UUID()
        spec.name = String("\(original.name) (Remix \(number))".prefix(FieldLimits.maxNameCharacters))
        spec.updatedAt = WidgetSpec.wholeSeconds(now)
        return spec
    }

    private struct Look: Hashable {
        let layout: LayoutSpec
        let style: StyleSpec
        init(_ s: WidgetSpec) {
            layout = s.layout
            style = s.style
        }
    }

    static let spacings: [Double] = [4, 6, 8, 10, 12, 14, 16]
    static let paddings: [Double] = [12, 14, 16, 18, 20]
    static let radii: [Double] = [14, 16, 18, 20, 22, 24]
    static let opacities: [Double] = [0, 0.15, 0.25, 0.35]

    static func perturb(_ spec: WidgetSpec, _ rng: inout SplitMix64) -> WidgetSpec {
        var s = spec
        let allowed = allowedTemplates(for: spec)
        let isDataDriven = allowed.count == 1 && allowed[0] != .poster

        // Style: every template.
        s.style.background = rng.pick(Array(BackgroundToken.allCases))
        s.style.accent = rng.pick(Array(AccentToken.allCases))
        s.style.backgroundGlowEnabled = rng.index(below: 2) == 1
        s.style.paddingPoints = rng.pick(paddings)
        s.style.cornerRadiusPoints = rng.pick(radii)
        s.style.backgroundOverlayOpacity = rng.pick(opacities)
        // An overlay is either off (plain at 0) or visible: `plain` at a non-zero opacity would be
        // an invisible change.
        s.style.backgroundOverlay =
            s.style.backgroundOverlayOpacity == 0
            ? .plain
            : rng.pick(BackgroundToken.allCases.filter { $0 != .plain })
        guard !isDataDriven else { return s }

        // Layout and text styles: free-form templates only.
        s.layout.template = rng.pick(allowed)
        s.layout.axis = rng.pick(Array(LayoutAxisToken.allCases))
        let alignments: [LayoutAlignmentToken] =
            s.layout.template == .poster
            ? LayoutAlignmentToken.allCases.map { $0 } : [.leading, .centre, .trailing]
        s.layout.alignment = rng.pick(alignments)
        s.layout.spacingPoints = rng.pick(spacings)
        s.layout.showsAccentBar = rng.index(below: 2) == 1
        if s.layout.template == .poster { s.layout.posterOverlayMode = rng.pick(Array(PosterOverlayMode.allCases)) }
        s.style.nameTextStyle = rng.pick([.caption2, .caption, .footnote])
        s.style.primaryTextStyle = rng.pick([.headline, .title3, .title2, .title])
        s.style.secondaryTextStyle = rng.pick([.caption2, .caption, .footnote])
        if s.layout.template != spec.layout.template, var m = s.matchedSet {
            // Size variants follow the base template so a matched set stays consistent.
            for kp in [\MatchedSet.small, \MatchedSet.medium, \MatchedSet.large] where m[keyPath: kp] != nil {
                m[keyPath: kp]?.layout.template = s.layout.template
            }
            s.matchedSet = m
        }
        return s
    }
}
