import Foundation

/// A real GNOME Shell for one test: `gnome-shell --headless --virtual-monitor WxH --wayland
/// --no-x11 --unsafe-mode` (software rendering, no GPU), on a private session bus and a private
/// "system" bus (the shell aborts at start without one: LoginManager), with the HOME and runtime
/// folder of a private PulseAudio so what it starts plays there. Everything is stopped by PID.
/// `--unsafe-mode` lets the test call `org.gnome.Shell.Eval` and the Screenshot interface.
/// See ../shared/notes/desktop-and-multiroom.md.
public final class GnomeShellServer: @unchecked Sendable {
    public let pulse: PulseServer
    public let sessionBus: SessionBus
    let systemBus: SessionBus
    private var shell: ChildProcess?
    public let width: Int, height: Int
    /// The solid wallpaper colour the test sets (widgets' transparent corners show it).
    public let wallpaper: String

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-shell") }

    /// What a client of this shell needs: its Wayland socket, buses, HOME and PulseAudio.
    public var environment: [String: String] {
        pulse.environment.merging(sessionBus.environment) { $1 }.merging([
            "DBUS_SYSTEM_BUS_ADDRESS": systemBus.environment["DBUS_SESSION_BUS_ADDRESS"]!,
            "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": "", "XDG_CURRENT_DESKTOP": "GNOME",
            "XDG_SESSION_TYPE": "wayland",
        ]) { $1 }
    }

    public var processIdentifier: pid_t? { shell?.pid }

    /// - Parameter extraEnvironment: the shell's too, and so the extension's processes' (a store folder).
    /// - Parameter beforeStart: runs with `environment` before the shell starts (it looks for
    ///   extensions only then: install one here).
    public init(
        width: Int = 1280, height: Int = 800, wallpaper: String = "#336699", extraEnvironment: [String: String] = [:],
        beforeStart: ([String: String]) throws -> Void = { _ in }
    ) throws {
        guard Self.isInstalled else {
            throw Failure(description: "gnome-shell is not installed (make test installs the gnome-shell package)")
        }
        self.width = width
        self.height = height
        self.wallpaper = wallpaper
        pulse = try PulseServer()
        sessionBus = try SessionBus()
        systemBus = try SessionBus()
        do {
            try beforeStart(environment)
        } catch {
            stop()
            throw error
        }
        let child = try ChildProcess(
            "/usr/bin/gnome-shell",
            ["--headless", "--virtual-monitor", "\(width)x\(height)", "--wayland", "--no-x11", "--unsafe-mode"],
            environment: environment.merging(["GSETTINGS_BACKEND": "memory"]) { $1 }.merging(extraEnvironment) { $1 })
        shell = child
        // Up when Eval answers; then the overview it opens at start is closed and the wallpaper made solid.
        // Up, and past its start-up animation (which ends by showing the overview), or exited.
        _ = Wait.until(60, interval: 0.25) {
            child.poll() != nil || (try? eval("Main.layoutManager._startingUp")) == "false" ? true : nil
        }
        if child.poll() != nil {
            let log = String(decoding: child.stderr.suffix(3000), as: UTF8.self)
            stop()
            throw Failure(description: "gnome-shell exited at start: \(log)")
        }
        guard (try? eval("Main.layoutManager._startingUp")) == "false" else {
            stop()
            throw Failure(description: "gnome-shell did not finish starting (org.gnome.Shell.Eval) within 60 s")
        }
        _ = try eval(
            """
            const s = new imports.gi.Gio.Settings({schema_id: 'org.gnome.desktop.background'});
            for (const k of ['picture-uri', 'picture-uri-dark']) s.set_string(k, '');
            s.set_string('picture-options', 'none'); s.set_string('color-shading-type', 'solid');
            s.set_string('primary-color', '\(wallpaper)');
            Main.overview.hide(); Main.messageTray.bannerBlocked = true; 1
            """)
        // The overview's closing animation.
        _ = Wait.until(10, interval: 0.1) {
            (try? eval("Main.overview.visible || Main.overview.animationInProgress")) == "false" ? true : nil
        }
    }

    deinit { stop() }

    /// Evaluates JavaScript in the shell (`org.gnome.Shell.Eval`) and returns its result as the
    /// shell gives it: JSON (`1`, `true`, `"text"`, `[…]`). Throws with the shell's exception when it fails.
    @discardableResult
    public func eval(_ script: String) throws -> String {
        let r = try sessionBus.run(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell", "--method",
                "org.gnome.Shell.Eval", script,
            ])
        guard r.status == 0 else { throw Failure(description: "gdbus Eval failed: \(r.stderrText)") }
        let (ok, value) = try Self.parseEvalReply(r.stdoutText)
        guard ok else { throw Failure(description: "Eval threw: \(value)") }
        return value
    }

    /// `(true, 'text')` as gdbus prints a (bs) reply: single quotes, or double quotes when the
    /// text holds a single quote, with backslash escapes.
    static func parseEvalReply(_ reply: String) throws -> (Bool, String) {
        let text = reply.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("("), text.hasSuffix(")"), let comma = text.firstIndex(of: ",") else {
            throw Failure(description: "unexpected Eval reply: \(reply)")
        }
        let ok = text[text.index(after: text.startIndex)..<comma] == "true"
        var rest = text[text.index(after: comma)..<text.index(before: text.endIndex)].drop { $0 == " " }
        guard let quote = rest.first, quote == "'" || quote == "\"" else {
            throw Failure(description: "unexpected Eval reply: \(reply)")
        }
        rest = rest.dropFirst().dropLast()
        var value = ""
        var escaped = false
        for c in rest {
            if escaped {
                value.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                value.append(c)
            }
        }
        return (ok, value)
    }

    /// The whole screen through the shell's Screenshot interface (a real PNG of what it composited).
    public func screenshot(to url: URL) throws -> [UInt8] {
        try? FileManager.default.removeItem(at: url)
        let r = try sessionBus.run(
            "/usr/bin/gdbus",
            [
                "call", "--session", "--dest", "org.gnome.Shell.Screenshot", "--object-path",
                "/org/gnome/Shell/Screenshot", "--method", "org.gnome.Shell.Screenshot.Screenshot", "false", "false",
                url.path,
            ])
        guard r.status == 0, r.stdoutText.hasPrefix("(true") else {
            throw Failure(description: "Screenshot failed: \(r.stdoutText) \(r.stderrText)")
        }
        return [UInt8](try Data(contentsOf: url))
    }

    /// Presses (and releases) the pointer at a point of the screen with a Clutter virtual device.
    public func click(x: Double, y: Double, button: Int = 1, holdSeconds: Double = 0.05) throws {
        try pointer(x: x, y: y, button: button, pressed: true)
        Thread.sleep(forTimeInterval: holdSeconds)  // a click is a press held for a moment: the hold is the input
        try pointer(x: x, y: y, button: button, pressed: false)
    }

    /// Moves the virtual pointer to a point and presses or releases a button there.
    public func pointer(x: Double, y: Double, button: Int = 1, pressed: Bool?) throws {
        try eval(
            """
            const Clutter = imports.gi.Clutter, GLib = imports.gi.GLib;
            if (!global._wwTestPointer)
                global._wwTestPointer = Clutter.get_default_backend().get_default_seat()
                    .create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
            const d = global._wwTestPointer;
            d.notify_absolute_motion(GLib.get_monotonic_time(), \(x), \(y));
            \(pressed.map { "d.notify_button(GLib.get_monotonic_time(), \(button), \(Self.buttonState($0)));" } ?? "")
            1
            """)
    }

    static func buttonState(_ pressed: Bool) -> String {
        "Clutter.ButtonState." + (pressed ? "PRESSED" : "RELEASED")
    }

    /// The shell's CPU time so far (all threads, schedstat nanoseconds).
    public func cpuNanoseconds() -> Int {
        guard let pid = shell?.pid else { return 0 }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            return sum + (Int(text.split(separator: " ").first ?? "") ?? 0)
        }
    }

    /// The shell's standard error so far (its log).
    public var log: String { shell.map { String(decoding: $0.stderr, as: UTF8.self) } ?? "" }

    /// Stops the shell by its PID (SIGTERM, then SIGKILL after 10 s; it may crash on the way out:
    /// ignored), then the buses and PulseAudio.
    public func stop() {
        if let shell {
            shell.signal(SIGTERM)
            _ = Wait.until(10, interval: 0.05) { shell.poll() }
            if shell.poll() == nil {
                shell.signal(SIGKILL)
                _ = shell.wait()
            }
            self.shell = nil
        }
        sessionBus.stop()
        systemBus.stop()
        pulse.stop()
    }
}
