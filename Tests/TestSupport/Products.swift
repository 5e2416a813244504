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

/// A product started in the background, its output collected as it comes.
public final class Spawned: @unchecked Sendable {
    public let process: Process
    private let lock = NSLock()
    private var errData = Data()
    private var outData = Data()
    private let group = DispatchGroup()

    public init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = Products.url(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        for (pipe, isErr) in [(err, true), (out, false)] {
            DispatchQueue.global().async(group: group) { [self] in
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    lock.withLock { if isErr { errData += chunk } else { outData += chunk } }
                }
            }
        }
    }

    public var stderrText: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }
    public var stdoutText: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }

    /// Waits until `predicate` holds for stderr, up to `seconds`; true if it did.
    public func waitForStderr(_ seconds: Double, _ predicate: (String) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if predicate(stderrText) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return predicate(stderrText)
    }

    /// Waits for exit up to `seconds`; nil if it is still running (then it is killed).
    public func waitForExit(_ seconds: Double) -> Int32? {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        group.wait()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    public func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }
}
