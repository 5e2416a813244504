import Foundation
import TestSupport
import Testing

/// Issue 41, item 10, in `weaver import`: a design the Library already holds is marked in the
/// review and left out of the default selection, as the Library page's review does.
@Suite struct ImportReviewInLibraryCLITests {
    @Test func importingAnExportOfTheLibraryChoosesNothingByDefault() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        _ = try EditorAPITests.makeDesign(rig, name: "Night Board")
        let file = rig.store.deletingLastPathComponent().appendingPathComponent("library.wwdesign")
        let exported = try rig.weaver(["export", "Night Board", "-o", file.path])
        #expect(exported.status == 0, "\(exported.stderrText)")
        let dry = try rig.weaver(["import", file.path, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderrText)")
        #expect(dry.stdoutText.contains("(already in your Library)"), "\(dry.stdoutText)")
        #expect(dry.stdoutText.contains("would import 0 designs"), "\(dry.stdoutText)")
    }
}
