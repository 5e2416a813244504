import Foundation
import SharedStore
import Snapshots
import Synchronization
import TestSupport
import Testing

@testable import DataSources

/// Line-by-line difference: the lines of `before` that are not in `after` at the same place,
/// and the lines added, found by trimming the common head and tail.
func changedLines(_ before: Data, _ after: Data) -> (removed: [String], added: [String]) {
    func lines(_ d: Data) -> [String] { String(decoding: d, as: UTF8.self).components(separatedBy: "\n") }
    let a = lines(before), b = lines(after)
    var head = 0
    while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
    var tail = 0
    while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
    return (Array(a[head..<(a.count - tail)]), Array(b[head..<(b.count - tail)]))
}

@Suite("Reminders: sources → snapshots/reminders.json → completing from the widget")
struct RemindersTests {
    /// Saturday 24 January 2026, 09:30 UTC.
    let now = Fixtures.fetchTime
    let dublin = TimeZone(identifier: "Europe/Dublin")!

    func setUp() throws -> (RemindersService, URL) {
        let root = try Fixtures.store()
        let folder = try Products.temporaryDirectory("reminders")
        try DataFixtures.data("todo.txt").write(to: folder.appendingPathComponent("todo.txt"))
        try DataFixtures.data("tasks-evolution.ics").write(to: folder.appendingPathComponent("household.ics"))
        return (RemindersService(root: root), folder)
    }

    @Test func todoTxtAndTaskFilesMakeTheSnapshot() throws {
        let (service, folder) = try setUp()
        let todo = try service.add(folder.appendingPathComponent("todo.txt").path, name: nil, now: now)
        #expect(todo.0.id == "todo" && todo.0.kind == .todoTxt && todo.itemCount == 9)
        #expect(todo.warnings == ["line 10: due:2026-02-30 is not a YYYY-MM-DD date; ignored"])
        let ics = try service.add(folder.appendingPathComponent("household.ics").path, name: nil, now: now)
        #expect(ics.0.id == "household" && ics.0.name == "Household" && ics.0.kind == .iCalendar && ics.itemCount == 3)
        #expect(throws: DataSourceError.self) {
            _ = try service.add(folder.appendingPathComponent("todo.txt").path, name: nil, now: now)
        }

        let report = try service.refresh(now: now, timeZone: dublin)
        let s = report.snapshot
        #expect(s.lastError == nil && s.sources.map(\.ok) == [true, true] && s.sources.allSatisfy { !$0.readOnly })
        #expect(s.sources[0].contentSHA256 == SHA256.hex(DataFixtures.data("todo.txt")))
        // Open ones first, in file order; the done ones after, newest completion first.
        #expect(
            s.items.map(\.id) == [
                "todo:1", "todo:2", "todo:3", "todo:7", "todo:8", "todo:9", "todo:10",
                "household:6", "household:21", "household:29", "todo:4", "todo:5",
            ])
        let dentist = s.items[0]
        #expect(
            dentist.priority == 1 && dentist.list == "Health" && dentist.tags == ["phone"]
                && dentist.dueDay == "2026-01-24")
        // Dublin midnight = UTC
        #expect(dentist.dueIsDate == true && dentist.due == Date(timeIntervalSince1970: 1_769_212_800))
        let bill = s.items[7]
        #expect(
            bill.title == "Pay the electricity bill" && bill.list == "Household" && bill.priority == 2
                && bill.dueDay == "2026-01-23")
        #expect(bill.uid == "20260115T093000Z-4821-1000-1-0@laptop")
        #expect(s.items[8].repeats == "FREQ=WEEKLY;BYDAY=SA")
        // The rules: the bill (23rd) and the insurance (22nd) are overdue; the dentist and the coffee are today.
        let days = ReminderDays(now: now, timeZone: dublin)
        #expect(s.items.filter(days.isOverdue).map(\.title) == ["Renew car insurance", "Pay the electricity bill"])
        #expect(
            s.items.filter(days.isDueToday).map(\.title) == [
                "Call the dentist about the crown", "Water the plants", "Coffee beans",
            ])
        #expect(s.items.filter(days.isSoon).map(\.title) == ["Book train tickets to Cork", "Read chapter 4"])
        #expect(s.items.filter(\.isPriority).count == 5)

        // The file on disk reads back (through the tolerant reader the widget uses) as the same snapshot.
        #expect(RemindersSnapshot.load(from: service.root) == s)
        #expect(try service.list().map(\.itemCount) == [9, 3])
    }

    @Test func notTasksAreRefusedAndNothingIsSaved() throws {
        let (service, folder) = try setUp()
        let events = folder.appendingPathComponent("events.ics")
        try Data(
            """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260124T100000Z\r\nEND:VEVENT\r\n\
            END:VCALENDAR\r\n
            """
            .utf8
        ).write(to: events)
        #expect(throws: DataSourceError.self) { _ = try service.add(events.path, name: nil) }
        let binary = folder.appendingPathComponent("photo.txt")
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 1]).write(to: binary)
        #expect(throws: DataSourceError.self) { _ = try service.add(binary.path, name: nil) }
        #expect(throws: DataSourceError.self) {
            _ = try service.add(folder.appendingPathComponent("missing.txt").path, name: nil)
        }
        #expect(try service.list().isEmpty)
    }

    /// A web source: read-only in the snapshot; when it goes down, the last download is used and
    /// the failure is recorded, which turns the rows' buttons off.
    @Test func webTasksAreReadOnlyAndKeepTheirLastDownload() throws {
        let (service, _) = try setUp()
        let online = Mutex(true)
        let body = DataFixtures.data("tasks-evolution.ics")
        let server = try LocalHTTPServer { _ in
            guard online.withLock({ $0 }) else { return .json("down", status: 503) }
            return LocalHTTPServer.Response(contentType: "text/calendar", body: body)
        }
        defer { server.stop() }
        var svc = service
        svc.policy.retryDelaysSeconds = [0.01]
        let added = try svc.add("\(server.baseURL)/tasks.ics", name: "Shared", now: now)
        #expect(added.0.isWeb && added.itemCount == 3)
        var s = try svc.refresh(now: now, timeZone: dublin).snapshot
        #expect(s.sources[0].readOnly && s.sources[0].contentSHA256 == nil && s.lastError == nil)
        let bill = s.items.first { $0.title == "Pay the electricity bill" }!
        #expect(s.completionBlocked(bill, at: now) == "Shared is read from an address and cannot be changed here")
        online.withLock { $0 = false }
        let report = try svc.refresh(now: now, timeZone: dublin)
        s = report.snapshot
        #expect(s.items.count == 3 && s.lastError?.contains("503") == true)
        #expect(report.notes.contains { $0.contains("; using the copy downloaded from ") })
        #expect(s.completionBlocked(s.items[0], at: now)?.hasPrefix("the last refresh failed") == true)
        // A page that is not a calendar is refused when added.
        let page = try LocalHTTPServer { _ in .init(contentType: "text/html", body: Data("<html>Sign in</html>\n".utf8))
        }
        defer { page.stop() }
        #expect(throws: DataSourceError.self) { _ = try svc.add("\(page.baseURL)/tasks", name: nil, now: now) }
    }

    // MARK: - Completion

    @Test func completingATodoTxtLineChangesOnlyThatLine() throws {
        let (service, folder) = try setUp()
        let file = folder.appendingPathComponent("todo.txt")
        chmod(file.path, 0o640)
        _ = try service.add(file.path, name: nil, now: now)
        _ = try service.refresh(now: now, timeZone: dublin)
        let before = try Data(contentsOf: file)
        let out = try ReminderCompletion(service: service).complete(
            "todo:1", now: now.addingTimeInterval(60), timeZone: dublin)
        #expect(out.message == "Completed 'Call the dentist about the crown' (line 1).")
        let after = try Data(contentsOf: file)
        let diff = changedLines(before, after)
        #expect(diff.removed == ["(A) 2026-01-20 Call the dentist about the crown +Health @phone due:2026-01-24"])
        #expect(
            diff.added == [
                "x 2026-01-24 2026-01-20 Call the dentist about the crown +Health @phone due:2026-01-24 pri:A"
            ])
        #expect(after.count == before.count + "x 2026-01-24 ".count - "(A) ".count + " pri:A".count)
        var st = stat()
        #expect(stat(file.path, &st) == 0 && st.st_mode & 0o777 == 0o640)
        // The snapshot follows: the item is done, and a second press on another row is checked
        // against the new bytes (so it is not refused as an outside edit).
        let s = try ReminderCompletion(service: service).loadSnapshot()
        #expect(s.items.first { $0.id == "todo:1" }?.done == true)
        #expect(s.sources[0].contentSHA256 == SHA256.hex(after))
        _ = try ReminderCompletion(service: service).complete(
            "todo:3", now: now.addingTimeInterval(120), timeZone: dublin)
        #expect(
            changedLines(after, try Data(contentsOf: file)).added == [
                "x 2026-01-24 2026-01-18 Buy oat milk @shop +Groceries"
            ])
        #expect(throws: DataSourceError.self) {
            _ = try ReminderCompletion(service: service).complete("todo:1", now: now, timeZone: dublin)
        }
    }

    @Test func completingATaskChangesOnlyItsStatusLines() throws {
        let (service, folder) = try setUp()
        let file = folder.appendingPathComponent("household.ics")
        _ = try service.add(file.path, name: nil, now: now)
        _ = try service.refresh(now: now, timeZone: dublin)
        let before = try Data(contentsOf: file)
        let completion = ReminderCompletion(service: service)
        let out = try completion.complete("household:6", now: now, timeZone: dublin)
        #expect(out.message == "Completed 'Pay the electricity bill' (line 6).")
        let after = try Data(contentsOf: file)
        // STATUS in place; COMPLETED and PERCENT-COMPLETE before END:VTODO; the alarm's STATUS,
        // the folded DESCRIPTION and the CRLF line ends untouched.
        let a = String(decoding: after, as: UTF8.self).components(separatedBy: "\r\n")
        let b = String(decoding: before, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(a.count == b.count + 2)
        #expect(
            Array(a[0..<11]) == Array(b[0..<11]) && a[11] == "STATUS:COMPLETED"
                && Array(a[12..<19]) == Array(b[12..<19]))
        #expect(
            a[19] == "COMPLETED:20260124T093000Z" && a[20] == "PERCENT-COMPLETE:100"
                && Array(a[21...]) == Array(b[19...]))

        // The coffee (now at line 31) has PERCENT-COMPLETE:40: replaced in place.
        let s = try completion.loadSnapshot()
        let coffee = s.items.first { $0.title == "Coffee beans" }!
        #expect(coffee.id == "household:31" && s.items.first { $0.title == "Pay the electricity bill" }?.done == true)
        _ = try completion.complete(coffee.id, now: now, timeZone: dublin)
        let c = String(decoding: try Data(contentsOf: file), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(Array(c[0..<34]) == Array(a[0..<34]) && c[34] == "PERCENT-COMPLETE:100" && c[35] == "CATEGORIES:Shop")
        #expect(
            c[36] == "STATUS:COMPLETED" && c[37] == "COMPLETED:20260124T093000Z" && c[38] == "END:VTODO"
                && c.count == a.count + 2)

        // A repeating task moves on to its next instance (DTSTART and DUE together) and stays open.
        let plants = try completion.loadSnapshot().items.first { $0.title == "Water the plants" }!
        let repeated = try completion.complete(plants.id, now: now, timeZone: dublin)
        #expect(repeated.message == "Completed 'Water the plants'; it repeats, next due 20260131.")
        let p = String(decoding: try Data(contentsOf: file), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(
            p.count == c.count
                && p.enumerated().filter { $0.element != c[$0.offset] }.map(\.element) == [
                    "DTSTART;VALUE=DATE:20260124", "DUE;VALUE=DATE:20260131",
                ])
    }

    @Test func aFileEditedAfterTheSnapshotIsRefusedAndUntouched() throws {
        let (service, folder) = try setUp()
        let file = folder.appendingPathComponent("todo.txt")
        _ = try service.add(file.path, name: nil, now: now)
        _ = try service.refresh(now: now, timeZone: dublin)
        let edited = try Data(contentsOf: file) + Data("New task typed in an editor\n".utf8)
        try edited.write(to: file)
        do {
            _ = try ReminderCompletion(service: service).complete("todo:2", now: now, timeZone: dublin)
            Issue.record("an edited file was written")
        } catch let e as DataSourceError {
            #expect(e.description.contains("changed since the last refresh, and nothing was written"))
        }
        #expect(try Data(contentsOf: file) == edited)

        // A stale snapshot refuses too, before reading the file.
        _ = try service.refresh(now: now, timeZone: dublin)
        #expect(throws: DataSourceError.self) {
            _ = try ReminderCompletion(service: service).complete(
                "todo:2", now: now.addingTimeInterval(3 * 3600), timeZone: dublin)
        }
        #expect(try Data(contentsOf: file) == edited)
    }

    @Test func aSymlinkedFileHasItsTargetWritten() throws {
        let (service, folder) = try setUp()
        let target = folder.appendingPathComponent("Sync/real-todo.txt")
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try DataFixtures.data("todo.txt").write(to: target)
        let link = folder.appendingPathComponent("linked-todo.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "Sync/real-todo.txt")
        _ = try service.add(link.path, name: "Linked", now: now)
        _ = try service.refresh(now: now, timeZone: dublin)
        let out = try ReminderCompletion(service: service).complete("linked:2", now: now, timeZone: dublin)
        #expect(out.writtenPath == target.resolvingSymlinksInPath().path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "Sync/real-todo.txt")
        #expect(
            changedLines(DataFixtures.data("todo.txt"), try Data(contentsOf: target)).added
                == ["x 2026-01-24 Renew car insurance +Car due:2026-01-22 t:2026-01-15 pri:B"])
    }
}
