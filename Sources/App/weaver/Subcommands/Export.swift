import ArgumentParser
import CLISupport
import Foundation
import SharedStore
import WidgetDesign

extension Weaver {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export designs as a .wwdesign package (the seed app's exchange format).",
            usage: "weaver export [<designs> ...] [--all] --output <output> [<options>]",
            discussion: HelpText.prose(
                """
                Every image the designs reference is embedded (base images, Smart Photo masters and \
                per-size renders, matched-set variants) unless --no-embed-images is given; any image \
                left out is named on standard error. The file is written atomically: on any failure no \
                empty or partial file is left. The output folder must exist: weaver never creates \
                folders outside its store.
                """)
        )
        @OptionGroup var store: StoreOption
        @Argument(help: "Design IDs, unique ID prefixes, or names.") var designs: [String] = []
        @Flag(help: "Export every design in the library.") var all = false
        @Flag(inversion: .prefixedNo, help: "Embed the images the designs reference (on by default).") var embedImages =
            true
        @Option(name: .shortAndLong, help: "Output file, e.g. designs.wwdesign, or - for standard output.") var output:
            String

        func validate() throws {
            if all && !designs.isEmpty { throw ValidationError("give design IDs or '--all', not both") }
            if !all && designs.isEmpty { throw ValidationError("give design IDs or '--all'") }
        }

        /// Refuses a target whose folder does not exist or that is a folder itself, before any
        /// work, so nothing is created outside the store.
        static func checkTarget(_ url: URL, as typed: String) throws {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue {
                throw DesignError(
                    """
                    '\(typed)' is a folder; give a file name, e.g. \
                    '\(typed.hasSuffix("/") ? typed : typed + "/")designs.wwdesign'
                    """
                )
            }
            let parent = url.deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDir) else {
                throw DesignError(
                    """
                    cannot write '\(typed)': the folder \(parent.path) does not exist (weaver does not create \
                    folders outside its store; create it first)
                    """
                )
            }
            guard isDir.boolValue else {
                throw DesignError("cannot write '\(typed)': \(parent.path) is not a folder")
            }
        }

        func run() throws {
            let url = URL(fileURLWithPath: output)
            if output != "-" { try Self.checkTarget(url, as: output) }
            let lib = store.library
            let ids = all ? try lib.summaries().map(\.id) : try designs.map { try lib.resolve($0).id }
            var seen = Set<UUID>()
            let specs = try ids.filter { seen.insert($0).inserted }.map { try lib.load($0) }
            let result = try DesignExchange.export(
                specs, embedImages: embedImages, imagesFolder: store.root.images, now: Date())
            if !embedImages && !result.leftOut.isEmpty {
                printWarning(
                    """
                    \(result.leftOut.count) referenced image\(result.leftOut.count == 1 ? "" : "s") left out \
                    (--no-embed-images):\u{20}
                    """
                        + result.leftOut.map(\.name).joined(separator: ", "))
            } else {
                for (name, reason) in result.leftOut { printWarning("image '\(name)' left out: \(reason)") }
            }
            let summary =
                """
                Exported \(specs.count) design\(specs.count == 1 ? "" : "s") with \(result.embedded.count) \
                image\(result.embedded.count == 1 ? "" : "s")
                """
                + (result.leftOut.isEmpty
                    ? ""
                    : " (\(result.leftOut.count) referenced image\(result.leftOut.count == 1 ? "" : "s") left out)")
            if output == "-" {
                // The package is built whole before anything is written, so a failure never
                // leaves a partial document on the pipe either.
                FileHandle.standardOutput.write(result.data)
                FileHandle.standardError.write(Data("\(summary) to standard output.\n".utf8))
                return
            }
            try FileSystem.atomicWrite(result.data, to: url, mode: 0o644)
            print("\(summary) to \(output).")
        }
    }
}
