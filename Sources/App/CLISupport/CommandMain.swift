import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

extension ParsableCommand {
    /// argument-parser's `main()`, except for a `ValidationError` thrown by `run()`: argument-parser
    /// reports those with the root command's usage ("Usage: weaver <subcommand>"), because it no
    /// longer knows which subcommand ran; this prints the usage of the one that threw, as it does
    /// for errors found while parsing and in `validate()`.
    /// - Parameter quick: reads the arguments without argument-parser where it can (nil: it cannot),
    ///   for a command run so often that argument-parser's start-up matters (`weaver render`).
    public static func mainWithSubcommandUsage(
        _ arguments: [String]? = nil, quick: ([String]) -> ParsableCommand? = { _ in nil }
    ) {
        var command: ParsableCommand
        do {
            let words = arguments ?? Array(CommandLine.arguments.dropFirst())
            command = try quick(words) ?? parsedSubcommand(words) ?? parseAsRoot(arguments)
        } catch {
            // A negative number as a positional value ("weaver steps goal -5", "weaver vars set k -3",
            // "noise timer -5m") reads as short options to argument-parser. Parsed again with those
            // values behind "--" (in their order), it is taken when that parses; else the first error.
            // Parsed again, it may still be refused by a command's own checks (a goal of -5 is out
            // of range): that message is the one to show, not argument-parser's first guess.
            let parseErrors = ["Missing expected argument", "Unknown option", "Unexpected argument", "Missing value"]
            func isParseError(_ e: Error) -> Bool { parseErrors.contains { message(for: e).contains($0) } }
            let original = arguments ?? Array(CommandLine.arguments.dropFirst())
            let rewritten = Self.negativeValuesAsPositionals(original)
            guard isParseError(error), rewritten != original else { exit(withError: error) }
            do {
                command = try parseAsRoot(rewritten)
            } catch let retryError {
                exit(withError: isParseError(retryError) ? error : retryError)
            }
        }
        do {
            try command.run()
        } catch let error as ValidationError {
            let subcommand = type(of: command)
            let path = commandPath(to: subcommand) ?? [_commandName]
            let text =
                "Error: \(error.message)\nUsage: \(usageString(for: subcommand))\n"
                + "  See '\(path.joined(separator: " ")) --help' for more information.\n"
            _ = Array(text.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// The subcommand the leading arguments name (`render` in `weaver render --family small`), parsed
    /// on its own; nil when that does not parse, or the words do not lead to a command without
    /// subcommands, or the arguments ask for help or what argument-parser answers itself, or a
    /// command on the way has arguments of its own. argument-parser builds the tree of every
    /// command and reads every configuration (`weaver designs set` builds its field table for its
    /// help) before parsing any: ~1.5 ms of the ~21 ms CPU of a `weaver render` (perf stat -r 30,
    /// task-clock), which status bars run every minute (issue 41 item 25). Nil falls back to
    /// `parseAsRoot`, so help and every error read as before.
    static func parsedSubcommand(_ arguments: [String]) -> ParsableCommand? {
        let answeredByParser = ["help", "-h", "-help", "--help", "--version"]
        if arguments.contains(where: {
            answeredByParser.contains($0) || $0.hasPrefix("--experimental") || $0.hasPrefix("--generate-completion")
        }) {
            return nil
        }
        var command: ParsableCommand.Type = self
        var depth = 0
        while !command.configuration.subcommands.isEmpty {
            // A command's own options may follow its subcommand's name: parse those in the tree.
            // (A command with no stored property has none; Mirror would say so at ~0.3 ms.)
            guard depth < arguments.count, storedSize(of: command) == 0,
                let sub = command.configuration.subcommands.first(where: {
                    $0._commandName == arguments[depth] || $0.configuration.aliases.contains(arguments[depth])
                })
            else { return nil }
            command = sub
            depth += 1
        }
        guard depth > 0 else { return nil }
        return try? command.parseAsRoot(Array(arguments.dropFirst(depth)))
    }

    private static func storedSize<Command: ParsableCommand>(of _: Command.Type) -> Int {
        MemoryLayout<Command>.size
    }

    /// `arguments` with each argument that is a negative number or duration (`-5`, `-0.5`, `-5m`)
    /// and not an option's value moved behind a `--` at the end, keeping their order; unchanged
    /// when there is none or a `--`.
    static func negativeValuesAsPositionals(_ arguments: [String]) -> [String] {
        func isNegativeValue(_ a: String) -> Bool {
            let rest = a.dropFirst()
            return a.hasPrefix("-") && rest.first.map { $0.isNumber || $0 == "." } == true
                && rest.allSatisfy { $0.isNumber || $0 == "." || $0.isLetter }
        }
        guard !arguments.contains("--") else { return arguments }
        // One right after an option (`--weekend -3`) is that option's value: it stays.
        var kept: [String] = [], moved: [String] = []
        for (i, a) in arguments.enumerated() {
            let previous = i > 0 ? arguments[i - 1] : ""
            let afterOption = previous.hasPrefix("-") && !previous.contains("=") && !isNegativeValue(previous)
            if isNegativeValue(a) && !afterOption { moved.append(a) } else { kept.append(a) }
        }
        return moved.isEmpty ? arguments : kept + ["--"] + moved
    }

    /// Command names from this command down to `target` (nil when it is not in the tree).
    static func commandPath(to target: ParsableCommand.Type) -> [String]? {
        let name = _commandName
        if self == target { return [name] }
        for sub in configuration.subcommands {
            if let rest = sub.commandPath(to: target) { return [name] + rest }
        }
        return nil
    }
}
