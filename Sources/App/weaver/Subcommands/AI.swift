import ArgumentParser
import CLISupport
import DataSources
import DesignAssistant
import Foundation
import SharedStore
import WidgetDesign
import WidgetInputs
import WidgetRender

extension Weaver {
    /// `weaver ai`: designing in words through a model on the user's own machine.
    struct AI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ai",
            abstract: "Describe a widget or an edit in words; a local model (Ollama, llama-server) proposes it.",
            discussion: HelpText.prose(
                """
                Nothing is contacted until 'weaver ai setup' names a server, and then only that server (this \
                machine unless you name another). The model sees the design's fields and your words, never \
                your files. Every proposed value is checked by the field table; what is refused is listed. \
                Nothing is saved without --save.
                """),
            subcommands: [Setup.self, Describe.self, Edit.self, Show.self])

        /// The assistant with the model 'weaver ai setup' saved in the store; throws when none is.
        static func assistant(_ store: StoreOption) throws -> DesignAssistant {
            DesignAssistant(model: LocalModel(settings: try AssistantSettings.required(from: store.root)))
        }

        struct Setup: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "setup",
                abstract: "Choose the local model server and model (Ollama's and llama-server's defaults are found).",
                usage: "weaver ai setup [--url <url>] [--model <name>] [<options>]")
            @OptionGroup var store: StoreOption
            @Option(help: "The server, e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080 (llama-server).")
            var url: String?
            @Option(help: "The model name the server knows (default: the first it lists).") var model: String?
            @Option(help: "openai (/v1/chat/completions) or ollama (/api/chat); default: found from the server.")
            var api: String?
            @Option(numeric: "Seconds the whole answer may take (5…600, default 120).") var timeout: Double =
                AssistantSettings.defaultTimeoutSeconds

            func run() throws {
                guard AssistantSettings.timeoutRange.contains(timeout) else {
                    throw ValidationError("'--timeout' \(timeout) is out of range; allowed 5…600 seconds")
                }
                var chosenAPI: AssistantSettings.API?
                if let api {
                    guard let a = AssistantSettings.API(rawValue: api) else {
                        throw ValidationError("'--api' \(api) is not known; use openai or ollama")
                    }
                    chosenAPI = a
                }
                let found = try ServerProbe.find(url: url, api: chosenAPI)
                guard let name = model ?? found.models.first else {
                    throw AssistantError(
                        "\(found.url.absoluteString) lists no model; give '--model NAME' (e.g. 'ollama pull llama3.2')")
                }
                let settings = AssistantSettings(url: found.url, model: name, api: found.api, timeoutSeconds: timeout)
                try settings.save(to: store.root)
                if !AssistantSettings.isLoopback(found.url) {
                    let host = found.url.host ?? "that host"
                    printWarning("\(host) is not this machine: your words and designs go there")
                }
                print("Using \(name) at \(found.url.absoluteString) (\(found.api.rawValue) API); saved in ai.json.")
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show which local model is set up.")
            @OptionGroup var store: StoreOption
            func run() throws {
                guard let s = try AssistantSettings.load(from: store.root) else {
                    print("No local model is set up; nothing is ever contacted. Run 'weaver ai setup'.")
                    return
                }
                print(
                    "\(s.model) at \(s.url.absoluteString) (\(s.api.rawValue) API), answers within "
                        + "\(Int(s.timeoutSeconds)) s")
            }
        }

        struct Describe: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "describe",
                abstract: "Make a new design from a description (shown first; --save keeps it).",
                usage: "weaver ai describe <text> [--preview <file>] [--save] [<options>]")
            @OptionGroup var store: StoreOption
            @Argument(help: "What the widget should be, in words.") var text: String
            @OptionGroup var preview: PreviewOptions

            func run() throws {
                let assistant = try AI.assistant(store)
                let start = try DesignAssistant.startingDesign(now: Date())
                let outcome = try assistant.describe(text, startingFrom: start, family: preview.family)
                try preview.show(outcome, root: store.root)
                guard preview.save else { return }
                let lib = store.library
                try lib.add([outcome.design])
                print("Saved \(outcome.design.name) (\(outcome.design.id.uuidString)).")
            }
        }

        struct Edit: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "edit",
                abstract: "Change a design as asked in words (shown first; --save keeps it).",
                usage: "weaver ai edit <design> <text> [--preview <file>] [--save] [<options>]")
            @OptionGroup var store: StoreOption
            @Argument(help: "A design ID, unique ID prefix, or name.") var design: String
            @Argument(help: "The change, in words.") var text: String
            @OptionGroup var preview: PreviewOptions

            func run() throws {
                let assistant = try AI.assistant(store)
                let lib = store.library
                let row = try lib.resolve(design)
                let outcome = try assistant.edit(try lib.load(row.id), request: text)
                try preview.show(outcome, root: store.root)
                guard preview.save else { return }
                guard !outcome.changes.isEmpty else { return print("Nothing to save: no field changed.") }
                _ = try lib.update(row.id, now: Date()) { $0 = outcome.design }
                print("Saved \(outcome.design.name).")
            }
        }

        struct PreviewOptions: ParsableArguments {
            @Option(help: "The widget size (small, medium or large): told to the model by describe, and drawn.")
            var family = "medium"
            @Option(help: "Also draw the preview to this file (.png or .svg).") var preview: String?
            @Flag(help: "Keep the result in the library.") var save = false

            func validate() throws {
                guard ["small", "medium", "large"].contains(family) else {
                    throw ValidationError("'--family' \(family) is not a size; use small, medium or large")
                }
                if let preview, ![.png, .svg].contains(RenderFormat.from(path: preview)) {
                    throw ValidationError("'--preview' \(preview): name it .png or .svg")
                }
            }

            /// The change list, refusals and notes, then the design drawn as text (and to a file if asked).
            func show(_ outcome: DesignAssistant.Outcome, root: StoreRoot) throws {
                print("Changes (\(outcome.changes.count)):")
                for line in outcome.changes { print("  \(line)") }
                if !outcome.refused.isEmpty {
                    print("Refused (\(outcome.refused.count)), not applied:")
                    for line in outcome.refused { print("  \(line)") }
                }
                for note in outcome.notes { print("Model's note: \(note)") }
                let renderer = WidgetRenderer()
                let inputs = RenderInputs.gather(
                    for: outcome.design, root: root, now: Date(), timeZone: .current, locale: .current)
                let layout = renderer.layout(
                    design: outcome.design, family: WidgetFamily(rawValue: family)!, scale: 2, inputs: inputs)
                print(String(decoding: try renderer.render(layout, format: .txt, images: inputs.images), as: UTF8.self))
                if let preview {
                    let bytes = try renderer.render(
                        layout, format: RenderFormat.from(path: preview)!, images: inputs.images)
                    try FileSystem.atomicWrite(Data(bytes), to: URL(fileURLWithPath: preview), mode: 0o644)
                    print("Preview drawn to \(preview).")
                }
                if !save { print("Not saved: run again with --save to keep it.") }
            }
        }
    }
}
