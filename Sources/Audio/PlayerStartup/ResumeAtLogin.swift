import Foundation
import LoginEntryFiles
import NoiseControl

#if canImport(Glibc)
    import Glibc
#endif

/// Resume at login as one switch: the login entry (`Autostart`) and the Last Mix's
/// `resumeOnLaunch` flag together. `noise autostart enable/disable` and the Noise widget's
/// resume button both go through here.
public struct ResumeAtLogin: Sendable {
    public let autostart: Autostart
    public let store: LastMixStore
    public let environment: [String: String]

    public init(
        autostart: Autostart, store: LastMixStore,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.autostart = autostart
        self.store = store
        self.environment = environment
    }

    /// On when the flag is set and a login entry is installed (what `noise autostart status` shows).
    public func isOn() throws -> (on: Bool, load: LastMixLoad) {
        let load = try store.load()
        return ((load.lastMix?.resumeOnLaunch ?? false) && autostart.installed().isInstalled, load)
    }

    public struct Change: Sendable {
        /// Files written (enable) or removed (disable).
        public var files: [URL]
        /// Problems met on the way (set-aside Last Mix, a failed systemd reload), for the user.
        public var messages: [String]
        public var method: Autostart.Method?
    }

    /// `method` nil: systemd when it runs the session, else XDG autostart.
    public static func defaultMethod() -> Autostart.Method { LoginEntries.systemdIsRunning() ? .systemd : .xdg }

    /// Installs one login entry (removing the other kind, so two players never race at login) and
    /// turns the flag on.
    public func enable(method: Autostart.Method? = nil) throws -> Change {
        let method = method ?? Self.defaultMethod()
        _ = try autostart.remove()
        let files = try autostart.install(method)
        let (_, load) = try store.update { $0.resumeOnLaunch = true }
        var messages = load.messages
        if method == .systemd, let problem = reloadSystemd() { messages.append(problem) }
        return Change(files: files, messages: messages, method: method)
    }

    /// Removes the login entries and turns the flag off (without creating a Last Mix when there is none).
    public func disable() throws -> Change {
        let removed = try autostart.remove()
        var messages: [String] = []
        let load = try store.load()
        messages += load.messages
        if load.lastMix != nil { try store.update { $0.resumeOnLaunch = false } }
        if removed.contains(autostart.unitURL), let problem = reloadSystemd() { messages.append(problem) }
        return Change(files: removed, messages: messages, method: nil)
    }

    /// Tells a running systemd user manager about the changed unit; harmless when there is none.
    /// Returns a note when the reload failed.
    public func reloadSystemd() -> String? {
        UserSystemd.run(["daemon-reload"], environment: environment)
    }
}
