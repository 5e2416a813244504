import Foundation
import SharedStore
import Snapshots

/// `weather-location.json` at the store's root: the chosen place, kept apart from
/// `snapshots/weather.json` so that a snapshot that cannot be read (and is set aside) does not
/// take the location with it: the next refresh writes a new snapshot for the same place. The
/// snapshot still carries a copy under `location` (the variables engine and the widgets read
/// it there); this file is the one that counts.
public struct WeatherLocationFile: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1
    public var schemaVersion = WeatherLocationFile.currentSchemaVersion
    public var location: WeatherFile.Location

    public init(location: WeatherFile.Location) { self.location = location }

    public static func url(in root: StoreRoot) -> URL { root.url.appendingPathComponent("weather-location.json") }

    public static func document(_ root: StoreRoot) -> JSONDocument<WeatherLocationFile> {
        JSONDocument(root: root, url: url(in: root), sizeLimit: 64 << 10)
    }
}
