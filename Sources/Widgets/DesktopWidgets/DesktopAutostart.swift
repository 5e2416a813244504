import Foundation
import LoginEntryFiles

/// Starts `weaver desktop` at login, through the same login-entry code as `noise autostart`
/// (`LoginEntries`: quoting, atomic writes, the wants link, removal). An XDG autostart entry by
/// default: the desktop session starts it once the display is up. A systemd user unit must wait
/// for `graphical-session.target`, which only some sessions reach; `default.target` comes before
/// any display exists.
public struct DesktopAutostart: LoginEntrySet, Sendable {
    public enum Method: String, CaseIterable, Sendable { case xdg, systemd }

    public static let unitName = "widgetweaver-desktop.service"
    public static let desktopName = "widgetweaver-desktop.desktop"
    public static let wantedBy = "graphical-session.target"

    /// Where the entries go, the `weaver` they run and the store they name.
    public let target: LoginEntryTarget

    public init(target: LoginEntryTarget) { self.target = target }

    public var arguments: [String] { target.command(["desktop"]) }

    public func desktopText() throws -> String {
        LoginEntries.autostartEntry(
            name: "WidgetWeaver Desktop Widgets",
            comment: "Show the widgets added with 'weaver desktop add' on the desktop",
            exec: try LoginEntries.desktopLine(arguments))
    }

    public func unitText() throws -> String {
        let command = try LoginEntries.systemdLine(arguments)
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
        case .xdg: try installDesktopEntry()
        case .systemd: try installUnit()
        }
    }

    public var isInstalled: Bool {
        FileManager.default.fileExists(atPath: desktopURL.path)
            || (try? FileManager.default.destinationOfSymbolicLink(atPath: wantsLinkURL.path)) != nil
    }
}
