import Foundation
import NoiseEngine
import PlayerLiveness

#if canImport(Glibc)
    import Glibc
#endif

/// What a running player publishes to `status.json` (and to `noise status --follow` subscribers).
/// The JSON keys are a contract: the variables engine and status bars read them.
public struct PlayerStatus: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 1
    /// A playing player refreshes its heartbeat (see `PlayerHeartbeat`) once a second and
    /// rewrites its status on every change; when both are older than this, it is dead.
    public static let staleAfterSeconds = 10.0

    public enum State: String, Codable, Sendable {
        case playing, paused, stopped
    }

    public struct Output: Codable, Equatable, Sendable {
        /// e.g. "pulse", "alsa", "null".
        public var backend: String
        public var device: String
        /// The output went away (server killed, device unplugged) and the player is retrying:
        /// it says `playing`, but nothing is heard until it reconnects.
        public var lost: Bool

        public init(backend: String, device: String, lost: Bool = false) {
            self.backend = backend
            self.device = device
            self.lost = lost
        }

        enum CodingKeys: String, CodingKey { case backend, device, lost }

        // Status files from before `lost` existed read as not lost.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            backend = try c.decode(String.self, forKey: .backend)
            device = try c.decode(String.self, forKey: .device)
            lost = try c.decodeIfPresent(Bool.self, forKey: .lost) ?? false
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
    /// The running timer's fade-out before its end, nil without a timer.
    public var timerFadeSeconds: Double?
    /// What the running timer's end does (`stop`, `suspend`, `poweroff`), nil without a timer.
    public var timerThen: TimerEnd?
    public var output: Output
    /// Output peak level over the last publishing interval, nil when nothing is measured; silence
    /// is written as -120 (JSON has no infinity).
    public var levelDbfs: Double?
    public var underruns: Int
    /// `noise set --mute`: silent, with `masterVolume` still the level `--unmute` goes back to.
    public var muted: Bool = false
    /// The master's notch, nil without one.
    public var notch: Mix.Notch?
    /// The hearing correction in use, as `noise status` says it ("the profile of <device>",
    /// "ISO 226, 40 phon"); nil when off.
    public var hearing: String?
    /// What the render thread's scheduling came to, as the start line says it ("real-time scheduling
    /// (SCHED_FIFO 10)", "real-time scheduling through rtkit (SCHED_RR 10)", "raised priority (nice
    /// -11; …)", "normal scheduling (…)"); nil when stopped or before the render thread started.
    public var scheduling: String?
    public var pid: Int32
    public var updatedAt: Date

    public init(
        state: State, presetName: String? = nil, presetID: String? = nil, masterVolume: Double,
        layers: [Mix.Layer], timerEndsAt: Date? = nil, timerRemainingSeconds: Double? = nil,
        output: Output, levelDbfs: Double? = nil, underruns: Int = 0,
        pid: Int32 = getpid(), updatedAt: Date = Date()
    ) {
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
        self.init(
            state: state, presetName: mix.name, presetID: presetID, masterVolume: mix.masterVolume,
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
            timerRemainingSeconds, timerFadeSeconds, timerThen, output, levelDbfs, underruns, muted, notch, hearing,
            scheduling, pid,
            updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
        state = try c.decode(State.self, forKey: .state)
        presetName = try c.decodeIfPresent(String.self, forKey: .presetName)
        presetID = try c.decodeIfPresent(String.self, forKey: .presetID)
        masterVolume = try c.decode(Double.self, forKey: .masterVolume)
        layers = try c.decode([Mix.Layer].self, forKey: .layers)
        timerEndsAt = try c.decodeIfPresent(Date.self, forKey: .timerEndsAt)
        timerRemainingSeconds = try c.decodeIfPresent(Double.self, forKey: .timerRemainingSeconds)
        // Written since the page sets the timer's end; older files say nothing of it.
        timerFadeSeconds = try c.decodeIfPresent(Double.self, forKey: .timerFadeSeconds)
        timerThen = try c.decodeIfPresent(TimerEnd.self, forKey: .timerThen)
        output = try c.decode(Output.self, forKey: .output)
        levelDbfs = try c.decodeIfPresent(Double.self, forKey: .levelDbfs)
        underruns = try c.decode(Int.self, forKey: .underruns)
        // Written since the mute flag exists; older files are not muted.
        muted = try c.decodeIfPresent(Bool.self, forKey: .muted) ?? false
        // Written since the hearing correction exists.
        notch = try c.decodeIfPresent(Mix.Notch.self, forKey: .notch)
        hearing = try c.decodeIfPresent(String.self, forKey: .hearing)
        // Written since issue 41 (item 24's fallbacks); older files say nothing of it.
        scheduling = try c.decodeIfPresent(String.self, forKey: .scheduling)
        pid = try c.decode(Int32.self, forKey: .pid)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
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
        try c.encode(timerFadeSeconds, forKey: .timerFadeSeconds)
        try c.encode(timerThen, forKey: .timerThen)
        try c.encode(output, forKey: .output)
        try c.encode(levelDbfs.map { max($0.isFinite ? $0 : -120, -120) }, forKey: .levelDbfs)
        try c.encode(underruns, forKey: .underruns)
        try c.encode(muted, forKey: .muted)
        try c.encode(notch, forKey: .notch)
        try c.encode(hearing, forKey: .hearing)
        try c.encode(scheduling, forKey: .scheduling)
        try c.encode(pid, forKey: .pid)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    /// True when the player that wrote this is gone: its pid is not alive, or it claims to be
    /// playing but neither its status (`updatedAt`) nor its heartbeat was refreshed within
    /// `staleAfterSeconds`. A `stopped` status is never stale: it is what a player that ended
    /// cleanly leaves behind.
    public func isStale(
        now: Date = Date(), isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive,
        heartbeatAge: (Int32) -> Double? = { PlayerHeartbeat.age(of: $0) }
    ) -> Bool {
        if state == .stopped { return false }
        if !isProcessAlive(pid) { return true }
        guard state == .playing, now.timeIntervalSince(updatedAt) > Self.staleAfterSeconds else { return false }
        guard let beat = heartbeatAge(pid) else { return true }
        return beat > Self.staleAfterSeconds
    }

    /// The moment this status turns stale if nothing more is heard from its player: for `playing`,
    /// `staleAfterSeconds` after the later of `updatedAt` and the last heartbeat (`isStale` holds
    /// from just after it). nil when no moment can make it stale: `paused` (only the player's exit
    /// does, see `processIsAlive`), `stopped`, or already stale. The heartbeat is refreshed every
    /// second without a store write, so a live player moves this moment on: ask again when it comes.
    public func staleDeadline(
        now: Date = Date(), isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive,
        heartbeatAge: (Int32) -> Double? = { PlayerHeartbeat.age(of: $0) }
    ) -> Date? {
        guard state == .playing, !isStale(now: now, isProcessAlive: isProcessAlive, heartbeatAge: heartbeatAge) else {
            return nil
        }
        var lastSign = updatedAt
        if let beat = heartbeatAge(pid) { lastSign = max(lastSign, now.addingTimeInterval(-beat)) }
        return lastSign.addingTimeInterval(Self.staleAfterSeconds)
    }

    /// True when `other` describes a different situation, i.e. worth a write to `status.json`:
    /// anything but `updatedAt`, the measured level, the seconds left (which follow from
    /// `timerEndsAt`) and the underrun count; timer ends within 2 s of each other are the same
    /// timer. An underrun is the moment the machine is short of time: an fsync of the store then
    /// (issue 41) only makes the next one likelier. The count rides along with the next real
    /// change and the final status, and `noise status` asks the running player for it live.
    public func differsMeaningfully(from other: PlayerStatus?) -> Bool {
        guard let other else { return true }
        var a = self, b = other
        b.underruns = a.underruns
        for s in [\PlayerStatus.levelDbfs, \PlayerStatus.timerRemainingSeconds] {
            a[keyPath: s] = nil
            b[keyPath: s] = nil
        }
        a.updatedAt = .distantPast
        b.updatedAt = .distantPast
        switch (a.timerEndsAt, b.timerEndsAt) {
        case let (x?, y?) where abs(x.timeIntervalSince(y)) <= 2: b.timerEndsAt = x
        default: break
        }
        return a != b
    }

    /// `kill(pid, 0)`: ESRCH means no such process; EPERM means it exists (another user's). A
    /// process that has exited but that its parent has not reaped yet (a zombie, state Z or X in
    /// `/proc/PID/stat`) still answers `kill`, but plays nothing: it counts as dead, so a reader
    /// woken by the player's exit does not see it alive in the moment before its parent reaps it.
    public static func processIsAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return !isZombie(pid)
    }

    /// True when `/proc/PID/stat` says the process has exited (Z, or X while it is being reaped).
    /// False when that cannot be read (no /proc): `kill`'s answer then stands.
    static func isZombie(_ pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // "PID (COMM) STATE ...": COMM may hold spaces and parentheses, so the state follows the last ')'.
        var bytes = [UInt8](repeating: 0, count: 512)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0, let paren = bytes[0..<n].lastIndex(of: UInt8(ascii: ")")), paren + 2 < n else { return false }
        let state = bytes[paren + 2]
        return state == UInt8(ascii: "Z") || state == UInt8(ascii: "X")
    }

    /// This status as a reader should present it: a stale one is reported as stopped.
    public func effective(now: Date = Date()) -> PlayerStatus {
        guard isStale(now: now) else { return self }
        var s = self
        s.state = .stopped
        s.levelDbfs = nil
        s.timerEndsAt = nil
        s.timerRemainingSeconds = nil
        s.timerFadeSeconds = nil
        s.timerThen = nil
        return s
    }
}
