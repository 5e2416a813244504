import Foundation
import LoginEntryFiles
import NoiseEngine

#if canImport(Glibc)
    import Glibc
#endif

/// `noise schedule add/remove/enable/disable` as one set of steps that the CLI and the Noise page
/// (`weaver serve`) both take: the same checks, in the same order, refused in the same words; the
/// unit files through `PlayScheduleFiles`, then `systemctl --user` through `UserSystemd`.
public struct ScheduleBook: Sendable {
    public let files: PlayScheduleFiles
    public let presets: PresetLibrary
    /// What is missing for a user timer to fire here (`UserSystemd.sessionProblem`), nil when nothing is.
    public let sessionProblem: @Sendable () -> String?
    /// Runs `systemctl --user ARGS`; nil when it worked or there was no manager to tell, else a note.
    public let systemctl: @Sendable ([String]) -> String?

    public init(
        files: PlayScheduleFiles, presets: PresetLibrary = .standard(),
        sessionProblem: @escaping @Sendable () -> String? = { UserSystemd.sessionProblem() },
        systemctl: @escaping @Sendable ([String]) -> String? = { UserSystemd.run($0) }
    ) {
        self.files = files
        self.presets = presets
        self.sessionProblem = sessionProblem
        self.systemctl = systemctl
    }

    /// Why a change was not made; nothing was written.
    public enum Refusal: Error, CustomStringConvertible, Sendable, Equatable {
        /// The preset does not load (the library's message).
        case preset(String)
        /// No systemd user session runs here (the whole message, the CLI's wording).
        case noSystemdSession(String)
        /// No schedule has this id or time.
        case unknown(String)

        public var description: String {
            switch self {
            case .preset(let m), .noSystemdSession(let m), .unknown(let m): m
            }
        }
    }

    /// What `add` did: the files written, warnings (another schedule at the same minute) and notes
    /// (`systemctl` could not be told).
    public struct Added: Sendable, Equatable {
        public var schedule: PlaySchedule
        public var files: [URL]
        public var warnings: [String]
        public var notes: [String]
    }

    /// The refusal when no user manager would read the units.
    public static func noSessionText(_ missing: String) -> String {
        """
        \(missing); a schedule would never run here. Nothing was written. ('noise autostart' falls back to XDG \
        autostart; for a schedule, use a systemd session, or '--without-systemd-session' to write the units anyway)
        """
    }

    /// Checks the preset and the session, writes the units and starts the timer.
    /// - Parameter withoutSystemdSession: write the units although no user session runs here (for a
    ///   home folder another machine uses), as `--without-systemd-session`.
    public func add(_ s: PlaySchedule, withoutSystemdSession: Bool = false) throws -> Added {
        // Refused now rather than failing at 23:00 with nobody looking.
        do { _ = try presets.load(s.presetID) } catch { throw Refusal.preset(error.message) }
        // A unit no user manager reads never fires: refused before anything is written.
        if !withoutSystemdSession, let missing = sessionProblem() {
            throw Refusal.noSystemdSession(Self.noSessionText(missing))
        }
        var warnings: [String] = []
        // Two at one minute both start: the later one takes the player over with its preset.
        for other in files.list().schedules where other.hour == s.hour && other.minute == s.minute && other.id != s.id {
            warnings.append(
                """
                \(other.id) also starts at \(s.timeText): both run, and whichever starts second crossfades the \
                player to its preset ('noise schedule remove \(other.id)' removes the other)
                """)
        }
        let written = try files.install(s)
        let notes = [systemctl(["daemon-reload"]), systemctl(["start", files.timerName(s)])].compactMap { $0 }
        return Added(schedule: s, files: written, warnings: warnings, notes: notes)
    }

    /// Removes the schedules `idOrTime` names (an id or HH:MM), stopping their timers.
    public func remove(_ idOrTime: String) throws -> (removed: [PlaySchedule], files: [URL], notes: [String]) {
        let result = try files.remove(idOrTime)
        guard !result.removed.isEmpty else { throw Refusal.unknown(Self.unknownText(idOrTime)) }
        var notes = result.removed.compactMap { systemctl(["stop", files.timerName($0)]) }
        if let note = systemctl(["daemon-reload"]) { notes.append(note) }
        return (result.removed, result.files, notes)
    }

    /// Enables or disables the schedules `idOrTime` names: the wants link made or removed (the
    /// units stay), and the timer started or stopped.
    public func setEnabled(_ idOrTime: String, _ enabled: Bool) throws -> (changed: [PlaySchedule], notes: [String]) {
        let changed = try files.setEnabled(idOrTime, enabled)
        guard !changed.isEmpty else { throw Refusal.unknown(Self.unknownText(idOrTime)) }
        var notes: [String] = []
        if let note = systemctl(["daemon-reload"]) { notes.append(note) }
        notes += changed.compactMap { systemctl([enabled ? "start" : "stop", files.timerName($0)]) }
        return (changed, notes)
    }

    static func unknownText(_ idOrTime: String) -> String {
        "no schedule '\(idOrTime)'; 'noise schedule list' shows the ids and times"
    }
}

extension ScheduleBook {
    /// A local date and time as systemd prints it: "Wed 2026-11-25 23:00:00 UTC" (`noise schedule
    /// list`'s next run). strftime rather than DateFormatter: Foundation names UTC "GMT", systemd
    /// (and the C library it uses) "UTC".
    public static func systemdTime(_ d: Date) -> String {
        var t = time_t(d.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a %Y-%m-%d %H:%M:%S %Z", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension PlayScheduleFiles {
    /// The schedules of the user folder `$XDG_CONFIG_HOME/systemd/user`, run by `noise` with
    /// `--store storeDirectory` when one was chosen.
    public init(
        noise: URL, storeDirectory: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.init(
            target: LoginEntryTarget(
                configHome: LoginEntries.configHome(environment: environment), executable: noise,
                storeDirectory: storeDirectory))
    }
}
