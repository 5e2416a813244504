import Foundation

/// A test rig that owns a store folder: reads the player's status feed from it and waits for a
/// state, the one way every player, widget and server test does.
public protocol StoreBackedRig {
    /// The store folder (what `WIDGETWEAVER_HOME` points at).
    var store: URL { get }
}

extension StoreBackedRig {
    /// The status feed (`status.json`) as a JSON object; nil while absent or half-written.
    public func status() -> [String: Any]? { StoreStatus.read(store) }

    /// Polls the status feed until `predicate` holds (nil after `seconds`).
    public func waitForStatus(_ seconds: Double = 5, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        StoreStatus.wait(store, seconds, predicate)
    }
}

public enum StoreStatus {
    public static func read(_ store: URL) -> [String: Any]? {
        guard let data = try? Data(contentsOf: store.appendingPathComponent("status.json")) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    public static func wait(_ store: URL, _ seconds: Double = 5, _ predicate: ([String: Any]) -> Bool) -> [String: Any]?
    {
        Wait.until(seconds) { read(store).flatMap { predicate($0) ? $0 : nil } }
    }
}
