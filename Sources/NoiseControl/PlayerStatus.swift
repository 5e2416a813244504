#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NoiseEngine

/// What a running player publishes to `status.json` (and to `noise status --follow` subscribers).
/// The JSON keys are a contract: the variables engine and status bars read them.
public struct PlayerStatus: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 1
    /// A playing player rewrites its status at least once a second; older than this, it is dead.
    public static let staleAfterSeconds = 10.0

    public enum State: String, Codable, Sendable {
        case playing, paused, stopped
    }

    public struct Output: Codable, Equatable, Sendable {
        /// e.g. "pulse", "alsa", "null".
        public var backend: String
        public var device: String

        public init(backend: String, device: String) {
            self.backend = backend
            self.device = device
        }
    }

    public var schemaVersion: Int
    public var state: State
    public var presetName: String?
    public var presetID: String?
    /// Master slider 0…1.
    public var masterVolume: Double
    /// The `Mix.Layer` encoding, one entry per layer.
    public var layers: [Mix.Layer]
    public var timerEndsAt: Date?
    public var timerRemainingSeconds: Double?
    public var output: Output
    /// Output peak level over the last publishing interval, nil when nothing is measured; silence
    /// is written as -120 (JSON has no infinity).
    public var levelDbfs: Double?
    public var underruns: Int
    public var pid: Int32
    public var updatedAt: Date

    public init(state: State, presetName: String? = nil, presetID: String? = nil, masterVolume: Double,
                layers: [Mix.Layer], timerEndsAt: Date? = nil, timerRemainingSeconds: Double? = nil,
                output: Output, levelDbfs: Double? = nil, underruns: Int = 0,
                pid: Int32 = getpid(), updatedAt: Date = Date()) {
        self.schemaVersion = Self.currentSchemaVersion
        self.state = state
        self.presetName = presetName
        self.presetID = presetID
        self.masterVolume = masterVolume
        self.layers = layers
        self.timerEndsAt = timerEndsAt
        self.timerRemainingSeconds = timerRemainingSeconds
        self.output = output
        self.levelDbfs = levelDbfs
        self.underruns = underruns
        self.pid = pid
        self.updatedAt = updatedAt
    }

    /// A status describing `mix` (the usual way a player builds one).
    public init(state: State, mix: Mix, presetID: String?, output: Output, updatedAt: Date = Date()) {
        self.init(state: state, presetName: mix.name, presetID: presetID, masterVolume: mix.masterVolume,
                  layers: mix.layers, output: output, updatedAt: updatedAt)
    }

    /// The mix this status describes (name from the preset name).
    public var mix: Mix {
        Mix(name: presetName ?? "Custom", masterVolume: masterVolume, layers: layers)
    }

    // Explicit keys so that optional values are written as null, not left out: readers then see
    // every documented key in every document.
    enum CodingKeys: String, CodingKey {
        case schemaVersion, state, presetName, presetID, masterVolume, layers, timerEndsAt,
             timerRemainingSeconds, output, levelDbfs, underruns, pid, updatedAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(state, forKey: .state)
        try c.encode(presetName, forKey: .presetName)
        try c.encode(presetID, forKey: .presetID)
        try c.encode(masterVolume, forKey: .masterVolume)
        try c.encode(layers, forKey: .layers)
        try c.encode(timerEndsAt, forKey: .timerEndsAt)
        try c.encode(timerRemainingSeconds, forKey: .timerRemainingSeconds)
        try c.encode(output, forKey: .output)
        try c.encode(levelDbfs.map { max($0.isFinite ? $0 : -120, -120) }, forKey: .levelDbfs)
        try c.encode(underruns, forKey: .underruns)
        try c.encode(pid, forKey: .pid)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    /// True when the player that wrote this is gone: its pid is not alive, or it claims to be
    /// playing but has not written for `staleAfterSeconds`. A `stopped` status is never stale: it
    /// is what a player that ended cleanly leaves behind.
    public func isStale(now: Date = Date(), isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive) -> Bool {
        if state == .stopped { return false }
        if !isProcessAlive(pid) { return true }
        return state == .playing && now.timeIntervalSince(updatedAt) > Self.staleAfterSeconds
    }

    /// `kill(pid, 0)`: ESRCH means no such process; EPERM means it exists (another user's).
    public static func processIsAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        if kill(pid, 0) == 0 { return true }
        return errno == EPERM
    }

    /// This status as a reader should present it: a stale one is reported as stopped.
    public func effective(now: Date = Date()) -> PlayerStatus {
        guard isStale(now: now) else { return self }
        var s = self
        s.state = .stopped
        s.levelDbfs = nil
        s.timerEndsAt = nil
        s.timerRemainingSeconds = nil
        return s
    }
}
