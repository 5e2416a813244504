import ArgumentParser
import CLISupport
import Foundation
import NoiseEngine
import ShareLinks

extension Noise {
    /// `noise share`: a mix as a link (and a QR code) that carries it whole; `--link` on play and render reads one.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Share a mix as a link and a QR code that carry it whole (no server, nothing uploaded).",
            usage: """
                noise share [--preset <preset> | --mix <mix> | --link <link>]
                  [--png <png>] [--no-qr] [<options>]
                """,
            discussion: """
                The link opens in any 'weaver serve' page and plays with 'noise play --link URL'. It is at most \
                \(ShareLink.maximumCharacters) characters, checksummed: a damaged or altered link is refused.
                Examples:
                  noise share --preset rain
                  noise share --mix my-mix.json --png rain-qr.png
                  noise play --link 'http://127.0.0.1:8765/share#ww1.mix.…'
                """)

        @OptionGroup var source: MixSourceOptions
        @OptionGroup var storeOption: StoreOption

        @Option(name: .customLong("png"), help: "Also write the QR code as a PNG to this file.")
        var pngPath: String?

        @Flag(name: .customLong("no-qr"), help: "Print the link only, without the QR code.")
        var linkOnly = false

        func validate() throws {
            try source.requireSource()
        }

        func run() throws {
            let (mix, _) = try source.load(store: storeOption.root)
            let link = try ShareLink(kind: .mix, json: [UInt8](mix.encodedJSON())).text()
            try ShareLinkOutput.show(link, pngPath: pngPath, linkOnly: linkOnly, exampleName: "mix-qr.png")
        }
    }
}
