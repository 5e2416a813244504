import ArgumentParser
import Foundation
import SharedStore
import Variables

extension Weaver.Vars {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a template with its {{...}} tokens resolved, and one newline.",
            usage: "weaver vars render [--var <key=value> ...] [<options>] <template>")

        @OptionGroup var clock: ClockOptions
        @OptionGroup var store: StoreOptions

        @Flag(help: "Unlock Pro for this render only (custom variables resolve).")
        var pro = false

        @Option(name: .customLong("var"), help: ArgumentHelp(
            "A custom variable for this render, on top of the stored ones (repeatable; Pro-gated).", valueName: "key=value"))
        var variables: [String] = []

        @Argument(help: "The template, e.g. '{{__time}} {{steps|0|number:0}}'.")
        var template: String

        func validate() throws {
            _ = try parsedVariables()
        }

        func parsedVariables() throws -> [(String, String)] {
            try variables.map { pair in
                guard let equals = pair.firstIndex(of: "=") else {
                    throw ValidationError("'--var' must be KEY=VALUE; got '\(pair)'")
                }
                let key = String(pair[..<equals])
                do {
                    _ = try VariableStore.validatedKey(key)
                } catch {
                    throw ValidationError("'--var': \(error)")
                }
                return (key, String(pair[pair.index(after: equals)...]))
            }
        }

        func run() throws {
            let (now, timeZone, locale) = try clock.resolved()
            let root = store.root
            let isPro = pro || ProEntitlement.isUnlocked(root)
            var context = RenderContext(now: now, timeZone: timeZone, locale: locale, isPro: isPro,
                                        builtIns: BuiltInKeys.load(from: root))
            if isPro {
                context.addCustomVariables(try VariableStore(root: root).load(onSetAside: StoreMessages.reportSetAside).map { ($0.key, $0.value) })
            }
            context.addCustomVariables(try parsedVariables())
            print(TemplateRenderer().render(template, in: context))
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the built-in keys that currently resolve, with their values (one 'key<TAB>value' a line).",
            usage: "weaver vars keys [--json] [<options>]")

        @OptionGroup var clock: ClockOptions
        @OptionGroup var store: StoreOptions

        @Flag(help: "Print a JSON object instead.")
        var json = false

        func run() throws {
            let (now, timeZone, locale) = try clock.resolved()
            let context = RenderContext(now: now, timeZone: timeZone, locale: locale,
                                        builtIns: BuiltInKeys.load(from: store.root))
            let entries = TemplateRenderer().builtInEntries(in: context)
            try VariableOutput.print(entries, json: json)
        }
    }
}

enum VariableOutput {
    /// `key<TAB>value` lines (tabs, newlines and backslashes in values escaped so one entry stays
    /// one line), or a JSON object with sorted keys.
    static func print(_ entries: [(key: String, value: String)], json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let object = Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            Swift.print(String(decoding: try encoder.encode(object), as: UTF8.self))
            return
        }
        for (key, value) in entries {
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "\n", with: "\\n")
            Swift.print("\(key)\t\(escaped)")
        }
    }
}
