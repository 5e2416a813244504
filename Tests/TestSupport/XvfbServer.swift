import Foundation

/// A private X server (Xvfb) for one test, with no window manager and a black root window, stopped
/// by its PID. The display number is the one Xvfb picks itself (`-displayfd`), so tests running
/// at the same time never share a display.
public final class XvfbServer: @unchecked Sendable {
    public private(set) var display = ""
    public let width: Int, height: Int
    private var server: PrivateDaemon?

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// The environment for clients: this display, and no Wayland display to prefer over it.
    public var environment: [String: String] { ["DISPLAY": display, "WAYLAND_DISPLAY": "", "GDK_BACKEND": "x11"] }

    public init(width: Int = 1280, height: Int = 800) throws {
        self.width = width
        self.height = height
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            throw Failure(description: "Xvfb is not installed (make test installs it: apt package xvfb)")
        }
        // -displayfd 1: Xvfb writes the display number it chose to standard output once it is ready.
        func displayNumber(_ child: ChildProcess) -> Int? {
            let text = String(decoding: child.stdout, as: UTF8.self)
            return text.hasSuffix("\n") ? Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        }
        let daemon = try PrivateDaemon(
            "/usr/bin/Xvfb",
            ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-br", "-noreset"]
        ) { displayNumber($0) != nil }
        server = daemon
        display = ":\(displayNumber(daemon.process)!)"
    }

    deinit { stop() }

    public func stop() {
        server?.stop()
        server = nil
    }

    /// Runs an X client (xprop, xdotool, import) on this display.
    public func run(_ tool: String, _ arguments: [String]) throws -> Products.Result {
        try PrivateDaemon.run(tool, arguments, environment: environment)
    }

    /// A screenshot of the root window's rectangle as PNG bytes (ImageMagick's `import`).
    public func screenshot(x: Int, y: Int, width: Int, height: Int, to url: URL) throws -> [UInt8] {
        let r = try run(
            "/usr/bin/import",
            ["-window", "root", "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "PNG32:" + url.path])
        guard r.status == 0 else { throw Failure(description: "import failed: \(r.stderrText)") }
        return [UInt8](try Data(contentsOf: url))
    }
}
