import ArgumentParser
import CLISupport
import DataSources
import Foundation
import SharedStore
import Snapshots

extension Weaver {
    struct Steps: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "steps",
            abstract: "Step counts for the steps widget and the __steps_* / __activity_* keys.",
            subcommands: [Import.self, Goal.self])

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "import",
                abstract: "Import daily steps from CSV (date,steps[,distance_m,active_min]) or the snapshot's JSON.",
                usage: "weaver steps import <file> [--tz <zone>] [--now <iso8601>]\n  [--store <dir>]",
                discussion:
                    """
                    Imported days replace stored ones with the same date; the row for today's date (in --tz) \
                    becomes 'today'. A bad row stops the import and nothing is written.
                    """
            )
            @Argument(help: "A .csv or .json file.") var file: String
            @Option(
                help: ArgumentHelp(
                    "IANA zone that decides which date is today (default: the system's).", valueName: "zone")) var tz:
                String?
            @Option(help: ArgumentHelp("Pretend the clock is this ISO 8601 date-time.", valueName: "iso8601")) var now:
                String?
            @OptionGroup var store: StoreOption

            func validate() throws {
                if let tz, TimeZone(identifier: tz) == nil {
                    throw ValidationError("'--tz' must be an IANA time zone such as Europe/London; got '\(tz)'")
                }
                if let now, ISODate.parse(now) == nil {
                    throw ValidationError(
                        "'--now' must be an ISO 8601 date-time such as 2026-01-24T09:30:00Z; got '\(now)'")
                }
            }

            func run() throws {
                let url = URL(fileURLWithPath: file)
                do {
                    let r = try StepsService(root: store.root).importFile(
                        url, now: now.flatMap(ISODate.parse) ?? Date(),
                        timeZone: tz.flatMap(TimeZone.init(identifier:)) ?? .current)
                    print(
                        "Imported \(r.imported) day\(r.imported == 1 ? "" : "s") (\(r.firstDate) … \(r.lastDate))"
                            + (r.replaced > 0 ? ", \(r.replaced) replacing stored days" : "")
                            + (r.dropped > 0
                                ? """
                                , \(r.dropped) oldest days dropped (the history keeps \
                                \(StepsService.maxHistoryDays))
                                """
                                : ""))
                    if let t = r.today { print("Today (\(t.date)): \(t.steps) steps") }
                    print("Wrote \(StepsFile.url(in: store.root).path)")
                } catch let e as DataSourceError {
                    throw CommandError(e.description)
                } catch let e as StoreError {
                    throw CommandError(e.description)
                }
            }
        }

        struct Goal: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "goal", abstract: "Set the daily step goal (and a weekend goal for Saturday and Sunday).")
            @Argument(help: "Steps per day, 1…200000.") var steps: Int
            @Option(
                numeric: ArgumentHelp(
                    "Goal on Saturdays and Sundays, 1…200000 (default: the daily goal).", valueName: "steps"))
            var weekend: Int?
            @OptionGroup var store: StoreOption

            func validate() throws {
                guard StepsService.goalRange.contains(steps) else {
                    throw ValidationError("the goal must be a whole number of steps in 1…200000; got \(steps)")
                }
                if let weekend, !StepsService.goalRange.contains(weekend) {
                    throw ValidationError("'--weekend' must be a whole number of steps in 1…200000; got \(weekend)")
                }
            }

            func run() throws {
                let f = try StepsService(root: store.root).setGoal(weekday: steps, weekend: weekend)
                print(
                    """
                    Goal: \(f.goalWeekday ?? steps) steps on weekdays, \(f.goalWeekend ?? f.goalWeekday ?? steps) \
                    at weekends
                    """
                )
            }
        }
    }
}
