import Foundation
import PlayerLiveness
import Snapshots
import TemplateLanguage

/// `__noise_*` keys from the noise player's published status (`status.json` in the store).
///
/// | key | value | present when |
/// |---|---|---|
/// | `__noise_state` | `playing`, `paused` or `stopped` | `state` is one of those |
/// | `__noise_playing` | `true` / `false` | `state` is known |
/// | `__noise_preset` | preset name | `presetName` is a string |
/// | `__noise_volume` | master volume in percent, rounded (`70`) | `masterVolume` is a number |
/// | `__noise_timer_remaining` | whole minutes left, rounded up | a timer runs and the player is not stopped |
/// | `__noise_layers_on` | enabled layers with volume > 0 | `layers` is an array |
///
/// A status that says `playing` but was updated more than `staleAfterSeconds` before the render
/// clock is stale (the player died without saying so): it reads as `stopped` — unless the
/// player's heartbeat (`PlayerHeartbeat`, refreshed every second under `$XDG_RUNTIME_DIR` while
/// `status.json` is only rewritten on change) is younger than that. While playing, the timer
/// counts down from `updatedAt` to the render clock.
public struct NoiseStatusProvider: DictionaryKeySource {
    public struct Status: Sendable, Equatable {
        public var state: String?
        public var presetName: String?
        public var masterVolume: Double?
        /// Enabled layers with volume > 0; nil when the status has no `layers` array.
        public var audibleLayerCount: Int?
        public var timerRemainingSeconds: Double?
        public var updatedAt: Date?
        /// Seconds since the writing player's heartbeat was refreshed, when one was found for its pid.
        public var heartbeatAgeSeconds: Double?

        public init(
            state: String? = nil, presetName: String? = nil, masterVolume: Double? = nil,
            audibleLayerCount: Int? = nil, timerRemainingSeconds: Double? = nil, updatedAt: Date? = nil
        ) {
            self.state = state
            self.presetName = presetName
            self.masterVolume = masterVolume
            self.audibleLayerCount = audibleLayerCount
            self.timerRemainingSeconds = timerRemainingSeconds
            self.updatedAt = updatedAt
        }
    }

    public static let staleAfterSeconds: Double = 10
    static let knownStates: Set<String> = ["playing", "paused", "stopped"]

    public let status: Status
    let prefix = "__noise_"

    public init(status: Status) { self.status = status }

    /// Reads `url`; nil when the file is missing, unreadable or not a JSON object.
    public static func load(from url: URL) -> NoiseStatusProvider? {
        guard let json = SnapshotReader.load(url) else { return nil }
        var status = Status()
        status.state = json["state"]?.stringValue?.lowercased()
        status.presetName = json["presetName"]?.stringValue
        status.masterVolume = json["masterVolume"]?.finiteNumber
        if let layers = json["layers"]?.arrayValue {
            status.audibleLayerCount =
                layers.filter { ($0["enabled"]?.boolValue ?? false) && ($0["volume"]?.finiteNumber ?? 0) > 0 }.count
        }
        status.timerRemainingSeconds = json["timerRemainingSeconds"]?.finiteNumber
        status.updatedAt = json["updatedAt"]?.dateValue
        if let pid = json["pid"]?.finiteNumber, pid > 0, pid < Double(Int32.max) {
            status.heartbeatAgeSeconds = PlayerHeartbeat.age(of: Int32(pid))
        }
        return NoiseStatusProvider(status: status)
    }

    func values(in context: RenderContext, formatters: FormatterCache) -> [String: String] {
        var values: [String: String] = [:]
        var state = status.state.flatMap { Self.knownStates.contains($0) ? $0 : nil }
        let age = status.updatedAt.map { context.now.timeIntervalSince($0) }
        let beating = (status.heartbeatAgeSeconds ?? .infinity) <= Self.staleAfterSeconds
        if state == "playing", let age, age > Self.staleAfterSeconds, !beating { state = "stopped" }
        if let state {
            values["__noise_state"] = state
            values["__noise_playing"] = state == "playing" ? "true" : "false"
        }
        if let name = status.presetName { values["__noise_preset"] = name }
        if let volume = status.masterVolume {
            values["__noise_volume"] = NumberText.canonical((volume * 100).rounded(.toNearestOrAwayFromZero))
        }
        if let layers = status.audibleLayerCount { values["__noise_layers_on"] = String(layers) }
        if var remaining = status.timerRemainingSeconds, state == "playing" || state == "paused" {
            if state == "playing", let age, age > 0 { remaining -= age }
            values["__noise_timer_remaining"] = NumberText.canonical(Swift.max(0, (remaining / 60).rounded(.up)))
        }
        return values
    }
}
