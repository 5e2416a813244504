import Foundation
import SystemCalls

/// The desktop file shells use for the player's name and icon (`make install` puts it in
/// `$PREFIX/share/applications`). MPRIS's DesktopEntry names it only when it is installed, found
/// the way shells find it: `applications/` under `$XDG_DATA_HOME` and each of `$XDG_DATA_DIRS`.
public enum DesktopEntry {
    public static let id = "widgetweaver-noise"

    public static func searchFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let xdg = XDGDirectories(environment: environment)
        return ([xdg.dataHome] + xdg.dataDirectories).map { "\($0)/applications" }
    }

    /// `widgetweaver-noise` when the desktop file is installed, else nil.
    public static func installedID(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let found = searchFolders(environment: environment).contains {
            FileManager.default.fileExists(atPath: "\($0)/\(id).desktop")
        }
        return found ? id : nil
    }
}
