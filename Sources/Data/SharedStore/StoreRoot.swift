import Foundation
import SystemCalls

/// Where the shared store lives: the Linux counterpart of the seed app's App Group container.
///
/// Resolution order: an explicit `--store DIR`, then `$WIDGETWEAVER_HOME`, then
/// `$XDG_STATE_HOME/widgetweaver`, then `~/.local/state/widgetweaver`.
public struct StoreRoot: Sendable, Equatable {
    public let url: URL

    public init(url: URL) { self.url = url }

    public static func resolve(
        override: String? = nil,
        environment: [String: String] = XDGDirectories.ofThisProcess(extra: ["WIDGETWEAVER_HOME"]).environment
    ) -> StoreRoot {
        if let override, !override.isEmpty {
            return StoreRoot(url: URL(fileURLWithPath: override, isDirectory: true))
        }
        if let home = environment["WIDGETWEAVER_HOME"], !home.isEmpty {
            return StoreRoot(url: URL(fileURLWithPath: home, isDirectory: true))
        }
        let state = XDGDirectories(environment: environment).stateHome
        return StoreRoot(
            url: URL(fileURLWithPath: state, isDirectory: true)
                .appendingPathComponent("widgetweaver", isDirectory: true))
    }

    // The documented layout (docs/store-and-control.md).
    public var lastMix: URL { url.appendingPathComponent("last-mix.json") }
    public var status: URL { url.appendingPathComponent("status.json") }
    public var variables: URL { url.appendingPathComponent("variables.json") }
    public var entitlement: URL { url.appendingPathComponent("pro.json") }
    public var designs: URL { url.appendingPathComponent("designs", isDirectory: true) }
    public var trash: URL { url.appendingPathComponent("trash", isDirectory: true) }
    public var images: URL { url.appendingPathComponent("images", isDirectory: true) }
    public var snapshots: URL { url.appendingPathComponent("snapshots", isDirectory: true) }
    public var locks: URL { url.appendingPathComponent(".locks", isDirectory: true) }

    /// Creates the root (mode 0700: the store is private to the user) if it is missing.
    public func ensureExists() throws {
        try FileSystem.makeDirectory(url)
    }
}
