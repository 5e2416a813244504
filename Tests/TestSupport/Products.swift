import Foundation

/// Runs the package's built executables (`noise`, `weaver`) from tests, the way a user would.
public enum Products {
    /// The folder holding the built products: the test runner lives there too.
    public static var directory: URL {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On Linux the runner is `<bin>/<Package>PackageTests.xctest` (a file); on other layouts walk up.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("noise").path),
            dir.path != "/"
        {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `name` with `arguments`, optional standard input and extra environment; waits for it.
    public static func run(
        _ name: String, _ arguments: [String], stdin: Data? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let child = try ChildProcess(url(name).path, arguments, environment: environment, stdin: stdin)
        let status = child.wait()
        return Result(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// A fresh temporary folder, removed by the caller when done.
    public static func temporaryDirectory(_ label: String = "ww") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A temporary folder holding a private `home/` and `run/` (0700, as `$XDG_RUNTIME_DIR` must be):
    /// where a sound server started for one test keeps its state.
    public static func homeAndRuntimeDirectory(_ label: String) throws -> URL {
        let url = try temporaryDirectory(label)
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("home"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return url
    }
}

/// A product started in the background, its output collected as it comes.
public final class Spawned: @unchecked Sendable {
    public let child: ChildProcess

    public init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        child = try ChildProcess(Products.url(name).path, arguments, environment: environment)
    }

    public var processIdentifier: Int32 { child.pid }
    public var stderrText: String { String(decoding: child.stderr, as: UTF8.self) }
    public var stdoutText: String { String(decoding: child.stdout, as: UTF8.self) }

    /// Waits until `predicate` holds for stderr, up to `seconds`; true if it did.
    public func waitForStderr(_ seconds: Double, _ predicate: (String) -> Bool) -> Bool {
        eventually(seconds) { predicate(stderrText) }
    }

    /// Waits for exit up to `seconds`; nil if it is still running (then it is killed).
    public func waitForExit(_ seconds: Double) -> Int32? {
        if !eventually(seconds, { child.poll() != nil }) {
            child.signal(SIGKILL)
            child.wait()
            return nil
        }
        return child.wait()
    }

    public func signal(_ sig: Int32) { child.signal(sig) }

    /// SIGTERM, then `waitForExit(seconds)`: how a test ends a server or host it started.
    @discardableResult
    public func terminate(waitingSeconds seconds: Double = 10) -> Int32? {
        signal(SIGTERM)
        return waitForExit(seconds)
    }
}
