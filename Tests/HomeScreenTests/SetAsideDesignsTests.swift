import Foundation
import TestSupport
import Testing

/// Issue 41, item 15 (the set-aside half): a design file that could not be read is moved aside
/// (`NAME.json.corrupt-…`) and used to just disappear; `weaver designs list` and the Library page
/// now name it.
@Suite struct SetAsideDesignsTests {
    @Test func aDesignSetAsideIsNamedByTheCLIAndTheLibrary() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Broken")
        _ = try EditorAPITests.makeDesign(rig, name: "Fine")
        try Data("not a design".utf8).write(to: rig.store.appendingPathComponent("designs/\(id).json"))
        let shown = try rig.weaver(["designs", "show", id])  // reading it sets it aside
        #expect(shown.status != 0, "\(shown.stdoutText)")
        let list = try rig.weaver(["designs", "list"])
        #expect(list.status == 0, "\(list.stderrText)")
        #expect(
            list.stdoutText.contains("Set aside (could not be read") && list.stdoutText.contains("\(id).json.corrupt-"),
            "\(list.stdoutText)")
        try rig.startServer()
        let page = try RawHTTP.send(port: rig.port, path: "/library")
        #expect(page.status == 200)
        #expect(
            page.text.contains(#"id="set-aside""#) && page.text.contains("\(id).json.corrupt-"), "no set-aside notice")
    }
}
