import Dispatch
import Foundation
import HomeScreen
import NetworkAddress
import SharedStore
import SystemCalls
import WidgetActions

/// The browser app's server (home screen, Editor, mixer), started by `weaver serve` with options it
/// has already checked: `--listen ADDR --port N [--store DIR]`, the folder being the one to hand on
/// (`StoreOption.explicitDirectory`).
enum ServeHost {
    static func main(arguments: [String]) -> Int32 {
        var host: String?
        var port: Int?
        var storeDirectory: String?
        var rest = arguments[...]
        while let a = rest.popFirst() {
            switch a {
            case "--listen":
                guard let value = rest.popFirst() else { return fail("'--listen' needs an address") }
                host = value
            case "--port":
                guard let value = rest.popFirst(), let n = Int(value), (0...65535).contains(n) else {
                    return fail("'--port' needs a port, 0…65535")
                }
                port = n
            case "--store":
                guard let dir = rest.popFirst() else { return fail("'--store' needs a folder") }
                storeDirectory = dir
            default:
                return fail("unknown argument '\(a)' (weaver-serve is started by 'weaver serve')")
            }
        }
        guard let host, let port else {
            return fail("'--listen' and '--port' are needed (weaver-serve is started by 'weaver serve')")
        }
        return serve(host: host, port: port, storeDirectory: storeDirectory)
    }

    static func serve(host: String, port: Int, storeDirectory: String?) -> Int32 {
        let root = StoreRoot.resolve(override: storeDirectory)
        var mixer = Mixer(root: root)
        mixer.storeDirectory = storeDirectory
        let server = HomeScreenServer(
            listen: ListenAddress(host: host, port: port),
            board: RenderedBoard(
                root: root,
                perform: { action, root in
                    let outcome = try WidgetActionPerformer.perform(
                        rendered: action, root: root, storeDirectory: storeDirectory)
                    for w in outcome.warnings { warn(w) }
                    // The page's Undo takes a completed reminder back as the desktop widget's does.
                    let undo = outcome.undo.map { press in
                        { @Sendable in
                            try WidgetActionPerformer(store: root, storeDirectory: storeDirectory).undo(press).message
                        }
                    }
                    return TapOutcome(message: outcome.message, undo: undo)
                }),
            mixer: mixer)
        let watcher = StoreWatcher(root: root, server: server)
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run(services: [watcher]) { url in
                    let note =
                        ListenAddress(host: host, port: 0).isLoopback
                        ? "" : " (the token in it is needed; it changes each run)"
                    writeLine("Serving the home screen at \(url)\(note)")
                    writeLine("Ctrl-C stops it.")
                }
            } catch {
                outcome.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error {
            return fail("cannot serve on \(ListenAddress.authority(host: host, port: port)): \(error)")
        }
        return 0
    }

    static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        return 1
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }
}

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    func set(_ e: any Error) { lock.withLock { stored = e } }
    var error: (any Error)? { lock.withLock { stored } }
}

/// Stdout is a pipe for scripts and tests: flush each line.
private func writeLine(_ s: String) {
    FileHandle.standardOutput.write(Data((s + "\n").utf8))
}
