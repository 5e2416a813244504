import Foundation

/// A private store for one test: a fresh temporary folder and the environment that points the
/// tools at it (`WIDGETWEAVER_HOME`), instead of each test building that environment by hand.
/// Remove it when the test ends (`defer { store.remove() }`).
public struct TestStore: Sendable {
    /// The store folder (what `WIDGETWEAVER_HOME` points at).
    public let url: URL

    /// A new empty folder under the temporary directory, named after `label`.
    public init(_ label: String = "store") throws {
        url = try Products.temporaryDirectory(label)
    }

    /// The store at `url`, e.g. a folder inside a server's own directory (the tools create it
    /// when they first write; some tests check that they do).
    public init(at url: URL) {
        self.url = url
    }

    public var path: String { url.path }

    /// `WIDGETWEAVER_HOME` for this store, over `base` (a server's environment, `TZ`…).
    public func environment(_ base: [String: String] = [:]) -> [String: String] {
        base.merging(["WIDGETWEAVER_HOME": url.path]) { $1 }
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
