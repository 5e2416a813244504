import DataSources
import Foundation
import SharedStore
import TestSupport
import Testing
import WidgetActions

@testable import WidgetRender

/// A Reminders row as laid out becomes `.completeReminder(id:)` and the performer completes the
/// reminder in its file, as `weaver tap`, the home screen and the desktop host do.
@Suite struct CompleteReminderTests {
    @Test func aLaidOutRowCompletesItsReminder() throws {
        let root = StoreRoot(url: try Products.temporaryDirectory("complete-reminder"))
        let todo = root.url.appendingPathComponent("todo.txt")
        try Data("(B) Post the letter +Home\nCall Sam @phone\n".utf8).write(to: todo)
        let service = RemindersService(root: root)
        let now = Date(timeIntervalSince1970: 1_769_247_000)  // 2026-01-24T09:30:00Z
        _ = try service.add(todo.path, name: nil, now: now)
        _ = try service.refresh(now: now, timeZone: TimeZone(identifier: "UTC")!)

        let row = ActionArea(
            id: "reminders.todo:2", action: .completeReminder(id: "todo:2"), title: "Complete Call Sam",
            rect: Rect(x: 0, y: 0, width: 10, height: 10))
        let action = row.action
        #expect(row.reminderID == "todo:2" && action.kind == .completeReminder)
        let performer = WidgetActionPerformer(
            store: root, now: { now.addingTimeInterval(60) }, timeZone: TimeZone(identifier: "UTC")!)
        #expect(try performer.perform(action, title: row.title).message == "Completed 'Call Sam' (line 2).")
        #expect(
            try String(contentsOf: todo, encoding: .utf8) == "(B) Post the letter +Home\nx 2026-01-24 Call Sam @phone\n"
        )
        // Pressed again: refused with the reason, the file as it is.
        #expect(throws: WidgetActionError.self) { try performer.perform(action) }
        // A row that names no reminder is refused before anything is read.
        #expect(throws: WidgetActionError.self) { try performer.perform(.completeReminder(id: "")) }
        // Three hours later the snapshot is stale: refused, nothing written.
        let late = WidgetActionPerformer(
            store: root, now: { now.addingTimeInterval(3 * 3600) }, timeZone: TimeZone(identifier: "UTC")!)
        do {
            _ = try late.perform(.completeReminder(id: "todo:1"))
            Issue.record("a stale snapshot was acted on")
        } catch let e as WidgetActionError {
            #expect(e.description.contains("out of date"))
        }
        #expect(
            try String(contentsOf: todo, encoding: .utf8) == "(B) Post the letter +Home\nx 2026-01-24 Call Sam @phone\n"
        )
    }

    /// Issue 41.5: Undo puts the file's bytes from before a completion back, and the snapshot with them,
    /// only while the file holds what the completion wrote; after another change it says so and
    /// writes nothing.
    @Test func undoPutsTheFileBackOnlyWhileItHoldsWhatWasWritten() throws {
        let root = StoreRoot(url: try Products.temporaryDirectory("undo-reminder"))
        let todo = root.url.appendingPathComponent("todo.txt")
        let original = Data("(B) Post the letter +Home\r\nCall Sam @phone\r\n".utf8)  // CRLF, kept byte for byte
        try original.write(to: todo)
        let service = RemindersService(root: root)
        let now = Date(timeIntervalSince1970: 1_769_247_000)  // 2026-01-24T09:30:00Z
        _ = try service.add(todo.path, name: nil, now: now)
        _ = try service.refresh(now: now, timeZone: TimeZone(identifier: "UTC")!)
        let performer = WidgetActionPerformer(
            store: root, now: { now.addingTimeInterval(60) }, timeZone: TimeZone(identifier: "UTC")!)

        let done = try performer.perform(.completeReminder(id: "todo:2"))
        let undo = try #require(done.undo)
        #expect(undo.description == "Completed 'Call Sam'")
        #expect(try Data(contentsOf: todo) != original)
        #expect(try performer.undo(undo).message == "Reopened 'Call Sam'.")
        #expect(try Data(contentsOf: todo) == original)
        // The snapshot follows: the row can be completed again at once.
        let again = try performer.perform(.completeReminder(id: "todo:2"))
        let second = try #require(again.undo)
        // A line added by hand since: that Undo would lose it, so it is refused and nothing is written.
        var edited = try Data(contentsOf: todo)
        edited.append(contentsOf: Array("Water the plants\r\n".utf8))
        try edited.write(to: todo)
        do {
            _ = try performer.undo(second)
            Issue.record("an Undo over a hand edit was carried out")
        } catch let e as WidgetActionError {
            #expect(e.description.contains("'Call Sam' was not reopened: \(todo.path) changed since it was completed"))
        }
        #expect(try Data(contentsOf: todo) == edited)
    }
}
