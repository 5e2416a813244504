import ArgumentParser
import Foundation
import SharedStore
import TemplateLanguage

extension Weaver {
    struct Vars: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vars",
            abstract: "Render {{...}} templates and manage stored variables.",
            discussion:
                """
                Stored (custom) variables are a Pro feature: they resolve in templates, and can be written, only \
                when Pro is unlocked ('weaver pro unlock').
                """,
            subcommands: [
                Render.self, Keys.self, Set.self, Get.self, Delete.self, List.self, SetNow.self, Increment.self,
            ]
        )
    }
}

/// The render clock, time zone and locale, shared by commands that render or compute local times.
struct ClockOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Pin the render clock to an ISO 8601 date-time, e.g. 2026-01-24T09:30:00Z (default: the real clock).",
            valueName: "iso8601"))
    var now: String?

    @Option(help: ArgumentHelp("IANA time zone, e.g. Europe/London (default: the system's).", valueName: "zone"))
    var tz: String?

    @Option(help: ArgumentHelp("Locale identifier, e.g. en_US (default: the system's).", valueName: "locale-id"))
    var locale: String?

    func validate() throws {
        _ = try resolved()
    }

    /// The clock, zone and locale to use; errors name the flag and what it accepts.
    func resolved() throws -> (now: Date, timeZone: TimeZone, locale: Locale) {
        var timeZone = TimeZone.current
        if let tz {
            guard let zone = TimeZone(identifier: tz) else {
                throw ValidationError(
                    "'--tz' must be an IANA time zone such as Europe/London or America/New_York; got '\(tz)'")
            }
            timeZone = zone
        }
        var locale = Locale.current
        if let id = self.locale {
            let underscored = id.replacingOccurrences(of: "-", with: "_")
            guard ["en_US_POSIX", "root"].contains(underscored) || Locale.availableIdentifiers.contains(underscored)
            else {
                throw ValidationError(
                    "'--locale' must be a known locale identifier such as en_US or de_DE; got '\(id)'")
            }
            locale = Locale(identifier: underscored)
        }
        var now = Date()
        if let text = self.now {
            guard let pinned = DateParsing.parseISO8601(text, timeZone: timeZone) else {
                throw ValidationError(
                    """
                    '--now' must be an ISO 8601 date-time between years 0001 and 9999, such as \
                    2026-01-24T09:30:00Z; got '\(text)'
                    """
                )
            }
            now = pinned
        }
        return (now, timeZone, locale)
    }
}

/// A runtime failure reported as `Error: <message>` with exit status 1.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum StoreMessages {
    /// Tells the user where an unreadable store file went; it is never overwritten.
    static func reportSetAside(_ reason: String, _ url: URL) {
        // `url` is where the file went (`NAME.corrupt-…` beside it): the notice names the file itself.
        FileHandle.standardError.write(Data("warning: \(SetAsideNotice.text(reason: reason, movedTo: url))\n".utf8))
    }

    static func requirePro(_ root: StoreRoot, action: String) throws {
        guard isProUnlocked(root) else {
            throw CommandError("\(action) needs Pro: custom variables are a Pro feature; run 'weaver pro unlock' first")
        }
    }
}
