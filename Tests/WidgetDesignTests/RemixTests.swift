import Foundation
import NoiseDSP
import TestSupport
import Testing

@testable import WidgetDesign

@Suite struct RemixTests {
    @Test func sameSeedGivesSameVariantsAndDifferentSeedsDiffer() {
        let s = makeSpec("R")
        let a = Remixer.variants(of: s, seed: 42, count: 12)
        let b = Remixer.variants(of: s, seed: 42, count: 12)
        let c = Remixer.variants(of: s, seed: 43, count: 12)
        #expect(a.count == 12)
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a.map { [$0.layout.hashValue, $0.style.hashValue] }).count == 12)
        #expect(!a.contains { $0.layout == s.layout && $0.style == s.style })
    }

    /// A shorter list is the start of a longer one (Explore shows 4 of `weaver remix`'s 12), and a
    /// saved variant is a new design named after the original with only its look taken.
    @Test func listsArePrefixStableAndASavedVariantIsANewDesign() {
        let s = makeSpec("Original")
        #expect(
            Remixer.variants(of: s, seed: 7, count: 4) == Array(Remixer.variants(of: s, seed: 7, count: 12).prefix(4)))
        let v = Remixer.variants(of: s, seed: 7, count: 3)[2]
        let now = Date(timeIntervalSince1970: 1_800_000_000.6)
        let saved = Remixer.saved(v, number: 3, of: s, now: now)
        #expect(saved.id != s.id && saved.id != v.id)
        #expect(saved.name == "Original (Remix 3)")
        #expect(saved.updatedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(saved.layout == v.layout && saved.style == v.style && saved.primaryText == s.primaryText)
    }

    @Test func splitMixMatchesReferenceSequence() {
        // First outputs of SplitMix64 seeded with 0 (published test vector).
        var g = SplitMix64(seed: 0)
        #expect(g.next() == 0xE220_A839_7B1D_CDAF)
        #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func onlyLayoutAndStyleChange() {
        var s = makeSpec("Keep", image: "p.png")
        s.actionBar = ActionBarSpec(actions: [ActionSpec(title: "t", kind: .incrementVariable, variableKey: "k")])
        for v in Remixer.variants(of: s, seed: 7, count: 50) {
            var restored = v
            restored.layout = s.layout
            restored.style = s.style
            #expect(restored == s)
        }
    }

    @Test func templatesStayInTheirAllowedSet() {
        for t in [LayoutTemplateToken.weather, .nextUpCalendar, .reminders, .clockIcon, .noiseMachine] {
            let s = makeSpec("D", template: t)
            let vs = Remixer.variants(of: s, seed: 1, count: 30)
            #expect(vs.allSatisfy { $0.layout == s.layout }, "\(t) layout must not change")
        }
        let noImage = Remixer.variants(of: makeSpec("C"), seed: 3, count: 100)
        #expect(noImage.allSatisfy { $0.layout.template == .classic || $0.layout.template == .hero })
        #expect(noImage.allSatisfy { !$0.layout.alignment.isTopAnchored })
        let posterNoImage = Remixer.variants(of: makeSpec("P", template: .poster), seed: 3, count: 50)
        #expect(posterNoImage.allSatisfy { $0.layout.template == .poster })
        let withImage = Remixer.variants(of: makeSpec("I", image: "x.png"), seed: 3, count: 100)
        #expect(withImage.contains { $0.layout.template == .poster })
    }
}

@Suite struct RemixOverlayTests {
    /// Issue 16.19: a `plain` overlay at a non-zero opacity is an invisible change; remix never picks it.
    @Test func overlayIsEitherOffOrVisible() {
        let spec = makeSpec("R")
        var visible = 0
        for seed in UInt64(0)..<200 {
            for v in Remixer.variants(of: spec, seed: seed, count: 12) {
                if v.style.backgroundOverlayOpacity > 0 {
                    #expect(v.style.backgroundOverlay != .plain, "seed \(seed)")
                    visible += 1
                } else {
                    #expect(v.style.backgroundOverlay == .plain)
                }
            }
        }
        #expect(visible > 500)
    }
}
