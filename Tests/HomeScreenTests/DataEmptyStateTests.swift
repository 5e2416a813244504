import Foundation
import TestSupport
import Testing

/// Issue 41, item 17: a widget whose data is not set up says what to do and where (the Data page),
/// not a file name and a CLI command: its previews sit on the Data page beside the very box that
/// does the job. Drawn by `weaver render`, read back from its layout.
@Suite struct DataEmptyStateTests {
    @Test func emptyDataWidgetsPointToTheDataPage() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        for (template, words) in [
            ("weather", "Choose a place on the Data page."),
            ("reminders", "No task list yet: add one on the Data page."),
        ] {
            let made = try rig.weaver(["designs", "new", "--template", template, "--name", "Empty \(template)"])
            #expect(made.status == 0, "\(made.stderrText)")
            let drawn = try rig.weaver(["render", "Empty \(template)", "--family", "medium", "--format", "json"])
            #expect(drawn.status == 0, "\(drawn.stderrText)")
            #expect(drawn.stdoutText.contains(words), "\(template): \(drawn.stdoutText.prefix(2000))")
            #expect(!drawn.stdoutText.contains("snapshots/"), "\(template) names a file")
            #expect(!drawn.stdoutText.contains("'weaver "), "\(template) names a CLI command")
        }
    }
}
