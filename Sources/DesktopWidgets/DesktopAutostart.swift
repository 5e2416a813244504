import Foundation
import SharedStore

/// Starts `weaver desktop` at login, through the same login-entry code as `noise autostart`
/// (`LoginEntries`: quoting, atomic writes, the wants link, removal). An XDG autostart entry by
/// default: the desktop session starts it once the display is up. A systemd user unit must wait
/// for `graphical-session.target`, which only some sessions reach; `default.target` comes before
/// any display exists.
public struct DesktopAutostart: Sendable {
    public enum Method: String, CaseIterable, Sendable { case xdg, systemd }

    public static let unitName = "widgetweaver-desktop.service"
    public static let desktopName = "widgetweaver-desktop.desktop"

    public let configHome: URL
    /// The `weaver` executable (absolute).
    public let executable: URL
    public let storeDirectory: String?

    public init(configHome: URL, executable: URL, storeDirectory: String? = nil) {
        self.configHome = configHome
        self.executable = executable
        self.storeDirectory = storeDirectory
    }

    public var unitURL: URL { configHome.appendingPathComponent("systemd/user/\(Self.unitName)") }
    public var wantsLinkURL: URL {
        configHome.appendingPathComponent("systemd/user/graphical-session.target.wants/\(Self.unitName)")
    }
    public var desktopURL: URL { configHome.appendingPathComponent("autostart/\(Self.desktopName)") }

    public var arguments: [String] {
        [executable.path, "desktop"] + (storeDirectory.map { ["--store", $0] } ?? [])
    }

    public func desktopText() throws -> String {
        let command = try arguments.map { try LoginEntries.desktopWord($0) }.joined(separator: " ")
        return """
            [Desktop Entry]
            Type=Application
            Name=WidgetWeaver Desktop Widgets
            Comment=Show the widgets added with 'weaver desktop add' on the desktop
            Exec=\(command)
            Terminal=false
            NoDisplay=true
            X-GNOME-Autostart-enabled=true

            """
    }

    public func unitText() throws -> String {
        let command = try arguments.map { try LoginEntries.systemdWord($0) }.joined(separator: " ")
        return """
            [Unit]
            Description=WidgetWeaver widgets on the desktop
            PartOf=graphical-session.target
            After=graphical-session.target

            [Service]
            Type=simple
            ExecStart=\(command)
            Restart=on-failure

            [Install]
            WantedBy=graphical-session.target

            """
    }

    @discardableResult
    public func install(_ method: Method) throws -> [URL] {
        switch method {
        case .xdg:
            try LoginEntries.write(try desktopText(), to: desktopURL)
            return [desktopURL]
        case .systemd:
            try LoginEntries.write(try unitText(), to: unitURL)
            try LoginEntries.enable(link: wantsLinkURL, unitName: Self.unitName)
            return [unitURL, wantsLinkURL]
        }
    }

    @discardableResult
    public func remove() throws -> [URL] {
        try LoginEntries.remove(
            [wantsLinkURL, unitURL, desktopURL], wantsFolder: wantsLinkURL.deletingLastPathComponent())
    }

    public var isInstalled: Bool {
        FileManager.default.fileExists(atPath: desktopURL.path)
            || (try? FileManager.default.destinationOfSymbolicLink(atPath: wantsLinkURL.path)) != nil
    }
}
