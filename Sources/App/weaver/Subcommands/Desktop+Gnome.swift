import ArgumentParser
import CLISupport
import DesktopWidgets
import Foundation
import LiveWidgets
import SharedStore
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

extension Weaver.Desktop {
    struct Gnome: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gnome",
            abstract: "The GNOME Shell extension that shows the widgets on GNOME's desktop.",
            discussion: """
                GNOME has no layer-shell: there the widgets are drawn by a GNOME Shell extension, under every \
                window and on every workspace. 'install' puts it in ~/.local/share/gnome-shell/extensions; \
                enable it with 'gnome-extensions enable \(GnomeExtension.uuid)' (on Wayland, log out and in \
                first: the shell looks for new extensions at login).
                """,
            subcommands: [Install.self, Feed.self])
    }
}

extension Weaver.Desktop.Gnome {
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install the GNOME Shell extension for this user (or into a folder).",
            usage: """
                weaver desktop gnome install [--shell-version <major>]
                  [--into <dir>] [--weaver <path>]
                """)

        @Option(
            numeric: ArgumentHelp(
                "The GNOME Shell version to install for, 43 or later (default: 'gnome-shell --version').",
                valueName: "major"))
        var shellVersion: Int?

        @Option(
            help: ArgumentHelp(
                "The extensions folder (default: ~/.local/share/gnome-shell/extensions).",
                valueName: "dir"))
        var into: String?

        @Option(help: ArgumentHelp("The weaver the extension runs (default: this one).", valueName: "path"))
        var weaver: String?

        func validate() throws {
            if let shellVersion, !(GnomeExtension.oldestShell...99).contains(shellVersion) {
                throw ValidationError(
                    """
                    '--shell-version' must be \(GnomeExtension.oldestShell)…99 (GNOME Shell's major version); got \
                    \(shellVersion)
                    """
                )
            }
        }

        func run() throws {
            let exe = Weaver.Desktop.selfExecutable()
            guard let source = GnomeExtension.sourceFolder(executable: exe) else {
                throw CommandError(
                    """
                    the extension's sources are missing: looked in \
                    \(exe.deletingLastPathComponent().deletingLastPathComponent().path)/share/widgetweaver/gnome-shell \
                    (make install puts them there)
                    """
                )
            }
            let major = try shellVersion ?? Self.runningShellMajor()
            let env = ProcessInfo.processInfo.environment
            let folder = into.map { URL(fileURLWithPath: $0) } ?? GnomeExtension.userFolder(environment: env)
            let files: [URL]
            do {
                files = try GnomeExtension.install(
                    into: folder, from: source, shellMajor: major, weaver: weaver ?? exe.path)
            } catch let failure as GnomeExtension.Failure {
                throw CommandError(failure.description)
            }
            for file in files { print("Wrote \(file.path)") }
            guard into == nil else { return }
            print(
                """
                Installed the GNOME Shell \(major >= GnomeExtension.moduleShell ? "45+" : "43–44") extension. \
                Enable it with:
                  gnome-extensions enable \(GnomeExtension.uuid)
                On Wayland, log out and back in first (GNOME Shell looks for new extensions at login).
                """
            )
        }

        static func runningShellMajor() throws -> Int {
            let out = Weaver.Desktop.capture(["gnome-shell", "--version"])
            guard let out, let major = GnomeExtension.parseShellVersion(out) else {
                throw CommandError(
                    "cannot tell GNOME Shell's version ('gnome-shell --version' did not answer): give '--shell-version'"
                )
            }
            return major
        }
    }

    /// Run by the extension, not by hand: draws the widgets for the shell's monitors and prints a
    /// line of JSON per change (see `GnomeFeed`), until its standard input closes or a signal.
    struct Feed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feed",
            abstract: "Draw the desktop widgets for the GNOME Shell extension (it runs this).",
            discussion: """
                Writes a PNG per widget and monitor into '--out' and a line of JSON per change on standard \
                output, woken as 'weaver render --watch' is. Ends when standard input closes.
                """)

        @Option(help: ArgumentHelp("The folder for the PNGs (made 0700).", valueName: "dir"))
        var out: String

        @Option(
            help: ArgumentHelp(
                "Each monitor's size in points and scale, e.g. 1280x800@1,1920x1080@2.",
                valueName: "list"))
        var monitors: String

        @OptionGroup var store: StoreOption

        func validate() throws {
            guard GnomeFeed.Monitor.parseList(monitors) != nil else {
                throw ValidationError(
                    """
                    '--monitors' must be WIDTHxHEIGHT@SCALE items separated by commas (1 to 16; sizes 1…\
                    \(Placement.coordinateRange.upperBound), scales 1…3); got '\(monitors)'
                    """
                )
            }
        }

        /// `weaver serve`'s default port, or `WEAVER_DESKTOP_SERVE_PORT` (as for the GTK host's menu).
        static func editorPort(_ environment: [String: String]) -> Int {
            guard let text = environment["WEAVER_DESKTOP_SERVE_PORT"], let port = Int(text), (1...65535).contains(port)
            else { return 8765 }
            return port
        }

        func run() throws {
            let folder = URL(fileURLWithPath: out)
            try FileSystem.makeDirectory(folder)
            let feed = GnomeFeed(
                root: store.root, folder: folder, monitors: GnomeFeed.Monitor.parseList(monitors)!,
                weaver: Weaver.Desktop.selfExecutable().path, storeDirectory: store.explicitDirectory,
                editorPort: Self.editorPort(ProcessInfo.processInfo.environment))
            let wakeups = try StoreWakeups(
                root: store.root, alsoWatching: [DesktopWidgetList.url(store.root).path], warn: { printWarning($0) })
            wakeups.watcher.stopOnSignals([SIGINT, SIGTERM])
            // The shell holds the other end of standard input: when it goes (disabled, crashed,
            // logged out), so does the feed.
            let watcher = wakeups.watcher
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while retryOnInterrupt({ read(STDIN_FILENO, &byte, 1) }) > 0 {}
                watcher.stop()
            }
            var last: GnomeFeed.Manifest?
            try wakeups.run {
                do {
                    let (manifest, redrawAt) = try feed.refresh(now: Date(), warn: { printWarning($0) })
                    try wakeups.redraw(at: redrawAt)
                    guard manifest != last else { return }
                    try FileDescriptorIO.writeAll(STDOUT_FILENO, [UInt8](try GnomeFeed.line(manifest)))
                    // After the first drawing: the start-up code's pages go (see CodeResidency).
                    if last == nil { CodeResidency.trim() }
                    last = manifest
                } catch {
                    // Keep what is shown (a design mid-edit, a store file set aside) and go on.
                    printWarning("not redrawn: \(error)")
                }
            }
            for path in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where path.hasPrefix("widget-") {
                unlink(folder.appendingPathComponent(path).path)
            }
        }
    }
}

extension Weaver.Desktop {
    /// This weaver (the path the extension and its commands run).
    static func selfExecutable() -> URL {
        URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
    }

    /// A tool's standard output, or nil when it cannot start or fails (found on PATH).
    static func capture(_ command: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// On GNOME Wayland: the extension shows the widgets when it is enabled (nothing to run here);
    /// otherwise says how to install and enable it. Ordinary windows are never opened there.
    func runOnGnome() throws {
        let count = (try? DesktopWidgetList.load(store.root, warn: { printWarning($0) }).widgets.count) ?? 0
        // The shell's own answer (its org.gnome.Shell.Extensions interface): `gnome-extensions`
        // asks a separate service the session bus must start, this needs only the shell.
        let info = Self.capture([
            "gdbus", "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell",
            "--method", "org.gnome.Shell.Extensions.GetExtensionInfo", GnomeExtension.uuid,
        ])
        let state = info.flatMap(GnomeExtension.parseExtensionState)
        if state == .enabled {
            print(
                """
                GNOME Shell shows the desktop widgets through the WidgetWeaver extension (enabled): \
                \(count) widget\(count == 1 ? "" : "s") in \(DesktopWidgetList.url(store.root).path); 'weaver \
                desktop add/move/remove' show at once. Nothing to run here.
                """
            )
            return
        }
        let step =
            state == nil || state == .missing
            ? """
            install it and enable it:
              weaver desktop gnome install
              (log out and back in: GNOME Shell looks for new extensions at login)
              gnome-extensions enable \(GnomeExtension.uuid)
            """
            : """
            it is installed but not enabled; enable it:
              gnome-extensions enable \(GnomeExtension.uuid)
            """
        throw CommandError(
            """
            GNOME on Wayland has no layer-shell, so widgets there would be ordinary windows (in Alt-Tab, above \
            other windows). The WidgetWeaver GNOME Shell extension puts them on the desktop instead; \
            \(step)
            """
        )
    }
}
