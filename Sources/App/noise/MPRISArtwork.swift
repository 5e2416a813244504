import Foundation
import NoiseControl
import SharedStore
import WidgetDataKeys
import WidgetDesign
import WidgetRender

/// MPRIS cover art: the Noise Machine widget (small, 2×) drawn by the widget renderer for the
/// player's status, written under `$XDG_RUNTIME_DIR/widgetweaver/` (a tmpfs: no disk writes).
/// Drawn again only when what the picture shows changes (state, mix, layers, master), under a new
/// file name, because shells cache art by URL; the previous file is removed.
final class MPRISArtwork: @unchecked Sendable {
    private let directory: URL
    private let root: StoreRoot
    private let lock = NSLock()
    private var renderer: WidgetRenderer?
    private var lastKey: String?
    private var lastURL: URL?

    init(root: StoreRoot, runtimeDirectory: URL = ControlPaths.socketURL().deletingLastPathComponent()) {
        self.root = root
        self.directory = runtimeDirectory
    }

    /// Removes the picture (the player is ending; nothing should point at it any more).
    func remove() {
        lock.withLock {
            if let lastURL { try? FileManager.default.removeItem(at: lastURL) }
            lastURL = nil
            lastKey = nil
        }
    }

    /// The art for `status`, or nil when it could not be drawn (the metadata then has no art).
    func url(for status: PlayerStatus) -> String? {
        let now = Date()
        // The picture shows the live status, never the Last Mix (this player is the one running).
        let state = NoiseWidgetState.make(status: status, lastMix: nil, now: now)
        let key =
            "\(state.playback.rawValue)|\(state.mixName)|\(state.masterVolume)|"
            + state.layers.map { "\($0.enabled),\($0.volume),\($0.colour)" }.joined(separator: ";")
        return lock.withLock { () -> String? in
            if key == lastKey, let lastURL { return lastURL.absoluteString }
            do {
                let r = renderer ?? WidgetRenderer()
                renderer = r
                let design = try TemplateCatalogue.find("noise-machine")!.design(now: now)
                var inputs = RenderInputs(
                    context: RenderContext(
                        now: now, timeZone: .current,
                        locale: Locale(identifier: "en_US_POSIX"),
                        builtIns: BuiltInKeys.load(from: root)))
                inputs.noise = state
                let png = try r.png(r.layout(design: design, family: .small, scale: 2, inputs: inputs))
                // The file name changes with what the picture shows: shells cache art by URL.
                let url = directory.appendingPathComponent(
                    "mpris-art-\(getpid())-\(UInt32(truncatingIfNeeded: key.hashValue)).png")
                try FileSystem.atomicWrite(Data(png), to: url, mode: 0o600)
                if let old = lastURL, old != url { try? FileManager.default.removeItem(at: old) }
                lastKey = key
                lastURL = url
                return url.absoluteString
            } catch {
                return nil
            }
        }
    }
}
