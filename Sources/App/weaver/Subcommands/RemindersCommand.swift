import ArgumentParser
import CLISupport
import DataSources
import Foundation
import Snapshots

extension Weaver {
    struct RemindersCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reminders",
            abstract:
                "todo.txt files and iCalendar task lists (VTODO) for the Reminders widget and the __reminders_* keys.",
            discussion:
                """
                Set up: 'weaver reminders add ~/todo.txt' (or an .ics file or https:// address with tasks), \
                'weaver reminders refresh'. Rows of local files can be completed from the widget ('weaver tap').
                """,
            subcommands: [Add.self, List.self, Remove.self, Refresh.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract:
                    """
                    Add a todo.txt file, an .ics file or an .ics address; it is read once now and refused if it \
                    holds no tasks.
                    """
            )
            @Argument(help: "A todo.txt file, an .ics file, or an https:// / webcal:// address of an .ics with tasks.")
            var source: String
            @Option(help: "Name shown in the widget (default: the calendar's own name, else the file name or host).")
            var name: String?
            @OptionGroup var store: StoreOption

            func run() throws {
                try addSource(
                    noun: "task",
                    next: "Next: 'weaver reminders refresh' writes snapshots/reminders.json for the Reminders widget.",
                    details: { ", \($0.kind == .todoTxt ? "todo.txt" : "iCalendar")\($0.isWeb ? ", read-only" : "")" }
                ) { try RemindersService(root: store.root).add(source, name: name) }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the sources: id, name, kind, tasks, last refresh, source.")
            @OptionGroup var store: StoreOption
            func run() throws {
                printSourceList(
                    try RemindersService(root: store.root).list(note: printError),
                    empty: "No reminders sources; add one with 'weaver reminders add ~/todo.txt'.",
                    columns: { [$0.kind.rawValue, $0.itemCount.map { "\($0) tasks" } ?? "?"] })
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Remove a source by id or name (the file itself is left alone).")
            @Argument(help: "The id or name from 'weaver reminders list'.") var source: String
            @OptionGroup var store: StoreOption
            func run() throws {
                try removeSource(refreshCommand: "weaver reminders refresh") {
                    try RemindersService(root: store.root).remove(source)
                }
            }
        }

        struct Refresh: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "refresh",
                abstract: "Read every source and write snapshots/reminders.json.",
                usage: "weaver reminders refresh [--tz <zone>] [--now <iso8601>] [--quiet]\n  [--store <dir>]",
                discussion:
                    """
                    A web source that cannot be fetched keeps its last download; the command then exits 1 after \
                    writing the snapshot (and the widget's rows cannot be pressed until a refresh succeeds).
                    """
            )
            @OptionGroup var clockOptions: DataClockOptions<RemindersClockHelp>
            @Flag(help: "Print nothing unless something failed (for timers).") var quiet = false
            @OptionGroup var store: StoreOption

            func run() throws {
                let zone = clockOptions.zone, clock = clockOptions.clock
                let service = RemindersService(root: store.root)
                let s = try refreshSources(
                    try service.list(note: printError),
                    none: """
                        no reminders sources yet: add one with 'weaver reminders add ~/todo.txt' or 'weaver \
                        reminders add tasks.ics'
                        """
                ) { try service.refresh(now: clock, timeZone: zone) }
                if !quiet {
                    let days = ReminderDays(now: clock, timeZone: zone)
                    let open = s.items.filter { !$0.done }
                    print(
                        """
                        Open: \(open.count) · due today: \(open.filter(days.isDueToday).count) · overdue: \
                        \(open.filter(days.isOverdue).count)
                        """
                    )
                    print(
                        """
                        Wrote \(RemindersService.snapshotURL(in: store.root).path) (\(s.items.count) tasks from \
                        \(s.sources.count) source\(s.sources.count == 1 ? "" : "s"))
                        """
                    )
                }
                if let e = s.lastError { throw CommandError("a reminders source could not be read: \(e)") }
            }
        }
    }
}
