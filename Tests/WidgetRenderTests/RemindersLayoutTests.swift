import Foundation
import Testing
import WidgetDesign

@testable import WidgetRender

/// The Reminders template's rows as actions, and when they are not: the seed's gating (stale
/// snapshot, failed refresh) and read-only sources.
@Suite struct RemindersLayoutTests {
    func layout(
        _ mode: RemindersModeToken, _ family: WidgetFamily = .large, reminders: RemindersSnapshot = Fixtures.reminders,
        hideCompleted: Bool = false
    ) -> WidgetLayout {
        var d = Fixtures.design("reminders")
        d.reminders.mode = mode
        d.reminders.hideCompleted = hideCompleted
        var inputs = Fixtures.inputs()
        inputs.reminders = reminders
        return WidgetRenderer().layout(design: d, family: family, scale: 1, inputs: inputs)
    }

    @Test func eachOpenRowIsACompleteAction() {
        let l = layout(.list)
        let ids = l.actions.filter { $0.kind == .completeReminder }.compactMap(\.reminderID)
        // Open ones, overdue first then by due; the two done rows are drawn but not pressable.
        #expect(ids == ["home:8", "home:2", "work:12", "home:1", "work:30", "work:44"])
        #expect(l.textLines.contains("[x] Pay rent") && l.textLines.contains("[ ] Call the dentist Yesterday"))
        let json = LayoutJSON.encode(l)
        #expect(
            json.contains(
                "\"kind\": \"completeReminder\", \"title\": \"Complete Renew passport\", \"reminderID\": \"home:8\""))
    }

    /// Issue 41.19: a tab at the start of a todo line drew as a wide indent (Pango's 8-column tab stop).
    @Test func tabsInATitleDrawAsOneSpace() throws {
        var r = Fixtures.reminders
        let i = try #require(r.items.firstIndex { $0.id == "home:8" })
        r.items[i].title = "\tRenew\t\tpassport "
        let l = layout(.list, reminders: r)
        #expect(l.textLines.contains("[ ] Renew passport 20 Jan"), "\(l.textLines)")
        #expect(!LayoutJSON.encode(l).contains("\\t"), "a tab is drawn")
    }

    @Test func modesChooseTheirReminders() {
        func titles(_ m: RemindersModeToken, hide: Bool = false) -> [String] {
            layout(m, hideCompleted: hide).textLines.filter { $0.hasPrefix("[") }
        }
        #expect(titles(.overdue) == ["[ ] Renew passport 20 Jan", "[ ] Call the dentist Yesterday"])
        #expect(
            titles(.today) == [
                "[ ] Renew passport 20 Jan", "[ ] Call the dentist Yesterday", "[ ] Send the slides to Sam 14:00",
                "[ ] Buy oat milk 17:00", "[x] Water the plants Today",
            ])
        #expect(titles(.today, hide: true).count == 4)
        #expect(titles(.soon) == ["[ ] Book train tickets Tue"])
        #expect(
            titles(.priority) == [
                "[ ] Call the dentist Yesterday", "[ ] Send the slides to Sam 14:00", "[ ] Book train tickets Tue",
                "[ ] Review the budget",
            ])
        #expect(layout(.priority).textLines.first == "Priority 0/4")
    }

    /// As the app: a stale snapshot, or one whose last refresh failed, draws its rows but none
    /// can be pressed, and the status line says why.
    @Test func staleOrFailedSnapshotsTurnTheRowsOff() {
        var stale = Fixtures.reminders
        stale.updatedAt = Fixtures.now.addingTimeInterval(-3 * 3600)
        let s = layout(.list, reminders: stale)
        #expect(s.actions.isEmpty && s.textLines.contains("Out of date: rows can't be ticked"))
        var failed = Fixtures.reminders
        failed.lastError = "Work: /home/sam/work-tasks.ics: no such file"
        let f = layout(.list, reminders: failed)
        #expect(f.actions.isEmpty && f.textLines.contains("Last refresh failed: rows can't be ticked"))
    }

    @Test func readOnlySourcesSayItAndCannotBePressed() {
        var web = Fixtures.reminders
        web.sources[1].readOnly = true
        web.sources[1].contentSHA256 = nil
        let l = layout(.list, reminders: web)
        #expect(l.actions.compactMap(\.reminderID) == ["home:8", "home:2", "home:1"])
        #expect(l.textLines.contains("[read-only] Send the slides to Sam 14:00"))
    }
}
