import Foundation
import SharedStore
import WidgetDesign
import WidgetInputs
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// What the GNOME Shell extension shows, drawn by the one renderer: for each widget of
/// desktop.json on each monitor it names, a PNG at that monitor's scale and one entry of a line of
/// JSON (place, size, buttons, and the weaver commands a press, a move or a removal runs). The
/// extension decides nothing itself: it shows the entries and runs the commands.
public final class GnomeFeed {
    /// One monitor as the shell reports it: logical size in points and pixels per point.
    public struct Monitor: Sendable, Equatable {
        public var widthPoints: Int
        public var heightPoints: Int
        public var scale: Int

        /// `1280x800@1,1920x1080@2` (the extension's `--monitors`); nil when malformed or out of range.
        public static func parseList(_ text: String) -> [Monitor]? {
            let items = text.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...MonitorChoice.indexRange.upperBound + 1).contains(items.count) else { return nil }
            var monitors: [Monitor] = []
            for item in items {
                let sizeAndScale = item.split(separator: "@", omittingEmptySubsequences: false)
                let size = sizeAndScale[0].split(separator: "x", omittingEmptySubsequences: false)
                guard sizeAndScale.count <= 2, size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
                    (1...Placement.coordinateRange.upperBound).contains(w),
                    (1...Placement.coordinateRange.upperBound).contains(h)
                else { return nil }
                let scale = sizeAndScale.count == 2 ? Int(sizeAndScale[1]) : 1
                guard let scale, WidgetRenderer.scales.contains(scale) else { return nil }
                monitors.append(Monitor(widthPoints: w, heightPoints: h, scale: scale))
            }
            return monitors
        }
    }

    /// A line of the feed.
    public struct Manifest: Codable, Equatable, Sendable {
        public var widgets: [Entry]
        public var problems: [String]
    }

    /// One widget on one monitor. Places and sizes in points; the PNG is `scale` pixels per point.
    public struct Entry: Codable, Equatable, Sendable {
        public var key: String
        public var id: Int
        public var monitor: Int
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var png: String
        /// Changes whenever the PNG's bytes did: the extension loads the file again only then.
        public var serial: Int
        public var actions: [Area]
        /// `weaver tap …` without `--at X,Y` (the extension adds the point pressed).
        public var tap: [String]
        /// `weaver desktop move ID` without `--at X,Y`.
        public var move: [String]
        public var remove: [String]
        public var editor: Editor
    }

    public struct Area: Codable, Equatable, Sendable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    /// The design's editor in `weaver serve`: its address, and the command that serves it.
    public struct Editor: Codable, Equatable, Sendable {
        public var url: String
        public var port: Int
        public var serve: [String]
    }

    public let root: StoreRoot
    public let folder: URL
    public let monitors: [Monitor]
    /// The weaver the commands run, and the store they name (nil: the default store).
    public let weaver: String
    public let storeDirectory: String?
    public let editorPort: Int
    private let renderer = WidgetRenderer()
    private var drawn: [String: (bytes: [UInt8], serial: Int)] = [:]
    private var nextSerial = 1

    public init(
        root: StoreRoot, folder: URL, monitors: [Monitor], weaver: String, storeDirectory: String?,
        editorPort: Int = 8765
    ) {
        self.root = root
        self.folder = folder
        self.monitors = monitors
        self.weaver = weaver
        self.storeDirectory = storeDirectory
        self.editorPort = editorPort
    }

    /// Draws every widget as the store is now, writes the PNGs whose bytes changed (atomically:
    /// the extension never reads a torn file) and deletes those of widgets that are gone.
    /// - Returns: the manifest, and the earliest moment a widget asked to be drawn again.
    public func refresh(now: Date, warn: @escaping DesignLibrary.Warn) throws -> (manifest: Manifest, redrawAt: Date?) {
        let list = try DesktopWidgetList.load(root, warn: warn)
        var entries: [Entry] = []
        var problems: [String] = []
        var redrawAt: Date?
        var designs: [String: Result<WidgetSpec, any Error>] = [:]
        for pinned in list.widgets {
            let design = designs[pinned.design] ?? Result { try pinned.loadDesign(root: root, now: now, warn: warn) }
            designs[pinned.design] = design
            let spec: WidgetSpec
            switch design {
            case .success(let s): spec = s
            case .failure(let error):
                problems.append(
                    """
                    widget \(pinned.id) (design \(pinned.design)): \(error); not shown (remove it with 'weaver \
                    desktop remove \(pinned.id)')
                    """
                )
                continue
            }
            let inputs = RenderInputs.gather(
                for: spec, root: root, now: now, timeZone: .current, locale: .current, appearance: .dark, warn: warn)
            for index in pinned.monitor.monitors(count: monitors.count) {
                let monitor = monitors[index]
                let layout = renderer.layout(design: spec, family: pinned.family, scale: monitor.scale, inputs: inputs)
                if let moment = layout.redrawAt, redrawAt.map({ moment < $0 }) ?? true { redrawAt = moment }
                let key = "\(pinned.id)-\(index)"
                let bytes = try renderer.render(layout, format: .png, images: inputs.images)
                let png = folder.appendingPathComponent("widget-\(key).png")
                let serial: Int
                if let last = drawn[key], last.bytes == bytes {
                    serial = last.serial
                } else {
                    try FileSystem.atomicWrite(Data(bytes), to: png)
                    serial = nextSerial
                    nextSerial += 1
                    drawn[key] = (bytes, serial)
                }
                let size = (width: Int(layout.width.rounded()), height: Int(layout.height.rounded()))
                let origin = pinned.placement.origin(
                    widgetSize: size, monitorSize: (monitor.widthPoints, monitor.heightPoints))
                entries.append(
                    Entry(
                        key: key, id: pinned.id, monitor: index, x: origin.x, y: origin.y, width: size.width,
                        height: size.height, png: png.path, serial: serial,
                        actions: layout.actions.map {
                            Area(x: $0.rect.x, y: $0.rect.y, width: $0.rect.width, height: $0.rect.height)
                        },
                        tap: tapCommand(pinned), move: command(["desktop", "move", String(pinned.id)]),
                        remove: command(["desktop", "remove", String(pinned.id)]),
                        editor: editor(pinned.isNoiseMachine ? nil : spec.id)))
            }
        }
        let shown = Set(entries.map(\.key))
        for key in drawn.keys where !shown.contains(key) {
            drawn[key] = nil
            unlink(folder.appendingPathComponent("widget-\(key).png").path)
        }
        return (Manifest(widgets: entries, problems: problems), redrawAt)
    }

    private func command(_ arguments: [String]) -> [String] {
        [weaver] + arguments + (storeDirectory.map { ["--store", $0] } ?? [])
    }

    private func tapCommand(_ pinned: PinnedWidget) -> [String] {
        let which = pinned.isNoiseMachine ? ["--template", PinnedWidget.noiseMachineDesign] : [pinned.design]
        return command(["tap"] + which + ["--family", pinned.family.rawValue])
    }

    /// The design's editor; the home screen for the Noise Machine widget (as the GTK host's menu).
    private func editor(_ designID: UUID?) -> Editor {
        Editor(
            url: "http://127.0.0.1:\(editorPort)/" + (designID.map { "editor/\($0.uuidString)" } ?? ""),
            port: editorPort,
            serve: command(["serve", "--port", String(editorPort)]))
    }

    /// The manifest as one line of JSON (no newline inside), with its newline.
    public static func line(_ manifest: Manifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(manifest) + Data("\n".utf8)
    }
}
