import Foundation
import LoginEntryFiles

/// Auto-refresh on and off: what `weaver weather autorefresh enable|disable` and the Data page's
/// switch (`POST /api/data/weather/autorefresh`) both call, so the two cannot drift apart (the
/// CLI used to hold this logic itself). `systemctl` runs `systemctl --user <arguments>` (the
/// arguments come without `--user`) and returns a note when that failed: `UserSystemd.run`,
/// passed in because DataSources does not start processes.
extension RefreshTimer {
    /// What a switch did: the files written or removed, the notes of a failed `systemctl`, and
    /// one sentence for the user.
    public struct SwitchOutcome: Sendable {
        public var method: Method?
        public var written: [URL] = []
        public var removed: [URL] = []
        public var notes: [String] = []
        public var message: String
    }

    /// How auto-refresh is set up now (read from the files), nil when it is off.
    public var installedMethod: Method? {
        if FileManager.default.fileExists(atPath: timerURL.path) { return .systemd }
        if FileManager.default.fileExists(atPath: desktopURL.path) { return .xdg }
        return nil
    }

    public var isOn: Bool { installedMethod != nil }

    /// `auto` (a systemd timer when systemd runs the session, else XDG autostart), `systemd` or
    /// `xdg`; anything else is refused with the allowed words.
    public static func method(named name: String, systemdRuns: () -> Bool = LoginEntries.systemdIsRunning) throws
        -> Method
    {
        if name == "auto" { return systemdRuns() ? .systemd : .xdg }
        guard let m = Method(rawValue: name) else { throw MethodError(name: name) }
        return m
    }

    public struct MethodError: Error, CustomStringConvertible, Sendable {
        public var name: String
        public var description: String { "'--method' \(name) is not supported; use auto, systemd or xdg" }
    }

    /// Installs one refresher (removing the other method's files first) and, for systemd, asks
    /// the user manager to reload and start the timer.
    public func enable(_ method: Method, systemctl: ([String]) -> String?) throws -> SwitchOutcome {
        try remove()
        let written = try install(method)
        var notes: [String] = []
        if method == .systemd {
            notes += [["daemon-reload"], ["start", Self.timerName]].compactMap(systemctl)
        }
        return SwitchOutcome(
            method: method, written: written, notes: notes,
            message: "Weather and calendars refresh every \(Self.intervalMinutes) minutes"
                + (method == .systemd
                    ? " (systemd timer \(Self.timerName))." : " from your next login (XDG autostart)."))
    }

    /// Stops the timer where systemd runs and removes the timer, the service and the login loop.
    public func disable(systemctl: ([String]) -> String?, systemdRuns: () -> Bool = LoginEntries.systemdIsRunning)
        throws
        -> SwitchOutcome
    {
        var notes: [String] = []
        if systemdRuns(), let note = systemctl(["stop", Self.timerName]) { notes.append(note) }
        let removed = try remove()
        if removed.contains(timerURL), let note = systemctl(["daemon-reload"]) { notes.append(note) }
        return SwitchOutcome(
            method: nil, removed: removed, notes: notes,
            message: removed.isEmpty ? "Automatic refresh was not set up." : "Automatic refresh is off.")
    }

    /// The `weaver` to write into the units: this process when it is `weaver`, else the `weaver`
    /// beside it (the desktop host serves the same pages), else `fallback`.
    public static func weaverExecutable(fallback: String = CommandLine.arguments[0]) -> URL {
        let exe = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? fallback)
        if exe.lastPathComponent == "weaver" { return exe }
        let sibling = exe.deletingLastPathComponent().appendingPathComponent("weaver")
        return FileManager.default.isExecutableFile(atPath: sibling.path) ? sibling : exe
    }
}
