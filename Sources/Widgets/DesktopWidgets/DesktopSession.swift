import Foundation

/// Whether there is a graphical session to put widgets on, in words `weaver desktop` and its host share.
public enum DesktopSession {
    public static let noDisplayMessage =
        """
        'weaver desktop' needs a graphical session: neither WAYLAND_DISPLAY nor DISPLAY is set (for widgets \
        outside one, see 'weaver render --watch' in docs/status-bars.md)
        """

    public static func hasDisplay(_ environment: [String: String]) -> Bool {
        environment["WAYLAND_DISPLAY"]?.isEmpty == false || environment["DISPLAY"]?.isEmpty == false
    }

    /// "WAYLAND_DISPLAY=wayland-1, DISPLAY=:0", for messages.
    public static func describe(_ environment: [String: String]) -> String {
        ["WAYLAND_DISPLAY", "DISPLAY"].compactMap { k in environment[k].map { "\(k)=\($0)" } }.joined(separator: ", ")
    }
}
