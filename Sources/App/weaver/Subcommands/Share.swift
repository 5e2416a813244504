import ArgumentParser
import CLISupport
import Foundation
import ShareLinks
import SharedStore
import WidgetDesign
import WidgetRender

extension Weaver {
    /// `weaver share DESIGN`: the design as a link and a QR code when it fits, else a .wwdesign file.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Share a design as a link and a QR code, or as a .wwdesign file when it is too large.",
            usage: "weaver share <design> [-o <file>] [--png <png>] [--no-qr] [<options>]",
            discussion: HelpText.prose(
                """
                The link carries the design whole (no server, nothing uploaded) in at most \
                \(ShareLink.maximumCharacters) characters; images never travel in a link (they are named on \
                standard error). A design that does not fit is written as a .wwdesign package, images included, \
                to the file given with -o. Open a link with 'weaver import LINK' or on any 'weaver serve' page.
                """)
        )
        @OptionGroup var store: StoreOption
        @Argument(help: "A design ID, unique ID prefix, or name.") var design: String
        @Option(name: .shortAndLong, help: "Where the .wwdesign file goes when the design is too large for a link.")
        var output: String?
        @Option(name: .customLong("png"), help: "Also write the link's QR code as a PNG to this file.")
        var pngPath: String?
        @Flag(name: .customLong("no-qr"), help: "Print the link only, without the QR code.")
        var linkOnly = false

        func run() throws {
            let lib = store.library
            let spec = try lib.load(try lib.resolve(design).id)
            let exported = try DesignExchange.export(
                [spec], embedImages: false, imagesFolder: store.root.images, now: Date())
            let link: String
            do {
                link = try ShareLink(kind: .design, json: [UInt8](exported.data)).text()
            } catch {
                guard let output else {
                    throw DesignError("\(error.message); give '-o FILE.wwdesign' to share '\(spec.name)' as a file")
                }
                let url = URL(fileURLWithPath: output)
                try Export.checkTarget(url, as: output)
                let file = try DesignExchange.export(
                    [spec], embedImages: true, imagesFolder: store.root.images, now: Date())
                try FileSystem.atomicWrite(file.data, to: url, mode: 0o644)
                print("'\(spec.name)' is too large for a link (\(error.message)); wrote \(output) instead.")
                return
            }
            for (name, _) in exported.leftOut { printWarning("image '\(name)' is not in the link (images never are)") }
            try ShareLinkOutput.show(link, pngPath: pngPath, linkOnly: linkOnly, exampleName: "design-qr.png")
        }
    }
}
