import ArgumentParser
import CLISupport
import Foundation
import SharedStore

extension Weaver {
    struct Pro: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pro",
            abstract: "Show or change the Pro entitlement kept in the store.",
            subcommands: [Status.self, Unlock.self, Lock.self],
            defaultSubcommand: Status.self)

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "status", abstract: "Print 'unlocked' or 'locked'.")
            @OptionGroup var store: StoreOption
            func run() throws { print(isProUnlocked(store.root) ? "unlocked" : "locked") }
        }

        typealias Unlock = Switch<SwitchOn>
        typealias Lock = Switch<SwitchOff>

        /// `unlock` and `lock`: the same command, `Way` says which.
        struct Switch<Way: SwitchWay>: ParsableCommand {
            static var configuration: CommandConfiguration {
                Way.isOn
                    ? CommandConfiguration(commandName: "unlock", abstract: "Unlock Pro in this store.")
                    : CommandConfiguration(
                        commandName: "lock", abstract: "Lock Pro in this store (stored variables are kept).")
            }
            @OptionGroup var store: StoreOption
            func run() throws {
                try ProEntitlement.set(Way.isOn, root: store.root)
                print(Way.isOn ? "unlocked" : "locked")
            }
        }
    }
}
