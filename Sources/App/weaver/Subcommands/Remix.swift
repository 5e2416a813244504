import ArgumentParser
import BoundedJSON
import CLISupport
import Foundation
import WidgetDesign

extension Weaver {
    struct Remix: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remix",
            abstract: "Make deterministic variants of a design (layout and style only).",
            usage: "weaver remix <design> [--seed <seed>] [--count <count>] [<options>]",
            discussion: "The same --seed gives the same variants. Without --seed a random seed is used and printed."
        )
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name.") var design: String
        @Option(numeric: "Seed for the variants (0…2^64-1).") var seed: UInt64?
        @Option(numeric: "How many variants (1…\(Remixer.maxCount)).") var count = 12
        @Flag(help: "Print the variants as JSON specs.") var json = false
        @Option(numeric: "Save variant K (1-based) as a new design.") var save: Int?

        func validate() throws {
            guard (1...Remixer.maxCount).contains(count) else {
                throw ValidationError("'--count' must be in 1…\(Remixer.maxCount)")
            }
            if let save, !(1...count).contains(save) {
                throw ValidationError("'--save' must be in 1…\(count) (the '--count')")
            }
        }

        func run() throws {
            let lib = store.library
            let original = try lib.load(lib.resolve(design).id)
            if save != nil && seed == nil {
                throw ValidationError("'--save' needs '--seed': give the seed printed with the list you picked from")
            }
            let usedSeed = seed ?? UInt64.random(in: 0...UInt64.max)
            let variants = Remixer.variants(of: original, seed: usedSeed, count: count)
            if let save {
                let spec = Remixer.saved(variants[save - 1], number: save, of: original, now: Date())
                try lib.add([spec])
                print(
                    """
                    Saved remix \(save) (seed \(usedSeed)) of \(original.name) as \(spec.name) \
                    (\(spec.id.uuidString)).
                    """
                )
                return
            }
            if json {
                printJSON(
                    .object([
                        "seed": .string(String(usedSeed)), "design": .string(original.id.uuidString),
                        "variants": .array(variants.map(\.jsonValue)),
                    ]))
                return
            }
            print("Remixes of \(original.name) (seed \(usedSeed)):")
            for (i, v) in variants.enumerated() {
                let l = v.layout, s = v.style
                var parts = ["\(l.template.rawValue)", "accent \(s.accent.rawValue)", "bg \(s.background.rawValue)"]
                if s.backgroundOverlayOpacity > 0 {
                    parts.append(
                        "overlay \(s.backgroundOverlay.rawValue) \(JSONValue.formatted(s.backgroundOverlayOpacity))")
                }
                if s.backgroundGlowEnabled { parts.append("glow") }
                parts.append("pad \(JSONValue.formatted(s.paddingPoints))")
                parts.append("radius \(JSONValue.formatted(s.cornerRadiusPoints))")
                if v.layout != original.layout {
                    parts.append(
                        "\(l.axis.rawValue) \(l.alignment.rawValue) spacing \(JSONValue.formatted(l.spacingPoints))")
                    parts.append("accent bar \(l.showsAccentBar ? "on" : "off")")
                    if l.template == .poster { parts.append("overlay \(l.posterOverlayMode.rawValue)") }
                    parts.append(
                        """
                        text \
                        \(s.nameTextStyle.rawValue)/\(s.primaryTextStyle.rawValue)/\(s.secondaryTextStyle.rawValue)
                        """
                    )
                }
                print(
                    "  \(String(i + 1).padding(toLength: 3, withPad: " ", startingAt: 0)) "
                        + parts.joined(separator: ", "))
            }
            print(
                "Save one with 'weaver remix \(original.id.uuidString) --seed \(usedSeed) --count \(count) --save K'.")
        }
    }
}
