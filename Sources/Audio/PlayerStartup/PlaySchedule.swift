import Foundation
import LoginEntryFiles
import NoiseEngine

/// `noise schedule`: play a preset at a time of day, as a systemd user timer (`OnCalendar`) and
/// a service that runs `noise play --preset ID --fade-in D [--timer T] [--store DIR]`. Written like
/// the data refresh timer (`DataSources.RefreshTimer`): the unit files themselves and the
/// `timers.target.wants/` link, through `LoginEntries`; the CLI then tells systemd through
/// `UserSystemd`. The units are the only record: `list` reads them back, so there is no second
/// copy to drift from what systemd runs.
public struct PlaySchedule: Sendable, Equatable {
    public var hour: Int
    public var minute: Int
    public var presetID: String
    /// The fade-in (or, when a player already runs, the crossfade to the preset).
    public var fadeSeconds: Double
    /// The sleep timer the scheduled player starts with (nil: plays until stopped).
    public var timerSeconds: Double?
    /// The timer's `timers.target.wants/` link is there (`noise schedule disable` removes it and
    /// keeps the units).
    public var isEnabled: Bool

    public init(
        hour: Int, minute: Int, presetID: String, fadeSeconds: Double, timerSeconds: Double? = nil,
        isEnabled: Bool = true
    ) {
        self.hour = hour
        self.minute = minute
        self.presetID = presetID
        self.fadeSeconds = fadeSeconds
        self.timerSeconds = timerSeconds
        self.isEnabled = isEnabled
    }

    /// "HH:MM".
    public var timeText: String { String(format: "%02d:%02d", hour, minute) }

    /// The schedule's name in unit file names and in `remove`: "2300-sleep".
    public var id: String { String(format: "%02d%02d-", hour, minute) + presetID }

    public struct TimeError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The allowed form, for messages.
    public static let timeForm = "HH:MM, 24-hour, 00:00…23:59 (e.g. 23:00 or 7:30)"

    /// Parses a time of day: "H:MM" or "HH:MM", 24-hour. "25:00", "tomorrow", "11pm" are refused.
    public static func parseTime(_ text: String, field: String = "TIME") throws(TimeError) -> (hour: Int, minute: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let h = Int(parts[0]), let m = Int(parts[1])
        else {
            throw TimeError(description: "'\(field)' \(text) is not a time of day; use \(timeForm)")
        }
        guard (0...23).contains(h), (0...59).contains(m) else {
            throw TimeError(description: "'\(field)' \(text) is out of range; use \(timeForm)")
        }
        return (h, m)
    }

    /// Preset ids become part of unit names: `PresetLibrary.isValidID` (lowercase letters, digits,
    /// '-' and '_') keeps a name free of systemd's escaping.
    public static func isUsableInUnitName(_ presetID: String) -> Bool { PresetLibrary.isValidID(presetID) }

    /// The next time this schedule fires after `now`, in `calendar`'s time zone (as systemd
    /// reads `OnCalendar=*-*-* HH:MM:00`: local time, every day).
    public func nextRun(after now: Date, calendar: Calendar = .current) -> Date {
        let match = DateComponents(hour: hour, minute: minute, second: 0)
        return calendar.nextDate(after: now, matching: match, matchingPolicy: .nextTime) ?? now
    }
}

/// The unit files of every schedule in one systemd user folder.
public struct PlayScheduleFiles: Sendable {
    public static let unitPrefix = "widgetweaver-noise-at-"
    /// Unit files are small; anything larger is not one of ours.
    static let largestUnitBytes = 16 * 1024

    /// Where the units go, the `noise` they run and the store the player should use.
    public let target: LoginEntryTarget

    public init(target: LoginEntryTarget) { self.target = target }

    public var unitFolder: URL { target.unitFolder }
    public var wantsFolder: URL { unitFolder.appendingPathComponent("timers.target.wants") }

    public func serviceName(_ s: PlaySchedule) -> String { "\(Self.unitPrefix)\(s.id).service" }
    public func timerName(_ s: PlaySchedule) -> String { "\(Self.unitPrefix)\(s.id).timer" }

    /// The player's command line (`--store` is an option of `play`, so it comes after it).
    public func command(_ s: PlaySchedule) -> [String] {
        var words = ["play", "--preset", s.presetID, "--fade-in", Self.seconds(s.fadeSeconds)]
        if let t = s.timerSeconds { words += ["--timer", Self.seconds(t)] }
        return target.command(words)
    }

    static func seconds(_ v: Double) -> String {
        v == v.rounded() ? "\(Int(v))s" : String(format: "%.3fs", v)
    }

    public func serviceText(_ s: PlaySchedule) throws -> String {
        let exec = try LoginEntries.systemdLine(command(s))
        return """
            [Unit]
            Description=WidgetWeaver noise: play preset \(s.presetID) at \(s.timeText)
            # Read back by 'noise schedule list' (systemd ignores X- keys).
            X-WidgetWeaver-Time=\(s.timeText)
            X-WidgetWeaver-Preset=\(s.presetID)
            X-WidgetWeaver-FadeSeconds=\(s.fadeSeconds)
            X-WidgetWeaver-TimerSeconds=\(s.timerSeconds.map { "\($0)" } ?? "none")

            [Service]
            # The player runs until its timer ends or it is stopped; when one already plays, this
            # hands it the preset (crossfading over the fade) and exits.
            Type=simple
            ExecStart=\(exec)

            """
    }

    public func timerText(_ s: PlaySchedule) -> String {
        """
        [Unit]
        Description=WidgetWeaver noise: play preset \(s.presetID) at \(s.timeText) every day

        [Timer]
        OnCalendar=*-*-* \(s.timeText):00
        # Not Persistent: a sleep sound missed at 23:00 must not start when the machine wakes at 8:00.
        AccuracySec=1s
        Unit=\(serviceName(s))

        [Install]
        WantedBy=timers.target

        """
    }

    /// Writes both units and the wants link; returns the files written.
    @discardableResult
    public func install(_ s: PlaySchedule) throws -> [URL] {
        try LoginEntries.install(
            [
                (try serviceText(s), unitFolder.appendingPathComponent(serviceName(s))),
                (timerText(s), unitFolder.appendingPathComponent(timerName(s))),
            ], enabling: (wantsFolder.appendingPathComponent(timerName(s)), timerName(s)))
    }

    /// Every schedule whose service file reads back, sorted by time; files that do not read back
    /// (edited by hand, truncated) are reported by name rather than guessed at.
    public func list() -> (schedules: [PlaySchedule], unreadable: [URL]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: unitFolder.path)) ?? []
        var found: [PlaySchedule] = []
        var unreadable: [URL] = []
        for name in names.sorted() where name.hasPrefix(Self.unitPrefix) && name.hasSuffix(".service") {
            let url = unitFolder.appendingPathComponent(name)
            if var s = Self.read(url), serviceName(s) == name {
                s.isEnabled = isEnabled(s)
                found.append(s)
            } else {
                unreadable.append(url)
            }
        }
        found.sort { ($0.hour, $0.minute, $0.presetID) < ($1.hour, $1.minute, $1.presetID) }
        return (found, unreadable)
    }

    /// A service file's X-WidgetWeaver keys, bounded in size.
    static func read(_ url: URL) -> PlaySchedule? {
        guard let h = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? h.close() }
        guard let data = try? h.read(upToCount: largestUnitBytes + 1), data.count <= largestUnitBytes,
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        var keys: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("X-WidgetWeaver-") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            keys[String(line[line.index(line.startIndex, offsetBy: 15)..<eq])] = String(line[line.index(after: eq)...])
        }
        guard let time = keys["Time"], let t = try? PlaySchedule.parseTime(time),
            let preset = keys["Preset"], PlaySchedule.isUsableInUnitName(preset),
            let fade = keys["FadeSeconds"].flatMap(Double.init), fade.isFinite, fade >= 0,
            let timer = keys["TimerSeconds"]
        else { return nil }
        let timerSeconds = timer == "none" ? nil : Double(timer)
        if timer != "none" && timerSeconds == nil { return nil }
        return PlaySchedule(
            hour: t.hour, minute: t.minute, presetID: preset, fadeSeconds: fade, timerSeconds: timerSeconds)
    }

    /// The timer's `timers.target.wants/` link (what `enable` makes and `disable` removes).
    public func wantsLink(_ s: PlaySchedule) -> URL { wantsFolder.appendingPathComponent(timerName(s)) }

    /// True when the timer's wants link is there (a dangling link counts: systemd would say so).
    public func isEnabled(_ s: PlaySchedule) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: wantsLink(s).path)) != nil
    }

    /// The schedules `idOrTime` names: an id ("2300-sleep") or a time ("23:00", every schedule at it).
    public func matching(_ idOrTime: String) -> [PlaySchedule] {
        let all = list().schedules
        if let t = try? PlaySchedule.parseTime(idOrTime) {
            return all.filter { $0.hour == t.hour && $0.minute == t.minute }
        }
        return all.filter { $0.id == idOrTime }
    }

    /// Makes or removes the wants links of the schedules `idOrTime` names, keeping their units.
    /// Returns the schedules changed (as they are now).
    public func setEnabled(_ idOrTime: String, _ enabled: Bool) throws -> [PlaySchedule] {
        var changed: [PlaySchedule] = []
        for var s in matching(idOrTime) {
            if enabled {
                try LoginEntries.enable(link: wantsLink(s), unitName: timerName(s))
            } else {
                _ = try LoginEntries.remove([wantsLink(s)], wantsFolder: wantsFolder)
            }
            s.isEnabled = enabled
            changed.append(s)
        }
        return changed
    }

    /// Removes the schedules `idOrTime` names: an id ("2300-sleep") or a time ("23:00", every
    /// schedule at it). Returns the schedules removed and the files deleted.
    public func remove(_ idOrTime: String) throws -> (removed: [PlaySchedule], files: [URL]) {
        let found = matching(idOrTime)
        var files: [URL] = []
        for s in found {
            files += try LoginEntries.remove(
                [
                    wantsFolder.appendingPathComponent(timerName(s)), unitFolder.appendingPathComponent(timerName(s)),
                    unitFolder.appendingPathComponent(serviceName(s)),
                ], wantsFolder: wantsFolder)
        }
        return (found, files)
    }
}
