import Foundation
import LoginEntryFiles
import NoiseControl
import PlayerStartup
import SharedStore

/// A scratch home for one test: store, runtime folder (socket) and config folder.
public struct Sandbox {
    public let url: URL
    public var store: URL { url.appendingPathComponent("store") }
    public var run: URL { url.appendingPathComponent("run") }
    public var config: URL { url.appendingPathComponent("config") }
    public var root: StoreRoot { StoreRoot(url: store) }
    public var socket: URL { ControlPaths.socketURL(environment: ["XDG_RUNTIME_DIR": run.path]) }
    public var environment: [String: String] {
        TestStore(at: store).environment([
            "XDG_RUNTIME_DIR": run.path, "XDG_CONFIG_HOME": config.path, "WIDGETWEAVER_PRESETS": "",
        ])
    }

    public init() throws {
        url = try Products.temporaryDirectory("ww-ctl")
        try FileManager.default.createDirectory(
            at: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    public func noise(_ args: [String], extra: [String: String] = [:]) throws -> Products.Result {
        try Products.run("noise", args, environment: environment.merging(extra) { $1 })
    }

    /// The login entries `noise autostart` writes for this sandbox's config folder.
    public func autostart(store: String? = nil) -> Autostart {
        Autostart(
            target: LoginEntryTarget(configHome: config, executable: Products.url("noise"), storeDirectory: store))
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
