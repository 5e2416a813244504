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
            @OptionGroup var clockOptions: DataClockOptions<StepsClockHelp>
            @OptionGroup var store: StoreOption

            func run() throws {
                let url = URL(fileURLWithPath: file)
                do {
                    let r = try StepsService(root: store.root).importFile(
                        url, now: clockOptions.clock, timeZone: clockOptions.zone)
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
