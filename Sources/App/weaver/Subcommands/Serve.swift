import ArgumentParser
import CLISupport
import Foundation
import NetworkAddress
import SystemCalls

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

        /// Becomes `weaver-serve` (beside this weaver), which links the HTTP server, the browser
        /// app's files and the audio outputs (Noise → Calibrate): kept out of `weaver` itself, which
        /// status bars start every minute (issue 41 item 25; see Package.swift).
        func run() throws {
            let server = Self.serverExecutable()
            guard FileManager.default.isExecutableFile(atPath: server.path) else {
                throw CommandError(
                    "the server program \(server.path) is missing: it is installed with weaver (make install builds it)"
                )
            }
            let arguments =
                [server.path, "--listen", listen == "localhost" ? "127.0.0.1" : listen, "--port", String(port)]
                + (storeOption.explicitDirectory.map { ["--store", $0] } ?? [])
            let argv = arguments.map { strdup($0) } + [nil]
            execv(server.path, argv)
            throw CommandError("cannot start \(server.path): \(SystemCallError.reason(errno))")
        }

        /// `weaver-serve`, beside this weaver.
        static func serverExecutable() -> URL { programBesideWeaver("weaver-serve") }
    }
}
