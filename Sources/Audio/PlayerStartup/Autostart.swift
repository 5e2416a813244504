import Foundation
import LoginEntryFiles

/// Starts `noise resume --if-enabled` at login: a systemd user unit where systemd runs the
/// session, else an XDG autostart entry (desktops without systemd read those).
///
/// Enabling writes the unit and the `default.target.wants/` link itself (what `systemctl --user
/// enable` does for `WantedBy=default.target`), so it works without a user bus; the CLI then asks
/// systemd to reload if it can.
public struct Autostart: LoginEntrySet, Sendable {
    public enum Method: String, CaseIterable, Sendable {
        case systemd, xdg
    }

    public static let unitName = "widgetweaver-noise.service"
    public static let desktopName = "widgetweaver-noise.desktop"
    public static let wantedBy = "default.target"

    /// Where the entries go, the `noise` they run and the store they name.
    public let target: LoginEntryTarget

    public init(target: LoginEntryTarget) { self.target = target }

    /// The login command. `--store` is an option of the subcommand, so it comes after `resume`
    /// (`noise --store DIR resume` is refused: "Unknown option '--store'").
    public var arguments: [String] { target.command(["resume", "--if-enabled"]) }

    /// The systemd user unit.
    public func unitText() throws -> String {
        let command = try LoginEntries.systemdLine(arguments)
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
        LoginEntries.autostartEntry(
            name: "WidgetWeaver Noise", comment: "Resume the noise mix that was playing at logout",
            exec: try LoginEntries.desktopLine(arguments))
    }

    /// Installs for `method`; returns the files written.
    @discardableResult
    public func install(_ method: Method) throws -> [URL] {
        switch method {
        case .systemd: try installUnit()
        case .xdg: try installDesktopEntry()
        }
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
}
