import ArgumentParser
import CLISupport
import Foundation
import LoginEntryFiles
import NoiseControl
import NoiseEngine
import PlayerStartup

extension Noise {
    struct AutostartCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "autostart",
            abstract: "Resume the mix at login: install or remove a systemd user unit (or an XDG autostart entry).",
            subcommands: [Enable.self, Disable.self, Status.self])

        struct Enable: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "enable",
                abstract: "Install the login entry and turn resume at login on.",
                discussion:
                    """
                    At login it runs 'noise resume --if-enabled', which plays the Last Mix if it was playing at \
                    logout.
                    """
            )
            @OptionGroup var storeOption: StoreOption
            @Option(help: "auto (systemd when it runs the session, else XDG autostart), systemd or xdg.")
            var method: String = "auto"

            func chosen() throws -> PlayerStartup.Autostart.Method {
                if method == "auto" { return LoginEntries.systemdIsRunning() ? .systemd : .xdg }
                guard let m = PlayerStartup.Autostart.Method(rawValue: method) else {
                    throw ValidationError("'--method' \(method) is not supported; use auto, systemd or xdg")
                }
                return m
            }

            func validate() throws { _ = try chosen() }

            func run() throws {
                let change = try resumeAtLogin(storeOption).enable(method: try chosen())
                for m in change.messages { Terminal.printError(m.hasPrefix("note:") ? m : "warning: \(m)") }
                for f in change.files { print("Wrote \(f.path)") }
                print("Resume at login is on: the mix playing when you log out starts again when you log in.")
            }
        }

        struct Disable: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "disable",
                abstract: "Remove the login entry and turn resume at login off.")
            @OptionGroup var storeOption: StoreOption

            func run() throws {
                let change = try resumeAtLogin(storeOption).disable()
                for m in change.messages { Terminal.printError(m.hasPrefix("note:") ? m : "warning: \(m)") }
                for f in change.files { print("Removed \(f.path)") }
                print("Resume at login is off.")
            }
        }

        struct Status: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "status", abstract: "Show whether resume at login is set up.")
            @OptionGroup var storeOption: StoreOption

            func run() throws {
                let autostart = makeAutostart(storeOption)
                let installed = autostart.installed()
                let load = try LastMixStore(root: storeOption.root).load()
                PlayerControl.printLoadMessages(load)
                let flag = load.lastMix?.resumeOnLaunch ?? false
                print("Resume at login: \(flag && installed.isInstalled ? "on" : "off")")
                print("  resumeOnLaunch in the Last Mix: \(flag ? "on" : "off")")
                print(
                    """
                      systemd user unit: \
                    \(installed.unitFile ? autostart.unitURL.path : "not installed")\
                    \(installed.unitFile ? (installed.unitEnabled ? " (enabled)" : " (not enabled)") : "")
                    """
                )
                print("  XDG autostart entry: \(installed.desktopEntry ? autostart.desktopURL.path : "not installed")")
                print("  systemd runs this system: \(LoginEntries.systemdIsRunning() ? "yes" : "no")")
            }
        }
    }
}

private func resumeAtLogin(_ store: StoreOption) -> ResumeAtLogin {
    ResumeAtLogin(autostart: makeAutostart(store), store: LastMixStore(root: store.root))
}

private func makeAutostart(_ store: StoreOption) -> PlayerStartup.Autostart {
    PlayerStartup.Autostart(target: store.loginEntryTarget(executable: PresetLibrary.executableURL()))
}
