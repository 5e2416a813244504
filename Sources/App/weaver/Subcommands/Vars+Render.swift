import ArgumentParser
import CLISupport
import Foundation
import SystemCalls
import TemplateLanguage
import WidgetDataKeys

extension Weaver.Vars {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Print a template with its {{...}} tokens resolved, and one newline.",
            usage: "weaver vars render [--var <key=value> ...] [<options>] <template>")

        @OptionGroup var clock: ClockOptions
        @OptionGroup var store: StoreOption

        @Flag(help: "Unlock Pro for this render only (custom variables resolve).")
        var pro = false

        @Option(
            name: .customLong("var"),
            help: ArgumentHelp(
                "A custom variable for this render, on top of the stored ones (repeatable; Pro-gated).",
                valueName: "key=value"))
        var variables: [String] = []

        @Argument(
            help:
                """
                The template, e.g. '{{__time}} {{steps|0|number:0}}', or - to read it from standard input (at most \
                1 MiB; one trailing newline is dropped).
                """
        )
        var template: String

        /// Largest template read from standard input: the renderer's output cap.
        static let maximumStandardInputBytes = TemplateRenderer.maximumOutputBytes

        static func readTemplateFromStandardInput() throws -> String {
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { raw in retryOnInterrupt { read(0, raw.baseAddress!, raw.count) }
                }
                if n < 0 {
                    throw ValidationError(
                        "cannot read the template from standard input: \(SystemCallError.reason(errno))")
                }
                if n == 0 { break }
                data.append(contentsOf: buffer[0..<n])
                guard data.count <= maximumStandardInputBytes else {
                    throw ValidationError(
                        """
                        the template on standard input is longer than \(maximumStandardInputBytes) bytes (1 MiB), \
                        the limit
                        """
                    )
                }
            }
            guard var text = String(data: data, encoding: .utf8) else {
                throw ValidationError("the template on standard input is not UTF-8 text")
            }
            if text.hasSuffix("\r\n") { text.removeLast() } else if text.hasSuffix("\n") { text.removeLast() }
            return text
        }

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
            let isPro = pro || isProUnlocked(root)
            var context = RenderContext(
                now: now, timeZone: timeZone, locale: locale, isPro: isPro,
                builtIns: BuiltInKeys.load(from: root, warn: printWarning))
            if isPro {
                context.addCustomVariables(
                    try VariableStore(root: root).load(onSetAside: StoreMessages.reportSetAside).map {
                        ($0.key, $0.value)
                    })
            }
            context.addCustomVariables(try parsedVariables())
            let text = template == "-" ? try Self.readTemplateFromStandardInput() : template
            print(TemplateRenderer().render(text, in: context))
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "List the built-in keys that currently resolve, with their values (one 'key<TAB>value' a line).",
            usage: "weaver vars keys [--json] [<options>]")

        @OptionGroup var clock: ClockOptions
        @OptionGroup var store: StoreOption

        @Flag(help: "Print a JSON object instead.")
        var json = false

        func run() throws {
            let (now, timeZone, locale) = try clock.resolved()
            let context = RenderContext(
                now: now, timeZone: timeZone, locale: locale,
                builtIns: BuiltInKeys.load(from: store.root, warn: printWarning))
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
