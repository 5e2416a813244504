import Foundation
import SystemCalls

/// A child process started with posix_spawn and reaped with waitpid, with its output collected
/// through pipes by plain threads. Tests use this instead of Foundation's `Process`, whose child
/// monitor on Linux was seen missing a child's exit (a test then waits forever) while other
/// long-running children exist.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()
    private var readers: [Thread] = []
    private let readersDone = DispatchGroup()
    private var exitStatus: Int32?

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// The command line, for messages.
    public let command: String

    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: Data? = nil
    ) throws {
        command = ([executable] + arguments).joined(separator: " ")
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Close-on-exec: children started at the same moment by other tests must not inherit these
        // ends (a long-lived child holding another's stdout open keeps its reader from EOF).
        // (Glibc's module does not export pipe2: set the flag just after; the window is tiny.)
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw Failure(description: "pipe failed: \(String(cString: strerror(errno)))")
        }
        for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let child: pid_t
        do {
            child = try Spawn.start(
                executable, arguments, environment: env, stdin: .descriptor(inPipe[0]),
                stdout: .descriptor(outPipe[1]), stderr: .descriptor(errPipe[1]), closing: inPipe + outPipe + errPipe)
        } catch {
            for fd in inPipe + outPipe + errPipe { close(fd) }
            throw Failure(description: "\(error)")
        }
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        pid = child
        for (fd, isErr) in [(outPipe[0], false), (errPipe[0], true)] {
            readersDone.enter()
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    lock.withLock {
                        if isErr {
                            errData.append(contentsOf: buffer[0..<n])
                        } else {
                            outData.append(contentsOf: buffer[0..<n])
                        }
                    }
                }
                close(fd)
                readersDone.leave()
            }
            thread.start()
        }
        if let stdin {
            stdin.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(inPipe[1], raw.baseAddress! + offset, raw.count - offset)
                    if n <= 0 { if errno == EINTR { continue } else { break } }
                    offset += n
                }
            }
        }
        close(inPipe[1])
    }

    public var stdout: Data { lock.withLock { outData } }
    public var stderr: Data { lock.withLock { errData } }

    /// Non-nil once the child has exited: its exit status, or 128 + the signal that ended it.
    public func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == -1 && errno == ECHILD {
            exitStatus = -1  // reaped elsewhere: gone, status unknown
            return -1
        }
        guard r == pid else { return nil }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }

    /// Waits for the exit (and for the output pipes to close, up to 5 s more). A child still
    /// running after `timeoutSeconds` is killed (SIGKILL, status 137) and named on standard error:
    /// a hung child fails its test instead of holding the whole run until CI's limit.
    @discardableResult
    public func wait(timeoutSeconds: Double = 180) -> Int32 {
        if Wait.until(timeoutSeconds, interval: 0.002, { poll() }) == nil {
            FileHandle.standardError.write(
                Data("ChildProcess: \(command) still running after \(Int(timeoutSeconds)) s; killed\n".utf8))
            kill(pid, SIGKILL)
            deadlineKill()
        }
        _ = readersDone.wait(timeout: .now() + 5)
        return exitStatus!
    }

    public func signal(_ sig: Int32) { kill(pid, sig) }

    private func deadlineKill() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exitStatus = 137
    }
}
