import Foundation

/// A private headless Wayland compositor (sway with `WLR_BACKENDS=headless`, pixman renderer, no
/// Xwayland) for one test, stopped by its PID. sway refuses to run as root ("Unable to drop
/// root"), so as root it runs as `nobody` through setpriv, in a runtime folder owned by nobody;
/// clients running as root may still connect to its socket.
public final class SwayServer: @unchecked Sendable {
    public let runtime: URL
    public let width: Int, height: Int
    private var server: PrivateDaemon?

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": runtime.path, "DISPLAY": "", "GDK_BACKEND": "wayland"]
    }

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") }

    /// The wallpaper colour (swaybg): widgets' transparent corners show it, as on a real desktop.
    public let wallpaper: String

    public init(width: Int = 1280, height: Int = 800, wallpaper: String = "#336699") throws {
        self.wallpaper = wallpaper
        self.width = width
        self.height = height
        guard Self.isAvailable else { throw Failure(description: "sway is not installed (apt package sway)") }
        runtime = try Products.temporaryDirectory("sway")
        let config = runtime.appendingPathComponent("config")
        try Data("output HEADLESS-1 resolution \(width)x\(height) bg \(wallpaper) solid_color\nxwayland disable\n".utf8)
            .write(to: config)
        let env = [
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
            "XDG_RUNTIME_DIR": runtime.path, "HOME": runtime.path, "WAYLAND_DISPLAY": "", "DISPLAY": "",
        ]
        var command = ["/usr/bin/sway", "-c", config.path]
        if getuid() == 0 {
            chmod(runtime.path, 0o700)
            chown(runtime.path, 65534, 65534)
            chown(config.path, 65534, 65534)
            command = ["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"] + command
        }
        let socket = runtime.appendingPathComponent("wayland-1").path
        do {
            server = try PrivateDaemon(command[0], Array(command.dropFirst()), environment: env) { _ in
                FileManager.default.fileExists(atPath: socket) && self.swaymsgWorks()
            }
        } catch {
            try? FileManager.default.removeItem(at: runtime)
            throw error
        }
    }

    deinit { stop() }

    private func swaymsgWorks() -> Bool { ((try? msg(["-t", "get_outputs"]))?.status ?? 1) == 0 }

    /// `swaymsg` against this compositor's IPC socket.
    public func msg(_ arguments: [String]) throws -> Products.Result {
        let sockets =
            (try? FileManager.default.contentsOfDirectory(atPath: runtime.path))?.filter { $0.hasPrefix("sway-ipc.") }
            ?? []
        guard let ipc = sockets.first else {
            return Products.Result(status: 1, stdout: Data(), stderr: Data("no IPC socket yet".utf8))
        }
        return try run("/usr/bin/swaymsg", ["-s", runtime.appendingPathComponent(ipc).path] + arguments)
    }

    public func run(_ tool: String, _ arguments: [String]) throws -> Products.Result {
        try PrivateDaemon.run(tool, arguments, environment: environment)
    }

    /// A screenshot of the output's rectangle with grim (PNG).
    public func screenshot(x: Int, y: Int, width: Int, height: Int, to url: URL) throws -> [UInt8] {
        let r = try run("/usr/bin/grim", ["-g", "\(x),\(y) \(width)x\(height)", url.path])
        guard r.status == 0 else { throw Failure(description: "grim failed: \(r.stderrText)") }
        return [UInt8](try Data(contentsOf: url))
    }

    public func stop() {
        guard let server else { return }
        server.stop()
        self.server = nil
        try? FileManager.default.removeItem(at: runtime)
    }
}
