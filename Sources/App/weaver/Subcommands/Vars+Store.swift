import ArgumentParser
import CLISupport
import Foundation
import TemplateLanguage
import WidgetDataKeys

extension Weaver.Vars {
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Store a custom variable (Pro).")

        @OptionGroup var store: StoreOption
        @Argument(help: "The key; 'Last Done', 'last_done' and 'last done' are the same key.") var key: String
        @Argument(help: "The value (text).") var value: String

        func validate() throws {
            do {
                _ = try VariableStore.validatedKey(key)
                _ = try VariableStore.validatedValue(value)
            } catch { throw ValidationError("\(error)") }
        }

        func run() throws {
            let root = store.root
            try StoreMessages.requirePro(root, action: "'weaver vars set'")
            try VariableStore(root: root).set(key, to: value, onSetAside: StoreMessages.reportSetAside)
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print a stored variable's value and one newline.")

        @OptionGroup var store: StoreOption
        @Argument(help: "The key.") var key: String

        func run() throws {
            let canonical = KeyCanonicaliser.canonical(key)
            let variables = try VariableStore(root: store.root).load(onSetAside: StoreMessages.reportSetAside)
            guard let value = variables[canonical] else {
                throw CommandError("no stored variable '\(canonical)'")
            }
            print(value)
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Remove a stored variable (allowed without Pro, so your data is never locked in).")

        @OptionGroup var store: StoreOption
        @Argument(help: "The key.") var key: String

        func run() throws {
            let existed = try VariableStore(root: store.root).delete(key, onSetAside: StoreMessages.reportSetAside)
            guard existed else { throw CommandError("no stored variable '\(KeyCanonicaliser.canonical(key))'") }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored variables (one 'key<TAB>value' a line, sorted by key).")

        @OptionGroup var store: StoreOption
        @Flag(help: "Print a JSON object instead.") var json = false

        func run() throws {
            let variables = try VariableStore(root: store.root).load(onSetAside: StoreMessages.reportSetAside)
            try VariableOutput.print(
                variables.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) },
                json: json)
        }
    }

    struct SetNow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-now",
            abstract:
                """
                Store the current time in a variable (the \"Set variable to Now\" intent; Pro). Prints the stored \
                value.
                """,
            usage: "weaver vars set-now [--format <format>] [<options>] <key>")

        @OptionGroup var clock: ClockOptions
        @OptionGroup var store: StoreOption
        @Option(
            help:
                """
                iso (UTC, with milliseconds), unix (seconds), unixms (milliseconds), date (local yyyy-MM-dd) or \
                time (local HH:mm).
                """
        )
        var format: NowFormat = .iso
        @Argument(help: "The key.") var key: String

        func validate() throws {
            do { _ = try VariableStore.validatedKey(key) } catch { throw ValidationError("\(error)") }
        }

        func run() throws {
            let root = store.root
            try StoreMessages.requirePro(root, action: "'weaver vars set-now'")
            let (now, timeZone, _) = try clock.resolved()
            print(
                try VariableStore(root: root).setNow(
                    key, format: format, now: now, timeZone: timeZone,
                    onSetAside: StoreMessages.reportSetAside))
        }
    }

    struct Increment: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "increment",
            abstract:
                """
                Add to a numeric variable (the counter button; Pro). A missing variable starts at 0. Prints the \
                new value.
                """
        )

        @OptionGroup var store: StoreOption
        // Unconditional, so `--by -2` reads -2 as the value rather than as a flag.
        @Option(numeric: "The amount to add; may be negative or fractional (default 1).")
        var by: Double = 1
        @Argument(help: "The key.") var key: String

        func validate() throws {
            do { _ = try VariableStore.validatedKey(key) } catch { throw ValidationError("\(error)") }
            guard by.isFinite, abs(by) < VariableStore.counterLimit else {
                throw ValidationError("'--by' must be a finite number between -1e15 and 1e15; got \(by)")
            }
        }

        func run() throws {
            let root = store.root
            try StoreMessages.requirePro(root, action: "'weaver vars increment'")
            do {
                print(try VariableStore(root: root).increment(key, by: by, onSetAside: StoreMessages.reportSetAside))
            } catch let error as VariableStoreError {
                throw CommandError(error.description)
            }
        }
    }
}

extension NowFormat: ExpressibleByArgument {}
