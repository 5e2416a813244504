import CivilDates
import Foundation

/// The Import Review: what a package holds and which designs to import. Pure (no I/O, no clock
/// of its own), so the free-tier rules can be tested with fixed dates.
public struct ImportReview: Sendable {
    public struct Item: Sendable, Hashable {
        /// 1-based, as shown to the user.
        public var number: Int
        public var name: String
        public var template: LayoutTemplateToken
        public var updatedAt: Date
        public var referencesEmbeddedImage: Bool
        /// The library already holds this design (issue 41: an export of the Library imported
        /// into it made "Night Board (Copy)" and took the last free slot): shown, not chosen by default.
        public var isInLibrary = false
    }

    public enum Selection: Sendable, Equatable {
        case all, none
        case numbers([Int])
    }

    public var fileName: String
    public var items: [Item]
    public var isPro: Bool
    /// Designs already in the library.
    public var existingCount: Int
    public var maxFreeDesigns: Int

    /// - Parameter library: the designs already in the library; a package design with one's ID (an
    ///   export of this library), or with its name and content (ID and `updatedAt` aside), is marked
    ///   `isInLibrary`.
    public init(
        package: ExchangePackage, isPro: Bool, existingCount: Int, maxFreeDesigns: Int = DesignLibrary.maxFreeDesigns,
        library: [WidgetSpec] = []
    ) {
        self.fileName = package.fileName
        let ids = Set(library.map(\.id))
        self.items = package.specs.enumerated().map { i, s in
            var item = Item(
                number: i + 1, name: s.name, template: s.layout.template, updatedAt: s.updatedAt,
                referencesEmbeddedImage: package.referencesEmbeddedImage(i))
            item.isInLibrary = ids.contains(s.id) || library.contains { Self.sameDesign($0, s) }
            return item
        }
        self.isPro = isPro
        self.existingCount = existingCount
        self.maxFreeDesigns = maxFreeDesigns
    }

    public init(
        fileName: String, items: [Item], isPro: Bool, existingCount: Int,
        maxFreeDesigns: Int = DesignLibrary.maxFreeDesigns
    ) {
        self.fileName = fileName
        self.items = items
        self.isPro = isPro
        self.existingCount = existingCount
        self.maxFreeDesigns = maxFreeDesigns
    }

    /// Whether two designs differ only in ID and `updatedAt`.
    static func sameDesign(_ a: WidgetSpec, _ b: WidgetSpec) -> Bool {
        var b = b
        b.id = a.id
        b.updatedAt = a.updatedAt
        return a == b
    }

    /// Free slots left; nil with Pro (unlimited).
    public var slotsLeft: Int? { isPro ? nil : max(0, maxFreeDesigns - existingCount) }

    /// Everything with Pro; on the free tier the newest designs up to the free slots left
    /// (ties keep file order); designs already in the library are left out. Returned in file order.
    public var defaultSelection: [Int] {
        let new = items.filter { !$0.isInLibrary }
        guard let left = slotsLeft else { return new.map(\.number) }
        let newest = new.sorted { a, b in a.updatedAt != b.updatedAt ? a.updatedAt > b.updatedAt : a.number < b.number
        }
        return newest.prefix(left).map(\.number).sorted()
    }

    /// The forms `parseSelection` accepts, for messages.
    public var acceptedSelectionForms: String {
        """
        numbers 1…\(items.count) and closed ranges, comma- or space-separated (1,3 or 2-4 or 1 3-5), 'all' (or \
        'select all'), 'none' (or 'select none')
        """
    }

    /// Parses what a user typed or passed: "all", "select all", "none", "select none", or
    /// numbers and closed ranges ("1,3", "2-4"). An empty answer means the default selection.
    /// Anything else (a lone letter, an open range like "1-") is refused with the accepted forms.
    public func parseSelection(_ text: String) throws -> [Int] {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        switch t {
        case "": return defaultSelection
        case "all", "select all": return items.map(\.number)
        case "none", "select none": return []
        default: break
        }
        var out: [Int] = []
        for part in t.split(whereSeparator: { $0 == "," || $0 == " " }) where !part.isEmpty {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = bounds.map { b in b.allSatisfy(\.isASCII) ? Int(b) : nil }
            if numbers.count == 1, let n = numbers[0] {
                out.append(n)
            } else if numbers.count == 2, let a = numbers[0], let b = numbers[1] {
                guard a <= b else {
                    throw DesignError(
                        """
                        '\(part)' runs backwards; write the range low-high (\(b)-\(a)). Accepted: \
                        \(acceptedSelectionForms)
                        """
                    )
                }
                guard b - a < 100_000 else {
                    throw DesignError("'\(part)' is larger than the file; choose from 1…\(items.count)")
                }
                out.append(contentsOf: a...b)
            } else {
                let what =
                    numbers.count == 2 && (bounds[0].isEmpty || bounds[1].isEmpty)
                    ? "an open range" : "not a design number or range"
                throw DesignError("'\(part)' is \(what). Accepted: \(acceptedSelectionForms)")
            }
        }
        return try resolve(.numbers(out))
    }

    /// Checks a selection against the review: numbers in range, and within the free slots.
    public func resolve(_ selection: Selection) throws -> [Int] {
        let chosen: [Int]
        switch selection {
        case .all: chosen = items.map(\.number)
        case .none: chosen = []
        case .numbers(let n): chosen = Array(Set(n)).sorted()
        }
        if let bad = chosen.first(where: { !(1...max(1, items.count)).contains($0) || items.isEmpty }) {
            throw DesignError("there is no design \(bad) in \(fileName); choose from 1…\(items.count)")
        }
        if let left = slotsLeft, chosen.count > left {
            throw DesignError(
                """
                \(chosen.count) designs selected but the free tier has \(left) slot\(left == 1 ? "" : "s") left \
                (\(existingCount) of \(maxFreeDesigns) used). Select at most \(left), or unlock Pro \
                for unlimited designs: 'weaver pro unlock'.
                """)
        }
        return chosen
    }

    /// The review as shown before importing. Dates are UTC so the text does not depend on the
    /// machine's time zone.
    public func render(selected: [Int]? = nil) -> String {
        let sel = Set(selected ?? defaultSelection)
        var out = "Import Review: \(fileName)\n"
        out += "  #   SEL  NAME                              TEMPLATE        UPDATED (UTC)     IMAGE\n"
        for i in items {
            let num = String(i.number)
            let name = i.name.replacingOccurrences(of: "\n", with: " ")
            let shownName = name.count > 32 ? String(name.prefix(31)) + "…" : name
            out +=
                "  \(num.padding(toLength: 3, withPad: " ", startingAt: 0)) \(sel.contains(i.number) ? "[x]" : "[ ]")  "
            out += shownName.padding(toLength: 32, withPad: " ", startingAt: 0) + "  "
            out += i.template.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) + "  "
            out += String(ISODate.format(i.updatedAt).prefix(16)).replacingOccurrences(of: "T", with: " ") + "  "
            out += i.referencesEmbeddedImage ? "embedded image" : "-"
            out += i.isInLibrary ? "  (already in your Library)\n" : "\n"
        }
        if let left = slotsLeft {
            out +=
                """
                Free tier: \(left) of \(maxFreeDesigns) slots left. Unlock Pro for unlimited designs: 'weaver pro \
                unlock'.\n
                """
        }
        return out
    }

    public static func summary(imported: Int, skipped: Int) -> String {
        "Imported \(imported) design\(imported == 1 ? "" : "s"). Skipped \(skipped) (not selected)."
    }
}
