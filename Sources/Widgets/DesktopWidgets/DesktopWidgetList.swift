import BoundedJSON
import Foundation
import SharedStore
import WidgetRender

/// The widgets on the desktop, kept in one store file (`desktop.json`) that `weaver desktop add/
/// remove/move` write and the host watches. A file that cannot be read is set aside whole (never
/// overwritten), with the field and the allowed values named.
public struct DesktopWidgetList: Sendable, Equatable {
    public var widgets: [PinnedWidget]

    public static let fileName = "desktop.json"
    /// More windows than anyone keeps on a desktop; bounds the host's work and memory.
    public static let maxWidgets = 32
    static let sizeLimitBytes = 64 << 10
    static let maxNesting = 6

    public init(widgets: [PinnedWidget] = []) { self.widgets = widgets }

    public static func url(_ root: StoreRoot) -> URL { root.url.appendingPathComponent(fileName) }

    static func document(_ root: StoreRoot) -> JSONDocument<DesktopWidgetList> {
        JSONDocument(root: root, url: url(root), sizeLimit: sizeLimitBytes)
    }

    static func decode(_ data: Data) throws -> DesktopWidgetList {
        // Depth is checked before the decoder sees the bytes: deep nesting is refused, not recursed into.
        guard JSONValue.nestingDepth(of: data, stopAbove: maxNesting) <= maxNesting else {
            throw DesktopListError("nested deeper than \(maxNesting) levels")
        }
        return try JSONDocument<DesktopWidgetList>.decoder().decode(DesktopWidgetList.self, from: data)
    }

    /// The list as stored; missing is empty. `warn` hears of a file that had to be set aside.
    public static func load(_ root: StoreRoot, warn: (String) -> Void = { _ in }) throws -> DesktopWidgetList {
        switch try document(root).load(decode: decode) {
        case .missing: return DesktopWidgetList()
        case .loaded(let list): return list
        case .setAside(let reason, let at):
            warn("\(url(root).path): \(reason); moved to \(at.path), starting with no desktop widgets")
            return DesktopWidgetList()
        }
    }

    /// Read-modify-write under the file's lock.
    @discardableResult
    public static func update(
        _ root: StoreRoot, warn: (String) -> Void = { _ in },
        _ body: (inout DesktopWidgetList) throws -> Void
    ) throws -> DesktopWidgetList {
        try root.ensureExists()
        return try document(root).update(
            { current in
                var list = current ?? DesktopWidgetList()
                try body(&list)
                return list
            },
            onSetAside: { reason, at in
                warn("\(url(root).path): \(reason); moved to \(at.path), starting a new list")
            })
    }

    /// The number the next added widget gets.
    public var nextID: Int { (widgets.map(\.id).max() ?? 0) + 1 }

    public func widget(_ id: Int) -> PinnedWidget? { widgets.first { $0.id == id } }
}

public struct DesktopListError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension DesktopWidgetList: Codable {
    enum Keys: String, CodingKey { case version, widgets }
    enum WidgetKeys: String, CodingKey { case id, design, family, at, anchor, margin, monitor }

    public static let version = 1

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let version = try c.decode(Int.self, forKey: .version)
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: c,
                debugDescription: "version \(version) is not one this weaver reads (allowed: \(Self.version))")
        }
        var items = try c.nestedUnkeyedContainer(forKey: .widgets)
        if let n = items.count, n > Self.maxWidgets {
            throw DecodingError.dataCorruptedError(
                forKey: .widgets, in: c, debugDescription: "\(n) widgets; at most \(Self.maxWidgets)")
        }
        var widgets: [PinnedWidget] = []
        while !items.isAtEnd {
            let w = try items.nestedContainer(keyedBy: WidgetKeys.self)
            let id = try w.decode(Int.self, forKey: .id)
            guard (1...9_999).contains(id), !widgets.contains(where: { $0.id == id }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .id, in: w, debugDescription: "\(id) must be 1…9999 and unique")
            }
            let design = try w.decode(String.self, forKey: .design)
            guard design == PinnedWidget.noiseMachineDesign || UUID(uuidString: design) != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .design, in: w,
                    debugDescription:
                        "'\(design.prefix(60))' must be a design's UUID or '\(PinnedWidget.noiseMachineDesign)'")
            }
            let familyName = try w.decode(String.self, forKey: .family)
            guard let family = WidgetFamily.parse(familyName) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .family, in: w,
                    debugDescription:
                        """
                        '\(familyName.prefix(40))' must be one of \
                        \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))
                        """
                )
            }
            let placement: Placement
            if let at = try w.decodeIfPresent([Int].self, forKey: .at) {
                guard at.count == 2, at.allSatisfy(Placement.coordinateRange.contains) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .at, in: w,
                        debugDescription: "must be [x, y] with each 0…\(Placement.coordinateRange.upperBound)")
                }
                placement = .at(x: at[0], y: at[1])
            } else {
                let name = try w.decode(String.self, forKey: .anchor)
                guard let anchor = Anchor(rawValue: name) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .anchor, in: w, debugDescription: "'\(name.prefix(40))' must be one of \(Anchor.names)")
                }
                let margin = try w.decodeIfPresent(Int.self, forKey: .margin) ?? 0
                guard Placement.marginRange.contains(margin) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .margin, in: w,
                        debugDescription:
                            """
                            \(margin) is out of range; allowed \
                            \(Placement.marginRange.lowerBound)…\(Placement.marginRange.upperBound)
                            """
                    )
                }
                placement = .anchor(anchor, marginPoints: margin)
            }
            let monitor: MonitorChoice
            if let n = try? w.decode(Int.self, forKey: .monitor) {
                guard let m = MonitorChoice.parse(String(n)) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .monitor, in: w,
                        debugDescription:
                            """
                            \(n) is out of range; allowed \
                            \(MonitorChoice.indexRange.lowerBound)…\(MonitorChoice.indexRange.upperBound) or \"all\"
                            """
                    )
                }
                monitor = m
            } else {
                let s = try w.decode(String.self, forKey: .monitor)
                guard s == "all" else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .monitor, in: w,
                        debugDescription:
                            """
                            '\(s.prefix(40))' must be a monitor number \
                            \(MonitorChoice.indexRange.lowerBound)…\(MonitorChoice.indexRange.upperBound) or \"all\"
                            """
                    )
                }
                monitor = .all
            }
            widgets.append(PinnedWidget(id: id, design: design, family: family, placement: placement, monitor: monitor))
        }
        self.widgets = widgets
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(Self.version, forKey: .version)
        var items = c.nestedUnkeyedContainer(forKey: .widgets)
        for widget in widgets {
            var w = items.nestedContainer(keyedBy: WidgetKeys.self)
            try w.encode(widget.id, forKey: .id)
            try w.encode(widget.design, forKey: .design)
            try w.encode(widget.family.rawValue, forKey: .family)
            switch widget.placement {
            case .at(let x, let y): try w.encode([x, y], forKey: .at)
            case .anchor(let a, let m):
                try w.encode(a.rawValue, forKey: .anchor)
                try w.encode(m, forKey: .margin)
            }
            switch widget.monitor {
            case .index(let n): try w.encode(n, forKey: .monitor)
            case .all: try w.encode("all", forKey: .monitor)
            }
        }
    }
}
