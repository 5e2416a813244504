/// The XDG base directories, resolved in one place from an environment (passed in so tests and
/// `--store` can use their own). Per the XDG Base Directory specification a value that is not an
/// absolute path is ignored, as if unset.
public struct XDGDirectories: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The variables these folders are read from.
    public static let variableNames = [
        "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_CACHE_HOME",
        "XDG_RUNTIME_DIR",
    ]

    /// This process's folders, with `extra` variables beside them in `environment`. Read with
    /// getenv(3): `ProcessInfo.environment` builds a dictionary of the whole environment, ~0.7 M
    /// instructions, which the paths every `weaver render` start takes avoid (issue 41 item 25).
    public static func ofThisProcess(extra: [String] = []) -> XDGDirectories {
        var environment: [String: String] = [:]
        for name in variableNames + extra {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return XDGDirectories(environment: environment)
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`: presets, autostart entries, systemd user units.
    public var configHome: String { absolute("XDG_CONFIG_HOME") ?? home + "/.config" }

    /// `$XDG_STATE_HOME`, else `~/.local/state`: the shared store.
    public var stateHome: String { absolute("XDG_STATE_HOME") ?? home + "/.local/state" }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String { absolute("XDG_DATA_HOME") ?? home + "/.local/share" }

    /// `$XDG_DATA_DIRS` (absolute entries only), else `/usr/local/share` and `/usr/share`:
    /// where installed desktop files and icons are searched after `dataHome`.
    public var dataDirectories: [String] {
        let list = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return list.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`: caches that may be deleted at any time (font caches).
    public var cacheHome: String { absolute("XDG_CACHE_HOME") ?? home + "/.cache" }

    /// `$XDG_RUNTIME_DIR`, or nil when unset: the caller chooses its own fallback (a private
    /// folder under /tmp), since the specification leaves that to the application.
    public var runtimeDirectory: String? { absolute("XDG_RUNTIME_DIR") }

    /// `$HOME`, else the password database's entry for this user.
    public var home: String {
        if let h = absolute("HOME") { return h }
        return PasswordDatabase.homeDirectory() ?? "/"
    }

    private func absolute(_ name: String) -> String? {
        guard let value = environment[name], value.hasPrefix("/") else { return nil }
        return value
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension XDGDirectories {
    /// The folder an application keeps sockets and heartbeats in: `$XDG_RUNTIME_DIR/APP` (a tmpfs
    /// private to the user), or `/tmp/APP-$UID` without one — the caller must then check that the
    /// folder is its own, since anyone can create a name under /tmp.
    public func runtimeFolder(application: String) -> String {
        if let runtime = runtimeDirectory { return runtime + "/" + application }
        return "/tmp/\(application)-\(getuid())"
    }
}
