import ArgumentParser
import Foundation
import SharedStore

/// `--tz` and `--now` of the data commands, checked once: the zone that decides "today" and the
/// clock to pretend (for trying things out). `weaver reminders refresh` uses it; `calendar
/// refresh` and `steps import` still spell the same two options out.
struct DataClockOptions: ParsableArguments {
    @Option(help: ArgumentHelp("IANA zone that decides what is today (default: the system's).", valueName: "zone"))
    var tz: String?
    @Option(
        help: ArgumentHelp(
            "Pretend the clock is this ISO 8601 date-time (for trying things out).", valueName: "iso8601")) var now:
        String?

    func validate() throws {
        if let tz, TimeZone(identifier: tz) == nil {
            throw ValidationError("'--tz' must be an IANA time zone such as Europe/London; got '\(tz)'")
        }
        if let now, ISODate.parse(now) == nil {
            throw ValidationError("'--now' must be an ISO 8601 date-time such as 2026-01-24T09:30:00Z; got '\(now)'")
        }
    }

    var zone: TimeZone { tz.flatMap(TimeZone.init(identifier:)) ?? .current }
    var clock: Date { now.flatMap(ISODate.parse) ?? Date() }
}
