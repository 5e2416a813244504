import WidgetDesign

/// What a saved design will not draw as written, said when it is saved (`weaver designs set`)
/// rather than only at render or tap time: symbol names the symbol map does not know (drawn as a
/// question mark) and parts that show only with Pro. The design is saved all the same.
public enum DesignWarnings {
    public static func atSave(_ spec: WidgetSpec, isPro: Bool) -> [String] {
        var out: [String] = []
        func symbol(_ name: String?, _ field: String) {
            guard let name, !name.isEmpty, SymbolMap.glyph(name).isFallback else { return }
            out.append(
                """
                \(field): unknown symbol '\(name)'; it will be drawn as a question mark (see docs/rendering.md for \
                the symbol map)
                """
            )
        }
        symbol(spec.symbol?.name, "symbol.name")
        for (i, a) in (spec.actionBar?.actions ?? []).enumerated() {
            symbol(a.systemImage, "action.\(i + 1) (actionBar.actions[\(i)].systemImage)")
        }
        for (family, variant) in [
            ("small", spec.matchedSet?.small), ("medium", spec.matchedSet?.medium), ("large", spec.matchedSet?.large),
        ] {
            symbol(variant?.symbol?.name, "matchedSet.\(family).symbol.name")
        }
        guard !isPro else { return out }
        if let actions = spec.actionBar?.actions, !actions.isEmpty {
            let titles = actions.map { "'\(TemplateContext.actionTitle($0))'" }.joined(separator: ", ")
            out.append(
                """
                actionBar: its buttons (\(titles)) show only with Pro, so widgets draw no action bar; \
                \(ProOnlyButtons.unlockRemedy)
                """
            )
        }
        if let set = spec.matchedSet, !set.isEmpty {
            out.append(
                """
                matchedSet: per-size variants show only with Pro, so every size draws the base design; \
                \(ProOnlyButtons.unlockRemedy)
                """
            )
        }
        return out
    }
}
