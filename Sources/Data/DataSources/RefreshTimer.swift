import Foundation
import LoginEntryFiles

/// Runs `weaver weather refresh` (and `weaver calendar refresh`, `weaver reminders refresh`) every 30 minutes: a
/// systemd user timer where systemd runs the session, else an XDG autostart entry that starts a loop at login.
/// Written like NoiseControl's `Autostart` (the unit files themselves, the `timers.target.wants/`
/// link; the CLI then asks systemd to reload and start if it can).
public struct RefreshTimer: Sendable {
    public enum Method: String, CaseIterable, Sendable { case systemd, xdg }

    public static let serviceName = "widgetweaver-data.service"
    public static let timerName = "widgetweaver-data.timer"
    public static let desktopName = "widgetweaver-data.desktop"
    public static let intervalMinutes = 30

    /// Where the entries go, the `weaver` they run and the store they name.
    public let target: LoginEntryTarget

    public init(target: LoginEntryTarget) { self.target = target }

    public var serviceURL: URL { target.unitURL(Self.serviceName) }
    public var timerURL: URL { target.unitURL(Self.timerName) }
    public var wantsLinkURL: URL { target.wantsLinkURL(Self.timerName, wantedBy: "timers.target") }
    public var desktopURL: URL { target.autostartURL(Self.desktopName) }

    public func serviceText() throws -> String {
        let weather = try LoginEntries.systemdLine(target.command(["weather", "refresh", "--quiet"]))
        let calendar = try LoginEntries.systemdLine(target.command(["calendar", "refresh", "--quiet"]))
        let reminders = try LoginEntries.systemdLine(target.command(["reminders", "refresh", "--quiet"]))
        return """
            [Unit]
            Description=Refresh WidgetWeaver weather, calendar and reminders snapshots
            After=network-online.target

            [Service]
            Type=oneshot
            # A failed fetch keeps the last snapshot; '-' keeps one failure from skipping the other.
            ExecStart=-\(weather)
            ExecStart=-\(calendar)
            ExecStart=-\(reminders)

            """
    }

    public func timerText() -> String {
        """
        [Unit]
        Description=Refresh WidgetWeaver weather, calendar and reminders snapshots every \(Self.intervalMinutes) minutes

        [Timer]
        OnStartupSec=1min
        OnUnitActiveSec=\(Self.intervalMinutes)min
        RandomizedDelaySec=60
        Persistent=true

        [Install]
        WantedBy=timers.target

        """
    }

    /// A login entry running the loop through `sh` (desktops without systemd).
    public func desktopText() throws -> String {
        let weather = try LoginEntries.shellLine(target.command(["weather", "refresh", "--quiet"]))
        let calendar = try LoginEntries.shellLine(target.command(["calendar", "refresh", "--quiet"]))
        let reminders = try LoginEntries.shellLine(target.command(["reminders", "refresh", "--quiet"]))
        let loop = "while :; do \(weather); \(calendar); \(reminders); sleep \(Self.intervalMinutes * 60); done"
        return LoginEntries.autostartEntry(
            name: "WidgetWeaver data refresh",
            comment: "Refresh the weather, calendar and reminders snapshots every \(Self.intervalMinutes) minutes",
            exec: "\(try LoginEntries.desktopWord("/bin/sh")) -c \(try LoginEntries.desktopWord(loop))")
    }

    @discardableResult
    public func install(_ method: Method) throws -> [URL] {
        switch method {
        case .systemd:
            try LoginEntries.install(
                [(try serviceText(), serviceURL), (timerText(), timerURL)], enabling: (wantsLinkURL, Self.timerName))
        case .xdg:
            try LoginEntries.install([(try desktopText(), desktopURL)])
        }
    }

    @discardableResult
    public func remove() throws -> [URL] {
        try LoginEntries.remove(
            [wantsLinkURL, timerURL, serviceURL, desktopURL], wantsFolder: wantsLinkURL.deletingLastPathComponent())
    }
}
