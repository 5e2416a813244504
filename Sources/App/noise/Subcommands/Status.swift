import ArgumentParser
import CLISupport
import Foundation
import NoiseControl
import SharedStore

extension Noise {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show what the player is doing.",
            discussion: HelpText.prose(
                """
                Reads the running player over its control socket, else the status file in the store (a
                player that died is reported as stopped).

                With no player running it shows the Last Mix, stopped (what 'noise resume' would play).

                --follow prints one line per change until interrupted: JSON (the default), or the
                human / waybar / i3blocks line with '--format'. Status bar setup: see docs/status-bars.md.
                """))

        @OptionGroup var storeOption: StoreOption
        @Flag(help: "Print the status document as JSON (same as '--format json').") var json = false
        @Option(help: "human, json, waybar or i3blocks.") var format: String?
        @Flag(help: "Keep printing a line per change.") var follow = false

        func chosenFormat() throws -> StatusFormatter.Format {
            if let format {
                guard let f = StatusFormatter.Format(rawValue: format) else {
                    throw ValidationError("'--format' \(format) is not supported; use human, json, waybar or i3blocks")
                }
                if json && f != .json { throw ValidationError("'--json' and '--format \(format)' disagree; give one") }
                return f
            }
            return json ? .json : .human
        }

        func validate() throws { _ = try chosenFormat() }

        func run() throws {
            let format = try chosenFormat()
            if follow {
                try StatusFollower(store: StatusStore(root: storeOption.root), format: format).run()
                return
            }
            let status = try currentStatus()
            print(StatusFormatter.render(status, format: format))
        }

        /// From the player when one answers, else from the file.
        func currentStatus() throws -> PlayerStatus? {
            do {
                if case .ok(let s?) = try PlayerControl.client.send(.status) { return s }
            } catch ControlError.notRunning {
            } catch {
                Terminal.printError("warning: \(error); reading the status file instead")
            }
            return storedStatus(root: storeOption.root)
        }
    }
}

/// The status when no player answers: the file's, unless it says stopped (or is missing), in
/// which case the Last Mix, stopped, is the truth (`noise preset X` with no player changed it).
/// A stale status (a player that died) is kept: the formatter says the player is gone.
func storedStatus(root: StoreRoot) -> PlayerStatus? {
    let file = readFile(StatusStore(root: root))
    if let file, file.state != .stopped { return file }
    let load: LastMixLoad
    do { load = try LastMixStore(root: root).load() } catch {
        Terminal.printError("warning: \(error)")
        return file
    }
    PlayerControl.printLoadMessages(load)
    guard let last = load.lastMix else { return file }
    var s = PlayerStatus(
        state: .stopped, mix: last.mix, presetID: last.presetID,
        output: file?.output ?? .init(backend: "none", device: ""),
        updatedAt: max(file?.updatedAt ?? .distantPast, last.updatedAt))
    s.output.lost = false
    s.pid = file?.pid ?? 0
    s.underruns = file?.underruns ?? 0
    return s
}

func readFile(_ store: StatusStore) -> PlayerStatus? {
    do {
        switch try store.read() {
        case .missing: return nil
        case .loaded(let s): return s
        case .setAside(let reason, let at):
            Terminal.printError("warning: " + SetAsideNotice.text(store.url, reason: reason, movedTo: at))
            return nil
        }
    } catch {
        Terminal.printError("warning: \(error)")
        return nil
    }
}

/// `noise status --follow`: lines from the player's subscription while one runs, else from
/// watching the status file (which also notices a player that died: its status turns stale).
struct StatusFollower {
    let store: StatusStore
    let format: StatusFormatter.Format
    var pollSeconds = 0.25

    func line(_ status: PlayerStatus?) -> String {
        switch format {
        case .json: StatusFormatter.json(status, pretty: false)
        // The first line of the human form ("Playing Sleep (preset sleep), master 70%.").
        case .human:
            String(StatusFormatter.human(status).split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        case .waybar: StatusFormatter.waybar(status)
        // i3blocks in persist mode takes each line as the new full text.
        case .i3blocks:
            String(
                StatusFormatter.i3blocks(status).split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
    }

    func run() throws {
        let client = PlayerControl.client
        var last: String?
        func emit(_ status: PlayerStatus?) {
            let text = line(status)
            guard text != last else { return }
            last = text
            writeStdout(text + "\n")
        }
        var ticks = 0
        while true {
            if ticks % 4 == 0 {
                do {
                    try client.subscribe { status in
                        emit(status)
                        return true
                    }
                    continue
                } catch ControlError.notRunning {
                } catch {
                    Terminal.printError("warning: \(error); watching \(store.url.path) instead")
                }
            }
            emit(storedStatus(root: store.root))
            ticks += 1
            usleep(UInt32(pollSeconds * 1_000_000))
        }
    }
}
