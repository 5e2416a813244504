import ArgumentParser
import CLISupport
import Foundation
import HomeScreen

extension Weaver {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the app to a browser on this machine: home screen, Editor and mixer.",
            discussion: """
                Shows the Noise Machine widget and every design as live widgets whose buttons work, the \
                Editor (/editor: design a widget while every size redraws; see docs/editor.md) and the \
                mixer (/noise). Answers on loopback only unless --listen names another address; then every \
                request needs the token in the URL it prints. Ctrl-C stops it.
                """
        )

        @OptionGroup var storeOption: StoreOption

        @Option(numeric: ArgumentHelp("Port to listen on, 0…65535 (0 picks a free one).", valueName: "port"))
        var port = ListenAddress.defaultPort

        @Option(help: ArgumentHelp("Address to listen on: an IPv4 or IPv6 address of this machine.", valueName: "addr"))
        var listen = "127.0.0.1"

        func validate() throws {
            guard (0...65535).contains(port) else {
                throw ValidationError("'--port' \(port) is out of range; allowed 0…65535")
            }
            let address = ListenAddress(host: listen, port: port)
            guard address.isLiteral || listen == "localhost" else {
                throw ValidationError(
                    "'--listen' needs an IP address of this machine (e.g. 127.0.0.1 or 192.168.1.20), not '\(listen)'")
            }
            guard !address.isUnspecified else {
                throw ValidationError(
                    """
                    '--listen' \(listen) names no single address, so the Host check could not work; give the \
                    address browsers will use (e.g. 192.168.1.20)
                    """
                )
            }
        }

        func run() throws {
            let host = listen == "localhost" ? "127.0.0.1" : listen
            let root = storeOption.root
            let storeDirectory = storeOption.explicitDirectory
            var mixer = Mixer(root: root)
            mixer.storeDirectory = storeDirectory
            let server = HomeScreenServer(
                listen: ListenAddress(host: host, port: port),
                board: RenderedBoard(
                    root: root,
                    perform: { action, root in
                        let outcome = try TapPerformer.perform(action, root: root, storeDirectory: storeDirectory)
                        for w in outcome.warnings { printWarning(w) }
                        return outcome.message
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
                FileHandle.standardError.write(
                    Data("Error: cannot serve on \(ListenAddress.authority(host: host, port: port)): \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
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
