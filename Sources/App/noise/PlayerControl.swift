import Foundation
import NoiseControl
import NoiseEngine
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The control socket as the commands use it: a request either reaches a running player or the
/// command falls back to the store.
enum PlayerControl {
    static var client: ControlClient { ControlClient(socketPath: ControlPaths.socketURL()) }

    enum Delivery {
        case notRunning
        /// The player accepted the request; its status afterwards, when it sent one.
        case delivered(PlayerStatus?)
    }

    /// Sends `request`. An error response becomes a thrown `CLIError`.
    static func send(_ request: ControlRequest) throws -> Delivery {
        do {
            switch try client.send(request) {
            case .ok(let status): return .delivered(status)
            case .error(let message): throw CLIError("the player refused the request: \(message)")
            }
        } catch ControlError.notRunning {
            return .notRunning
        }
    }

    static func printLoadMessages(_ load: LastMixLoad) {
        for m in load.messages { Terminal.printError("warning: \(m)") }
    }
}

/// Unbuffered write to standard output, line by line (followers and status bars read it live).
/// A failed write is dropped: there is nowhere left to report it.
func writeStdout(_ text: String) { try? FileDescriptorIO.writeAll(1, Array(text.utf8)) }
