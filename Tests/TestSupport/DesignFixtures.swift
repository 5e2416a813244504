import Foundation
import SharedStore
import WidgetDesign

/// The design library of a test's store, and Pro for it (at `fixedNow`).
extension TestStore {
    public var root: StoreRoot { StoreRoot(url: url) }

    public func library() -> DesignLibrary { DesignLibrary(root: root) }

    public func unlockPro() throws { try ProEntitlement.set(true, root: root, now: fixedNow) }

    /// `makeSpec(name)` added to the library: a store with a design to work on.
    public func addSpec(_ name: String) throws -> WidgetSpec {
        let spec = makeSpec(name)
        try library().add([spec])
        return spec
    }
}

/// The clock of the design tests: 2026-01-01T00:00:00Z.
public let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)

/// A design named `name` ("Hello <name>", a sparkles symbol) of `template`, optionally with an image file.
public func makeSpec(
    _ name: String, updated: Date = fixedNow, template: LayoutTemplateToken = .classic, image: String? = nil
) -> WidgetSpec {
    var s = WidgetSpec(
        name: name, primaryText: "Hello \(name)", secondaryText: "second", updatedAt: updated,
        symbol: SymbolSpec(name: "sparkles"))
    s.layout.template = template
    if let image { s.image = ImageSpec(fileName: image) }
    return s
}

/// The names in a folder, sorted, without hidden files (the library's lock and index).
public func files(in url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
}
