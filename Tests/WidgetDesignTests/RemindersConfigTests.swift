import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

@Suite("remindersConfig: the app's keys, modelled and edited")
struct RemindersConfigTests {
    /// The app's object (as AppFixtures writes it, plus a key this version does not know) reads
    /// into the model and comes back out with every key, after an edit too.
    @Test func theAppsKeysRoundTripThroughTheEditor() throws {
        var s = makeSpec("R", template: .reminders)
        s.remindersConfig = .object([
            "mode": .string("overdue"), "presentation": .string("sectioned"), "hideCompleted": .bool(true),
            "selectedListIDs": .array([.string("A1B2"), .string("Work")]), "showsDueTimes": .bool(false),
            "futureKey": .number(3),
        ])
        let c = s.reminders
        #expect(
            c.mode == .overdue && c.presentation == .sectioned && c.hideCompleted && !c.showsDueTimes
                && c.showsProgressBadge)
        #expect(c.selectedListIDs == ["A1B2", "Work"])

        try DesignEditor.apply(
            [
                "reminders.mode=focus", "reminders.presentation=dense", "reminders.lists=Groceries, home",
                "reminders.showsProgressBadge=false", "remindersConfig.hideCompleted=false",
            ], to: &s)
        let (back, findings) = try WidgetSpec.decode(s.encoded(), fallbackDate: fixedNow)
        #expect(findings.isEmpty, "\(findings)")
        guard case .object(let o)? = back.remindersConfig else {
            Issue.record("no remindersConfig")
            return
        }
        #expect(
            o["mode"] == .string("focus") && o["presentation"] == .string("dense") && o["hideCompleted"] == .bool(false)
        )
        #expect(
            o["selectedListIDs"] == .array([.string("Groceries"), .string("home")])
                && o["showsProgressBadge"] == .bool(false))
        #expect(o["showsDueTimes"] == .bool(false) && o["futureKey"] == .number(3))
    }

    @Test func theEditorIsStrictAndTheReaderTolerant() throws {
        var s = makeSpec("R", template: .reminders)
        do {
            try DesignEditor.apply(["reminders.mode=flagged"], to: &s)
            Issue.record("an unknown mode was accepted")
        } catch let e as DesignError {
            #expect(
                e.message == "reminders.mode: 'flagged' is not allowed; allowed: today|overdue|soon|priority|focus|list"
            )
        }
        var classic = makeSpec("C")
        #expect(throws: DesignError.self) { try DesignEditor.apply(["reminders.mode=soon"], to: &classic) }
        #expect(classic.remindersConfig == nil)
        let many = (1...51).map { "L\($0)" }.joined(separator: ",")
        #expect(throws: DesignError.self) { try DesignEditor.apply(["reminders.lists=\(many)"], to: &s) }
        // Read tolerantly: wrong types and unknown tokens are the defaults.
        let odd = RemindersConfig(
            json: .object([
                "mode": .string("someday"), "presentation": .number(2), "hideCompleted": .string("yes"),
                "selectedListIDs": .array([.number(1), .string(""), .string("ok")]),
            ]))
        #expect(
            odd
                == {
                    var c = RemindersConfig()
                    c.selectedListIDs = ["ok"]
                    return c
                }())
        #expect(
            RemindersConfig(json: nil) == RemindersConfig() && RemindersConfig(json: .array([])) == RemindersConfig())
    }
}
