import ArgumentParser
import CivilDates
import Foundation

/// `--tz` and `--now` of the data commands (`weaver calendar refresh`, `weaver reminders
/// refresh`, `weaver steps import`), checked once: the zone and the clock to pretend (for trying
/// things out). What the zone decides differs per command, so each names its help (`Help`).
struct DataClockOptions<Help: DataClockHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Help.zone, valueName: "zone")) var tz: String?
    @Option(help: ArgumentHelp(Help.clock, valueName: "iso8601")) var now: String?

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

/// The help lines of one command's `--tz` and `--now`.
protocol DataClockHelp {
    static var zone: String { get }
    static var clock: String { get }
}

enum RemindersClockHelp: DataClockHelp {
    static let zone = "IANA zone that decides what is today (default: the system's)."
    static let clock = "Pretend the clock is this ISO 8601 date-time (for trying things out)."
}

enum CalendarClockHelp: DataClockHelp {
    static let zone = "IANA zone for floating times and all-day dates (default: the system's)."
    static let clock = RemindersClockHelp.clock
}

enum StepsClockHelp: DataClockHelp {
    static let zone = "IANA zone that decides which date is today (default: the system's)."
    static let clock = "Pretend the clock is this ISO 8601 date-time."
}
