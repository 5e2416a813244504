#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

extension ParsableCommand {
    /// argument-parser's `main()`, except for a `ValidationError` thrown by `run()`: argument-parser
    /// reports those with the root command's usage ("Usage: weaver <subcommand>"), because it no
    /// longer knows which subcommand ran; this prints the usage of the one that threw, as it does
    /// for errors found while parsing and in `validate()`.
    public static func mainWithSubcommandUsage(_ arguments: [String]? = nil) {
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let error as ValidationError {
            let subcommand = type(of: command)
            let path = commandPath(to: subcommand) ?? [_commandName]
            let text = "Error: \(error.message)\nUsage: \(usageString(for: subcommand))\n"
                + "  See '\(path.joined(separator: " ")) --help' for more information.\n"
            _ = Array(text.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
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
