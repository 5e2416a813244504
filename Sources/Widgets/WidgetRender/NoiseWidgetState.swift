import Foundation
import NoiseControl
import NoiseEngine

/// What the Noise Machine widget shows, from the status feed (`status.json`) or, when no player
/// runs, the Last Mix. A plain value so tests and goldens can build any state.
public struct NoiseWidgetState: Sendable, Hashable {
    public enum Playback: String, Sendable, Hashable { case playing, paused, stopped }

    public struct Layer: Sendable, Hashable {
        public var enabled: Bool
        /// 0…1.
        public var volume: Double
        /// β of 1/f^β, 0 (white) … 1 (pink) … 2 (brown).
        public var colour: Double
        /// "drops" or "crackle" (`Mix.Texture`); nil for noise, which shows its colour.
        public var texture: String?
        public init(enabled: Bool, volume: Double, colour: Double, texture: String? = nil) {
            self.enabled = enabled
            self.volume = volume
            self.colour = colour
            self.texture = texture == "noise" ? nil : texture
        }

        init(_ l: Mix.Layer) {
            self.init(enabled: l.enabled, volume: l.volume, colour: l.colour, texture: l.texture?.rawValue)
        }
    }

    public var playback: Playback
    public var mixName: String
    /// Exactly four.
    public var layers: [Layer]
    public var masterVolume: Double
    public var timerRemainingSeconds: Double?
    public var resumeOnLaunch: Bool
    public var updatedAt: Date?
    /// Output peak over the last second, dBFS; nil when not measured or not playing.
    public var levelDbfs: Double?
    /// The preset the player plays (its id), nil for a custom mix or when stopped.
    public var presetID: String?

    public init(
        playback: Playback, mixName: String, layers: [Layer], masterVolume: Double,
        timerRemainingSeconds: Double? = nil, resumeOnLaunch: Bool = false, presetID: String? = nil,
        updatedAt: Date? = nil, levelDbfs: Double? = nil
    ) {
        self.playback = playback
        self.mixName = mixName
        var l = Array(layers.prefix(4))
        // A layer the mix does not have shows what turning it on adds (the mixer's new layer):
        // the same volume and colour it would then play at.
        let added = Mix.Layer(enabled: false)
        while l.count < 4 { l.append(Layer(enabled: false, volume: added.volume, colour: added.colour)) }
        self.layers = l
        self.masterVolume = masterVolume
        self.timerRemainingSeconds = timerRemainingSeconds
        self.resumeOnLaunch = resumeOnLaunch
        self.updatedAt = updatedAt
        self.levelDbfs = levelDbfs
        self.presetID = presetID
    }

    /// The seed's first-launch state: layer 1 on, stopped.
    public static let `default` = NoiseWidgetState(
        playback: .stopped, mixName: LastMix.defaultMix.name,
        layers: LastMix.defaultMix.layers.map { Layer(enabled: $0.enabled, volume: $0.volume, colour: $0.colour) },
        masterVolume: LastMix.defaultMix.masterVolume)

    /// The mix the widget shows when no player runs: the Last Mix, else the one the last status
    /// described, else the default mix (a fresh store: "Pink", master 70 %). The play button
    /// starts this mix when there is no Last Mix, so what is shown is what plays.
    public static func stoppedMix(status: PlayerStatus?, lastMix: LastMix?) -> Mix {
        lastMix?.mix ?? status?.mix ?? LastMix.defaultMix
    }

    /// Combines the two sources (pure; what WidgetInputs' `load(from:now:warn:)` does after reading).
    public static func make(status: PlayerStatus?, lastMix: LastMix?, now: Date) -> NoiseWidgetState {
        let resume = lastMix?.resumeOnLaunch ?? false
        if let s = status, s.state != .stopped {
            var remaining = s.timerRemainingSeconds
            if s.state == .playing, let r = remaining {
                remaining = max(0, r - max(0, now.timeIntervalSince(s.updatedAt)))
            }
            return NoiseWidgetState(
                playback: s.state == .playing ? .playing : .paused, mixName: s.presetName ?? "Custom",
                layers: s.layers.map(Layer.init),
                masterVolume: s.masterVolume, timerRemainingSeconds: remaining, resumeOnLaunch: resume,
                presetID: s.presetID,
                updatedAt: s.updatedAt, levelDbfs: s.state == .playing ? s.levelDbfs : nil)
        }
        let mix = stoppedMix(status: status, lastMix: lastMix)
        return NoiseWidgetState(
            playback: .stopped, mixName: mix.name,
            layers: mix.layers.map(Layer.init),
            masterVolume: mix.masterVolume, resumeOnLaunch: resume,
            updatedAt: status?.updatedAt ?? lastMix?.updatedAt)
    }
}
