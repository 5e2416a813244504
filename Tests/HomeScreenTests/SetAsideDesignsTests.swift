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

    /// Issue 41 item 15, the repairs: a design file whose name is a number reads as "WidgetWeaver"
    /// (the field's default) and used to show only that; `designs list` and the Library now say
    /// which field was repaired and how, every time (the file stays as it is until it is saved).
    @Test func aRepairedDesignSaysWhatWasRepaired() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Numbered")
        let file = rig.store.appendingPathComponent("designs/\(id).json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Numbered\"", with: "42").write(to: file, atomically: true, encoding: .utf8)
        for _ in 0..<2 {  // the second listing reads the index, not the file
            let list = try rig.weaver(["designs", "list"])
            #expect(list.status == 0, "\(list.stderrText)")
            #expect(list.stdoutText.contains("[repaired]"), "\(list.stdoutText)")
            #expect(
                list.stdoutText.contains("WidgetWeaver (\(id.prefix(8))): name: expected a string, found number 42"),
                "\(list.stdoutText)")
        }
        let json = try rig.weaver(["designs", "list", "--json"])
        #expect(json.stdoutText.contains("\"repairs\""), "\(json.stdoutText)")
        try rig.startServer()
        let page = try RawHTTP.send(port: rig.port, path: "/library")
        #expect(page.status == 200)
        #expect(page.text.contains("Repaired when read"), "no repair notice")
        #expect(page.text.contains("name: expected a string, found number 42"), "the repair is not named")
    }
}
