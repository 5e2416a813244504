import BoundedJSON
import CivilDates
import Foundation
import SharedStore
import WidgetDataKeys
import WidgetDesign
import WidgetInputs
import WidgetRender

/// The home screen drawn by the one widget renderer: the Noise Machine widget (the catalogue's
/// `noise-machine` design, id `noise-machine`), then the library's designs, default first.
public final class RenderedBoard: WidgetBoard, @unchecked Sendable {
    public static let noiseMachineID = "noise-machine"

    public typealias Perform = @Sendable (ActionArea, StoreRoot) throws -> TapOutcome

    let root: StoreRoot
    let perform: Perform
    let appearance: Appearance
    /// The renderer owns a Pango context: one request draws at a time.
    private let lock = NSLock()
    private var renderer: WidgetRenderer?
    /// The Editor's dock: the store's inputs read once per redraw of its six pictures.
    let draftInputs = DraftInputs()

    public init(root: StoreRoot, appearance: Appearance = .dark, perform: @escaping Perform) {
        self.root = root
        self.appearance = appearance
        self.perform = perform
    }

    struct Entry {
        var id: String
        var spec: WidgetSpec
    }

    /// Noise first, then the default design, then the rest in library order (newest first).
    func entries(now: Date) throws -> [Entry] {
        var list: [Entry] = []
        if let noise = try TemplateCatalogue.find("noise-machine")?.design(now: now) {
            list.append(Entry(id: Self.noiseMachineID, spec: noise))
        }
        let library = DesignLibrary(root: root)
        let defaultID = try? library.defaultID()
        var designs = try library.summaries()
        if let d = defaultID, let i = designs.firstIndex(where: { $0.id == d }) {
            designs.insert(designs.remove(at: i), at: 0)
        }
        for summary in designs {
            guard let spec = try? library.load(summary.id) else { continue }
            list.append(Entry(id: summary.id.uuidString, spec: spec))
        }
        return list
    }

    func entry(_ id: String, now: Date) throws -> Entry {
        if id == Self.noiseMachineID, let noise = try TemplateCatalogue.find("noise-machine")?.design(now: now) {
            return Entry(id: id, spec: noise)
        }
        guard let uuid = UUID(uuidString: id) else { throw NotFound("no design '\(id)'") }
        do {
            return Entry(id: id, spec: try DesignLibrary(root: root).load(uuid))
        } catch {
            throw NotFound("no design '\(id)'")
        }
    }

    func family(_ name: String) throws -> WidgetFamily {
        guard let f = WidgetFamily.parse(name) else {
            throw NotFound(
                "no widget family '\(name)'; allowed \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return f
    }

    /// Lays out with inputs read from the store now (status, variables, snapshots, images).
    func withLayout<T>(
        _ entry: Entry, _ family: WidgetFamily, scale: Int, now: Date,
        _ body: (WidgetRenderer, WidgetLayout, RenderInputs) throws -> T
    ) throws -> T {
        var inputs = RenderInputs.gather(
            for: entry.spec, root: root, now: now, timeZone: .current,
            locale: Locale.current, appearance: appearance)
        // The server's watcher wakes at each tile's `redrawAt`: seconds can be shown.
        inputs.redrawsEachSecond = true
        return try lock.withLock {
            let r = renderer ?? WidgetRenderer()
            renderer = r
            let layout = r.layout(design: entry.spec, family: family, scale: scale, inputs: inputs)
            return try body(r, layout, inputs)
        }
    }

    public func tiles(now: Date) throws -> [WidgetTile] {
        var tiles: [WidgetTile] = []
        let families = (WidgetTile.homeFamilies + WidgetTile.lockScreenFamilies).compactMap(WidgetFamily.parse)
        for entry in try entries(now: now) {
            for family in families {
                let tile = try withLayout(entry, family, scale: 1, now: now) { r, layout, _ in
                    let json = r.json(layout)
                    let label = layout.textLines.map { $0.replacingOccurrences(of: "\n", with: " ") }
                        .filter { !$0.isEmpty }.joined(separator: ", ")
                    return WidgetTile(
                        designID: entry.id, designName: entry.spec.name, family: family.rawValue,
                        widthPt: layout.width, heightPt: layout.height,
                        label: label.isEmpty ? entry.spec.name : label,
                        buttons: layout.actions.map { a in
                            WidgetTile.Button(
                                kind: a.kind.rawValue, id: a.id, label: Self.label(a), x: a.rect.x, y: a.rect.y,
                                width: a.rect.width, height: a.rect.height, layer: a.layer)
                        },
                        version: Self.version(
                            json + "|" + (entry.id == Self.noiseMachineID ? "" : Self.imageStamp(entry.spec))),
                        redrawAt: layout.redrawAt)
                }
                tiles.append(tile)
            }
        }
        return tiles
    }

    public func picture(designID: String, family: String, scale: Int, format: PictureFormat, now: Date) throws
        -> [UInt8]
    {
        let entry = try entry(designID, now: now)
        return try withLayout(entry, try self.family(family), scale: scale, now: now) { r, layout, inputs in
            try r.render(layout, format: format == .svg ? .svg : .png, images: inputs.images)
        }
    }

    public func tap(designID: String, family: String, x: Double, y: Double, now: Date) throws -> String {
        try tapResult(designID: designID, family: family, x: x, y: y, now: now).message
    }

    /// `tap`, and the link to open when the button is an `openURL` one: the page's browser opens
    /// it (the server starts nothing for a link), after `OpenURLPolicy` accepted it here.
    public func tapResult(designID: String, family: String, x: Double, y: Double, now: Date) throws -> TapOutcome {
        let entry = try entry(designID, now: now)
        let action: ActionArea = try withLayout(entry, try self.family(family), scale: 1, now: now) { _, layout, _ in
            let point = Point(x: x, y: y)
            if let hit = layout.action(at: point) { return hit }
            guard let near = layout.nearestAction(to: point) else {
                throw NothingToTap("\(entry.spec.name) (\(family)) has no buttons")
            }
            throw NothingToTap(
                """
                nothing to tap at \(Self.number(x)),\(Self.number(y)); the nearest button is \
                '\(Self.label(near.action))'\u{20}
                """
                    + """
                    (\(near.action.kind.rawValue)) at \
                    \(Self.number(near.action.rect.midX)),\(Self.number(near.action.rect.midY)),\u{20}
                    """
                    + "\(Self.number(near.distance)) pt away")
        }
        if case .openURL(let url) = action.action {
            do {
                let link = try OpenURLPolicy.check(url)
                return TapOutcome(message: "Opening \(link)", open: link)
            } catch let e as DesignError {
                throw NothingToTap("the '\(Self.label(action))' button's link was not opened: \(e.message)")
            }
        }
        return try perform(action, root)
    }

    public func designsJSON() throws -> [UInt8] {
        let library = DesignLibrary(root: root)
        let defaultID = try? library.defaultID()
        let list: [JSONValue] = try library.summaries().map { s in
            .object([
                "id": .string(s.id.uuidString),
                "name": .string(s.name),
                "template": .string(s.template.rawValue),
                "updatedAt": .string(ISODate.format(s.updatedAt)),
                "isDefault": .bool(s.id == defaultID),
            ])
        }
        return Array(JSONValue.array(list).prettyPrinted())
    }

    static func label(_ a: ActionArea) -> String {
        if let t = a.title, !t.isEmpty { return t }
        switch a.action {
        case .togglePlayPause: return "Play or pause"
        case .stop: return "Stop"
        case .toggleLayer(let layer): return "Layer \(layer) on or off"
        case .toggleResumeOnLaunch: return "Resume at login"
        case .incrementVariable(let key, let amount): return "Add \(amount == 0 ? 1 : amount) to \(key)"
        case .setVariableToNow(let key, _): return "Set \(key) to now"
        case .resetVariable(let key, let value): return "Reset \(key) to \(value)"
        case .openURL(let url): return "Open \(url)"
        case .completeReminder: return "Complete the reminder"
        case .playPreset(let id): return "Play \(id)"
        case .adjustTimer(let minutes): return "Timer \(minutes > 0 ? "+" : "−")\(abs(minutes)) min"
        }
    }

    /// Design images can change under the same file name: their sizes and dates join the key.
    static func imageStamp(_ spec: WidgetSpec) -> String {
        "\(spec.updatedAt.timeIntervalSince1970)"
    }

    /// FNV-1a, 64 bits: a cache key, not a security measure.
    static func version(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }
}
