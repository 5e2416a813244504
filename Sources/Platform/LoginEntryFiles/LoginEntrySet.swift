import Foundation

/// A program started at login in either of two ways, a systemd user unit enabled in `wantedBy`'s
/// `.wants/` folder or an XDG autostart entry: `noise autostart` and `weaver desktop --autostart`.
/// Each says its names and texts; where the files go, their writing and their removal are here.
public protocol LoginEntrySet {
    static var unitName: String { get }
    static var desktopName: String { get }
    /// The target that wants the unit: "default.target" for the player, "graphical-session.target" for the desktop.
    static var wantedBy: String { get }
    /// Where the entries go, the executable they run and the store they name.
    var target: LoginEntryTarget { get }
    func unitText() throws -> String
    func desktopText() throws -> String
}

extension LoginEntrySet {
    public var unitURL: URL { target.unitURL(Self.unitName) }
    public var wantsLinkURL: URL { target.wantsLinkURL(Self.unitName, wantedBy: Self.wantedBy) }
    public var desktopURL: URL { target.autostartURL(Self.desktopName) }

    /// Writes the unit and enables it; returns the files written.
    public func installUnit() throws -> [URL] {
        try LoginEntries.install([(try unitText(), unitURL)], enabling: (wantsLinkURL, Self.unitName))
    }

    /// Writes the autostart entry; returns the files written.
    public func installDesktopEntry() throws -> [URL] {
        try LoginEntries.install([(try desktopText(), desktopURL)])
    }

    /// Removes whatever is installed (both kinds); returns the files removed.
    @discardableResult
    public func remove() throws -> [URL] {
        try LoginEntries.remove(
            [wantsLinkURL, unitURL, desktopURL], wantsFolder: wantsLinkURL.deletingLastPathComponent())
    }
}
