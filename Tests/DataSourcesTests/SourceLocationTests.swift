import Foundation
import Testing

@testable import DataSources

@Suite("Source locations: paths and addresses")
struct SourceLocationTests {
    /// `~/` is the `$HOME` the user's shell has, not the password file's home (Foundation's
    /// `homeDirectoryForCurrentUser` and `expandingTildeInPath` read the latter on Linux).
    @Test func tildeIsReadFromHOME() {
        let env = ["HOME": "/home/ana/"]
        #expect(
            SourceLocation.normalised("~/Calendars/work.ics", relativeTo: "/srv", environment: env)
                == "/home/ana/Calendars/work.ics")
        #expect(SourceLocation.expandingHome("~", environment: env) == "/home/ana")
        // Another user's home and a relative path are not this user's.
        #expect(
            SourceLocation.normalised("~bob/todo.txt", relativeTo: "/srv", environment: env) == "/srv/~bob/todo.txt")
        #expect(SourceLocation.normalised("todo.txt", relativeTo: "/srv", environment: env) == "/srv/todo.txt")
        #expect(
            SourceLocation.normalised("webcal://example.org/c.ics", environment: env) == "https://example.org/c.ics")
        // Without $HOME (a systemd unit), the password database's home.
        let fallback = SourceLocation.expandingHome("~/x.ics", environment: [:])
        #expect(fallback.hasPrefix("/") && fallback.hasSuffix("/x.ics") && !fallback.hasPrefix("~"))
    }
}
