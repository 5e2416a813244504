import Foundation
import SharedStore

/// Starts `noise resume --if-enabled` at login: a systemd user unit where systemd runs the
/// session, else an XDG autostart entry (desktops without systemd read those).
///
/// Enabling writes the unit and the `default.target.wants/` link itself (what `systemctl --user
/// enable` does for `WantedBy=default.target`), so it works without a user bus; the CLI then asks
/// systemd to reload if it can.
public struct Autostart: Sendable {
    public enum Method: String, CaseIterable, Sendable {
        case systemd, xdg
    }

    public static let unitName = "widgetweaver-noise.service"
    public static let desktopName = "widgetweaver-noise.desktop"

    /// `$XDG_CONFIG_HOME` (default `~/.config`).
    public let configHome: URL
    /// The `noise` executable the unit runs (absolute).
    public let executable: URL
    /// A store folder to pass as `--store`, when the user chose one explicitly.
    public let storeDirectory: String?

    public init(configHome: URL, executable: URL, storeDirectory: String? = nil) {
        self.configHome = configHome
        self.executable = executable
        self.storeDirectory = storeDirectory
    }

    public static func configHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        LoginEntries.configHome(environment: environment)
    }

    /// See `LoginEntries.systemdIsRunning`.
    public static func systemdIsRunning() -> Bool { LoginEntries.systemdIsRunning() }

    public var unitURL: URL { configHome.appendingPathComponent("systemd/user/\(Self.unitName)") }
    public var wantsLinkURL: URL {
        configHome.appendingPathComponent("systemd/user/default.target.wants/\(Self.unitName)")
    }
    public var desktopURL: URL { configHome.appendingPathComponent("autostart/\(Self.desktopName)") }

    /// The login command. `--store` is an option of the subcommand, so it comes after `resume`
    /// (`noise --store DIR resume` is refused: "Unknown option '--store'").
    public var arguments: [String] {
        [executable.path, "resume", "--if-enabled"] + (storeDirectory.map { ["--store", $0] } ?? [])
    }

    /// The systemd user unit.
    public func unitText() throws -> String {
        let command = try arguments.map(Self.systemdQuoted).joined(separator: " ")
        return """
            [Unit]
            Description=Resume the WidgetWeaver noise mix that was playing at logout
            # Start once the sound server is up; missing units here are ignored.
            After=pipewire-pulse.service pulseaudio.service sound.target

            [Service]
            Type=simple
            ExecStart=\(command)
            # 'noise resume --if-enabled' exits 0 when there is nothing to resume; that is not a failure.
            Restart=no

            [Install]
            WantedBy=default.target

            """
    }

    /// The XDG autostart desktop entry.
    public func desktopText() throws -> String {
        let command = try arguments.map(Self.desktopQuoted).joined(separator: " ")
        return """
            [Desktop Entry]
            Type=Application
            Name=WidgetWeaver Noise
            Comment=Resume the noise mix that was playing at logout
            Exec=\(command)
            Terminal=false
            NoDisplay=true
            X-GNOME-Autostart-enabled=true

            """
    }

    /// Installs for `method`; returns the files written.
    @discardableResult
    public func install(_ method: Method) throws -> [URL] {
        switch method {
        case .systemd:
            try write(try unitText(), to: unitURL)
            try LoginEntries.enable(link: wantsLinkURL, unitName: Self.unitName)
            return [unitURL, wantsLinkURL]
        case .xdg:
            try write(try desktopText(), to: desktopURL)
            return [desktopURL]
        }
    }

    /// Removes whatever is installed (both kinds); returns the files removed.
    @discardableResult
    public func remove() throws -> [URL] {
        try LoginEntries.remove(
            [wantsLinkURL, unitURL, desktopURL], wantsFolder: wantsLinkURL.deletingLastPathComponent())
    }

    public struct Installed: Sendable, Equatable {
        public var unitFile: Bool
        public var unitEnabled: Bool
        public var desktopEntry: Bool
        public var isInstalled: Bool { (unitFile && unitEnabled) || desktopEntry }
    }

    public func installed() -> Installed {
        let fm = FileManager.default
        return Installed(
            unitFile: fm.fileExists(atPath: unitURL.path),
            unitEnabled: (try? fm.destinationOfSymbolicLink(atPath: wantsLinkURL.path)) != nil,
            desktopEntry: fm.fileExists(atPath: desktopURL.path))
    }

    private func write(_ text: String, to url: URL) throws { try LoginEntries.write(text, to: url) }

    public typealias QuotingError = LoginEntries.Unquotable

    /// See `LoginEntries.systemdWord`.
    public static func systemdQuoted(_ s: String) throws -> String { try LoginEntries.systemdWord(s) }

    /// See `LoginEntries.desktopWord`.
    public static func desktopQuoted(_ s: String) throws -> String { try LoginEntries.desktopWord(s) }
}
