import ArgumentParser
import CLISupport
import DataSources
import Foundation

extension Weaver {
    struct CalendarCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "iCalendar (.ics) files and web calendars for the Next Up widget and the __calendar_* keys.",
            discussion:
                """
                Set up: 'weaver calendar add ~/work.ics' (or an https:// or webcal:// address), 'weaver calendar \
                refresh'.
                """,
            subcommands: [Add.self, List.self, Remove.self, Refresh.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Add a calendar file or address; it is read once now and refused if it is not a calendar.")
            @Argument(help: "An .ics file, or an https:// / webcal:// address.") var source: String
            @Option(help: "Name shown in the widget (default: the calendar's own name, else the file name or host).")
            var name: String?
            @OptionGroup var store: StoreOption

            func run() throws {
                try addSource(
                    noun: "event",
                    next: "Next: 'weaver calendar refresh' writes snapshots/calendar.json for the Next Up widget."
                ) { try CalendarService(root: store.root).add(source, name: name) }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the calendars: id, name, events, last refresh, source.")
            @OptionGroup var store: StoreOption
            func run() throws {
                printSourceList(
                    try CalendarService(root: store.root).list(note: printError),
                    empty: "No calendars; add one with 'weaver calendar add FILE.ics'.",
                    columns: { [$0.eventCount.map { "\($0) events" } ?? "?"] })
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Remove a calendar by id or name (the .ics file itself is left alone)."
            )
            @Argument(help: "The id or name from 'weaver calendar list'.") var calendar: String
            @OptionGroup var store: StoreOption
            func run() throws {
                try removeSource(refreshCommand: "weaver calendar refresh") {
                    try CalendarService(root: store.root).remove(calendar)
                }
            }
        }

        struct Refresh: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "refresh",
                abstract: "Read every calendar and write snapshots/calendar.json.",
                usage: "weaver calendar refresh [--tz <zone>] [--now <iso8601>] [--quiet]\n  [--store <dir>]",
                discussion:
                    """
                    A web calendar that cannot be fetched keeps its last download; the command then exits 1 after \
                    writing the snapshot.
                    """
            )
            @OptionGroup var clockOptions: DataClockOptions<CalendarClockHelp>
            @Flag(help: "Print nothing unless something failed (for timers).") var quiet = false
            @OptionGroup var store: StoreOption

            func run() throws {
                let zone = clockOptions.zone, clock = clockOptions.clock
                let service = CalendarService(root: store.root)
                let s = try refreshSources(
                    try service.list(note: printError),
                    none: """
                        no calendars yet: add one with 'weaver calendar add FILE.ics' or 'weaver calendar add \
                        https://…/basic.ics'
                        """
                ) { try service.refresh(now: clock, timeZone: zone) }
                if !quiet {
                    let f = DateFormatter()
                    f.locale = Locale(identifier: "en_US_POSIX")
                    f.timeZone = zone
                    f.dateFormat = "EEE d MMM HH:mm"
                    let (next, second) = s.nextTwo(at: clock)
                    if let n = next {
                        print(
                            """
                            Next: \(n.title) — \
                            \(n.isAllDay ? "all day \(n.startDay ?? "")" : f.string(from: n.start))\
                            \(n.location.map { " · \($0)" } ?? "")
                            """
                        )
                    } else {
                        print("No upcoming events in the next \(s.horizonDays) days.")
                    }
                    if let t = second {
                        print(
                            """
                            Then: \(t.title) — \
                            \(t.isAllDay ? "all day \(t.startDay ?? "")" : f.string(from: t.start))
                            """
                        )
                    }
                    print(
                        """
                        Wrote \(NextUpSnapshot.url(in: store.root).path) (\(s.events.count) upcoming from \
                        \(s.calendars.count) calendar\(s.calendars.count == 1 ? "" : "s"))
                        """
                    )
                }
                if let e = s.lastError { throw CommandError("a calendar could not be read: \(e)") }
            }
        }
    }
}
