import Foundation
import SharedStore

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

    public let configHome: URL
    /// The `weaver` executable (absolute).
    public let executable: URL
    public let storeDirectory: String?

    public init(configHome: URL, executable: URL, storeDirectory: String? = nil) {
        self.configHome = configHome
        self.executable = executable
        self.storeDirectory = storeDirectory
    }

    public static func configHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        LoginEntries.configHome(environment: environment)
    }

    public static func systemdIsRunning() -> Bool { LoginEntries.systemdIsRunning() }

    public var serviceURL: URL { configHome.appendingPathComponent("systemd/user/\(Self.serviceName)") }
    public var timerURL: URL { configHome.appendingPathComponent("systemd/user/\(Self.timerName)") }
    public var wantsLinkURL: URL {
        configHome.appendingPathComponent("systemd/user/timers.target.wants/\(Self.timerName)")
    }
    public var desktopURL: URL { configHome.appendingPathComponent("autostart/\(Self.desktopName)") }

    func command(_ words: [String]) -> [String] {
        [executable.path] + words + (storeDirectory.map { ["--store", $0] } ?? [])
    }

    public func serviceText() throws -> String {
        let weather = try command(["weather", "refresh", "--quiet"]).map(Self.systemdQuoted).joined(separator: " ")
        let calendar = try command(["calendar", "refresh", "--quiet"]).map(Self.systemdQuoted).joined(separator: " ")
        let reminders = try command(["reminders", "refresh", "--quiet"]).map(Self.systemdQuoted).joined(separator: " ")
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
        let weather = try command(["weather", "refresh", "--quiet"]).map(Self.shellQuoted).joined(separator: " ")
        let calendar = try command(["calendar", "refresh", "--quiet"]).map(Self.shellQuoted).joined(separator: " ")
        let reminders = try command(["reminders", "refresh", "--quiet"]).map(Self.shellQuoted).joined(separator: " ")
        let loop = "while :; do \(weather); \(calendar); \(reminders); sleep \(Self.intervalMinutes * 60); done"
        return """
            [Desktop Entry]
            Type=Application
            Name=WidgetWeaver data refresh
            Comment=Refresh the weather, calendar and reminders snapshots every \(Self.intervalMinutes) minutes
            Exec=\(try Self.desktopQuoted("/bin/sh")) -c \(try Self.desktopQuoted(loop))
            Terminal=false
            NoDisplay=true
            X-GNOME-Autostart-enabled=true

            """
    }

    @discardableResult
    public func install(_ method: Method) throws -> [URL] {
        switch method {
        case .systemd:
            try write(try serviceText(), to: serviceURL)
            try write(timerText(), to: timerURL)
            try LoginEntries.enable(link: wantsLinkURL, unitName: Self.timerName)
            return [serviceURL, timerURL, wantsLinkURL]
        case .xdg:
            try write(try desktopText(), to: desktopURL)
            return [desktopURL]
        }
    }

    @discardableResult
    public func remove() throws -> [URL] {
        try LoginEntries.remove(
            [wantsLinkURL, timerURL, serviceURL, desktopURL], wantsFolder: wantsLinkURL.deletingLastPathComponent())
    }

    private func write(_ text: String, to url: URL) throws { try LoginEntries.write(text, to: url) }

    public typealias QuotingError = LoginEntries.Unquotable
    public static func systemdQuoted(_ s: String) throws -> String { try LoginEntries.systemdWord(s) }
    static func shellQuoted(_ s: String) throws -> String { try LoginEntries.shellWord(s) }
    public static func desktopQuoted(_ s: String) throws -> String { try LoginEntries.desktopWord(s) }
}
