import ArgumentParser
import CLISupport
import Foundation
import WidgetDesign

extension Weaver {
    struct Templates: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "templates",
            abstract: "The Explore catalogue: built-in templates and their remixes.",
            subcommands: [List.self, Add.self],
            defaultSubcommand: List.self
        )
    }
}

extension Weaver.Templates {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in templates.")
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            if json {
                printJSON(
                    .array(
                        TemplateCatalogue.all.map { t in
                            .object([
                                "id": .string(t.id), "name": .string(t.name), "summary": .string(t.summary),
                                "template": .string((try? t.design(now: Date()).layout.template.rawValue) ?? ""),
                                "remixes": .array(
                                    t.remixes.map { .object(["id": .string($0.id), "name": .string($0.name)]) }),
                            ])
                        }))
                return
            }
            for t in TemplateCatalogue.all {
                print("\(pad(t.id, 14)) \(t.name): \(t.summary)")
                print("\(pad("", 14)) remixes: \(t.remixes.map(\.id).joined(separator: ", "))")
            }
            print("Add one with 'weaver templates add ID [--remix R] [--default]'.")
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a template (optionally a remix of it) to the library.")
        @OptionGroup var store: StoreOption
        @Argument(help: "Template ID or name (see 'weaver templates').") var name: String
        @Option(help: "One of the template's named remixes.") var remix: String?
        @Flag(name: .customLong("default"), help: "Also make it the default design.") var makeDefault = false

        func validate() throws {
            guard let t = TemplateCatalogue.find(name) else {
                throw ValidationError("unknown template '\(name)'; choose one of: \(TemplateCatalogue.ids)")
            }
            if let remix, t.remix(named: remix) == nil {
                throw ValidationError("'--remix' must be one of: \(t.remixes.map(\.id).joined(separator: ", "))")
            }
        }

        func run() throws {
            let spec = try TemplateCatalogue.find(name)!.design(remix: remix, now: Date())
            let lib = store.library
            try lib.add([spec])
            if makeDefault { try lib.setDefault(spec.id) }
            print("Added \(spec.name) (\(spec.id.uuidString))\(makeDefault ? " as the default design" : "").")
        }
    }
}
