import ArgumentParser
import Foundation
import SharedStore
import WidgetDesign

extension Weaver {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export designs as a .wwdesign package (the seed app's exchange format).",
            usage: "weaver export [<designs> ...] [--all] --output <output> [<options>]",
            discussion: "The file is written atomically: on any failure no empty or partial file is left."
        )
        @OptionGroup var store: DesignStoreOptions
        @Argument(help: "Design IDs, unique ID prefixes, or names.") var designs: [String] = []
        @Flag(help: "Export every design in the library.") var all = false
        @Flag(help: "Embed the images the designs reference.") var embedImages = false
        @Option(name: .shortAndLong, help: "Output file, e.g. designs.wwdesign, or - for standard output.") var output: String

        func validate() throws {
            if all && !designs.isEmpty { throw ValidationError("give design IDs or '--all', not both") }
            if !all && designs.isEmpty { throw ValidationError("give design IDs or '--all'") }
        }

        func run() throws {
            let lib = store.library
            let ids = all ? try lib.summaries().map(\.id) : try designs.map { try lib.resolve($0).id }
            var seen = Set<UUID>()
            let specs = try ids.filter { seen.insert($0).inserted }.map { try lib.load($0) }
            let data = try DesignExchange.exportData(specs, embedImages: embedImages, imagesFolder: store.root.images,
                                                     now: Date(), warn: { printWarning($0) })
            if output == "-" {
                // The package is built whole before anything is written, so a failure never
                // leaves a partial document on the pipe either.
                FileHandle.standardOutput.write(data)
                FileHandle.standardError.write(Data("Exported \(specs.count) design\(specs.count == 1 ? "" : "s") to standard output.\n".utf8))
                return
            }
            let url = URL(fileURLWithPath: output)
            try FileSystem.atomicWrite(data, to: url, mode: 0o644)
            print("Exported \(specs.count) design\(specs.count == 1 ? "" : "s") to \(output).")
        }
    }
}
