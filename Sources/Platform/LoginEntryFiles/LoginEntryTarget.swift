import Foundation

/// What every login entry and timer of both tools points at, resolved once: where the entries
/// live (`$XDG_CONFIG_HOME`), the executable they run and the store folder they hand it. `noise
/// autostart`, `noise schedule`, `weaver weather autorefresh` and `weaver desktop --autostart`
/// all take theirs from `resolve`, so `--store` and `$WIDGETWEAVER_HOME` are honoured the same way
/// by each (two tools once wrote entries for different stores).
public struct LoginEntryTarget: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME` (default `~/.config`): `systemd/user/` and `autostart/` are below it.
    public let configHome: URL
    /// The executable the entries run (absolute).
    public let executable: URL
    /// The store folder to pass as `--store`, nil for the default store (the program started later
    /// resolves that itself).
    public let storeDirectory: String?

    public init(configHome: URL, executable: URL, storeDirectory: String? = nil) {
        self.configHome = configHome
        self.executable = executable
        self.storeDirectory = storeDirectory
    }

    /// The target for `executable` with the store `--store PATH` names (nil when the option was
    /// not given), in `environment`.
    public static func resolve(
        executable: URL, storePath: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> LoginEntryTarget {
        LoginEntryTarget(
            configHome: LoginEntries.configHome(environment: environment), executable: executable,
            storeDirectory: storeDirectory(path: storePath, environment: environment))
    }

    /// The folder to hand on to a process started later: the one the user chose with `--store`
    /// or `$WIDGETWEAVER_HOME`, absolute; nil when neither was given.
    public static func storeDirectory(path: String?, environment: [String: String]) -> String? {
        if let path, !path.isEmpty { return URL(fileURLWithPath: path).standardizedFileURL.path }
        if let home = environment["WIDGETWEAVER_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).standardizedFileURL.path
        }
        return nil
    }

    /// The command line an entry runs: the executable, `words`, then `--store DIR` when a store
    /// was chosen (`--store` is an option of each subcommand, so it comes after the words).
    public func command(_ words: [String]) -> [String] {
        [executable.path] + words + (storeDirectory.map { ["--store", $0] } ?? [])
    }

    /// The systemd user folder.
    public var unitFolder: URL { configHome.appendingPathComponent("systemd/user") }

    /// A systemd user unit file.
    public func unitURL(_ unitName: String) -> URL { configHome.appendingPathComponent("systemd/user/\(unitName)") }

    /// The link `systemctl --user enable` makes for a unit wanted by `target` ("default.target").
    public func wantsLinkURL(_ unitName: String, wantedBy target: String) -> URL {
        configHome.appendingPathComponent("systemd/user/\(target).wants/\(unitName)")
    }

    /// An XDG autostart desktop entry.
    public func autostartURL(_ desktopName: String) -> URL {
        configHome.appendingPathComponent("autostart/\(desktopName)")
    }
}
