import Foundation
import SharedStore
import WidgetDesign
import WidgetRender

/// One widget put on the desktop with `weaver desktop add`: which design, which size, where and
/// on which monitor. The list of them is `DesktopWidgetList` (the store's desktop.json).
public struct PinnedWidget: Sendable, Equatable {
    /// What `weaver desktop remove/move` call it: a small number, never reused while the list has a larger one.
    public var id: Int
    /// A design's UUID, or `noiseMachineDesign` for the Noise Machine widget.
    public var design: String
    public var family: WidgetFamily
    public var placement: Placement
    public var monitor: MonitorChoice

    /// The `design` value that names the Noise Machine widget (the catalogue template's id).
    public static let noiseMachineDesign = "noise-machine"

    public init(id: Int, design: String, family: WidgetFamily, placement: Placement, monitor: MonitorChoice) {
        self.id = id
        self.design = design
        self.family = family
        self.placement = placement
        self.monitor = monitor
    }

    public var isNoiseMachine: Bool { design == Self.noiseMachineDesign }

    /// The design this widget shows, as the store holds it now (every desktop host draws this).
    public func loadDesign(root: StoreRoot, now: Date, warn: @escaping DesignLibrary.Warn) throws -> WidgetSpec {
        if isNoiseMachine { return try TemplateCatalogue.find(Self.noiseMachineDesign)!.design(now: now) }
        return try DesignLibrary(root: root, warn: warn).load(UUID(uuidString: design)!)
    }
}

/// Where a widget sits on its monitor, in points (GDK's logical pixels: a 2× monitor's 24-point
/// margin is 48 device pixels).
public enum Placement: Sendable, Equatable, CustomStringConvertible {
    /// The widget's top-left corner at X,Y from the monitor's top-left corner.
    case at(x: Int, y: Int)
    /// Held to a corner (or the centre) with this margin from the monitor's edges.
    case anchor(Anchor, marginPoints: Int)

    public static let coordinateRange = 0...16_384
    public static let marginRange = 0...1_000

    public var description: String {
        switch self {
        case .at(let x, let y): "at \(x),\(y)"
        case .anchor(let a, let m): "\(a.rawValue) +\(m)"
        }
    }

    /// The widget's top-left corner on a monitor of `monitorSize` (points, from the monitor's
    /// corner), for a widget of `widgetSize`; kept on the monitor when it would stick out.
    public func origin(widgetSize: (width: Int, height: Int), monitorSize: (width: Int, height: Int)) -> (
        x: Int, y: Int
    ) {
        let maxX = max(0, monitorSize.width - widgetSize.width), maxY = max(0, monitorSize.height - widgetSize.height)
        switch self {
        case .at(let x, let y):
            return (min(x, maxX), min(y, maxY))
        case .anchor(let anchor, let m):
            let x: Int, y: Int
            switch anchor {
            case .topLeft, .bottomLeft: x = m
            case .topRight, .bottomRight: x = maxX - m
            case .center: x = maxX / 2
            }
            switch anchor {
            case .topLeft, .topRight: y = m
            case .bottomLeft, .bottomRight: y = maxY - m
            case .center: y = maxY / 2
            }
            return (min(max(0, x), maxX), min(max(0, y), maxY))
        }
    }

    /// Parses `--at X,Y`.
    public static func parsePoint(_ text: String) -> (x: Int, y: Int)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let x = parts[0], let y = parts[1], coordinateRange.contains(x),
            coordinateRange.contains(y)
        else { return nil }
        return (x, y)
    }
}

public enum Anchor: String, CaseIterable, Sendable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    case center

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Which monitor (GDK's numbering, 0 first) or every monitor (a window on each).
public enum MonitorChoice: Sendable, Equatable, CustomStringConvertible {
    case index(Int)
    case all

    public static let indexRange = 0...15

    public var description: String {
        switch self {
        case .index(let n): "monitor \(n)"
        case .all: "every monitor"
        }
    }

    public static func parse(_ text: String) -> MonitorChoice? {
        if text.lowercased() == "all" { return .all }
        guard let n = Int(text), indexRange.contains(n) else { return nil }
        return .index(n)
    }

    /// The monitors to show a widget on, given how many there are; a missing monitor falls back
    /// to the first, so a widget pinned to a laptop's second screen is not lost when it is unplugged.
    public func monitors(count: Int) -> [Int] {
        guard count > 0 else { return [] }
        switch self {
        case .all: return Array(0..<count)
        case .index(let n): return [n < count ? n : 0]
        }
    }
}
