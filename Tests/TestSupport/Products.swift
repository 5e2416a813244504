import Foundation

/// Runs the package's built executables (`noise`, `weaver`) from tests, the way a user would.
public enum Products {
    /// The folder holding the built products: the test runner lives there too.
    public static var directory: URL {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On Linux the runner is `<bin>/<Package>PackageTests.xctest` (a file); on other layouts walk up.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("noise").path),
              dir.path != "/" {
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
    public static func run(_ name: String, _ arguments: [String], stdin: Data? = nil,
                           environment: [String: String] = [:], currentDirectory: URL? = nil) throws -> Result {
        let p = Process()
        p.executableURL = url(name)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let inPipe = Pipe()
        p.standardInput = inPipe
        try p.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()
        p.waitUntilExit()
        group.wait()
        return Result(status: p.terminationStatus, stdout: outData, stderr: errData)
    }

    /// A fresh temporary folder, removed by the caller when done.
    public static func temporaryDirectory(_ label: String = "ww") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
