import Foundation
import SharedStore
import Testing
@testable import WidgetDesign

@Suite struct DesignLibraryTests {
    @Test func addListLoadUpdateNewestFirst() throws {
        let store = try TempStore(); defer { store.remove() }
        let lib = store.library()
        let a = makeSpec("Alpha", updated: day(1)), b = makeSpec("Beta", updated: day(3)), c = makeSpec("Gamma", updated: day(2))
        try lib.add([a, b, c])
        #expect(try lib.summaries().map(\.name) == ["Beta", "Gamma", "Alpha"])
        #expect(try lib.load(a.id) == a)
        let edited = try lib.update(a.id, now: day(9)) { $0.style.accent = .pink }
        #expect(edited.updatedAt == day(9))
        #expect(try lib.load(a.id).style.accent == .pink)
        #expect(try lib.summaries().first?.name == "Alpha")
    }

    @Test func searchIgnoresCaseAndAccents() throws {
        let store = try TempStore(); defer { store.remove() }
        try store.unlockPro()
        let lib = store.library()
        try lib.add([makeSpec("Météo du jour"), makeSpec("CAFÉ"), makeSpec("Other")])
        #expect(try lib.search("meteo").map(\.name) == ["Météo du jour"])
        #expect(try lib.search("café").map(\.name) == ["CAFÉ"])
        #expect(try lib.search("CAFE").count == 1)
        #expect(try lib.search("").count == 3)
        #expect(try lib.resolve("météo DU JOUR").name == "Météo du jour")
    }

    @Test func freeTierCapsAtThreeAndProIsUnlimited() throws {
        let store = try TempStore(); defer { store.remove() }
        let lib = store.library()
        try lib.add([makeSpec("1"), makeSpec("2"), makeSpec("3")])
        do {
            try lib.add([makeSpec("4")])
            Issue.record("the fourth design should be refused")
        } catch let e as DesignError {
            #expect(e.message.contains("at most 3"))
            #expect(e.message.contains("weaver pro unlock"))
        }
        #expect(try lib.summaries().count == 3)
        try store.unlockPro()
        try lib.add([makeSpec("4"), makeSpec("5")])
        #expect(try lib.summaries().count == 5)
    }

    @Test func deleteMovesToTrashAndRestoreBringsItBackUnchanged() throws {
        let store = try TempStore(); defer { store.remove() }
        let lib = store.library()
        let s = makeSpec("Gone")
        try lib.add([s])
        try lib.setDefault(s.id)
        try lib.delete(s.id)
        #expect(try lib.summaries().isEmpty)
        #expect(try lib.defaultID() == nil)
        #expect(try lib.trashed().map(\.id) == [s.id])
        #expect(FileManager.default.fileExists(atPath: store.root.trash.appendingPathComponent("\(s.id.uuidString).json").path))
        let back = try lib.restore(s.id.uuidString)
        #expect(back == s)
        #expect(try lib.trashed().isEmpty)
    }

    @Test func defaultIsRecordedInTheStore() throws {
        let store = try TempStore(); defer { store.remove() }
        let lib = store.library()
        let s = makeSpec("D")
        try lib.add([s])
        #expect(try lib.defaultID() == nil)
        try lib.setDefault(s.id)
        #expect(try DesignLibrary(root: store.root).defaultID() == s.id)
        #expect(throws: DesignError.self) { try lib.setDefault(UUID()) }
    }

    @Test func indexIsRebuiltWhenFilesChangeBehindItsBack() throws {
        let store = try TempStore(); defer { store.remove() }
        try store.unlockPro()
        let lib = store.library()
        try lib.add([makeSpec("A")])
        let extra = makeSpec("Dropped in by hand")
        try extra.encoded().write(to: store.root.designs.appendingPathComponent("\(extra.id.uuidString).json"))
        #expect(Set(try lib.summaries().map(\.name)) == ["A", "Dropped in by hand"])
        try "garbage".write(to: store.root.designIndex, atomically: true, encoding: .utf8)
        #expect(try lib.summaries().count == 2)
    }

    @Test func unreadableDesignFileIsSetAsideNotOverwritten() throws {
        let store = try TempStore(); defer { store.remove() }
        let lib = store.library()
        try lib.add([makeSpec("Good")])
        let badID = UUID()
        let bad = store.root.designs.appendingPathComponent("\(badID.uuidString).json")
        try Data("{ not json".utf8).write(to: bad)
        #expect(try lib.summaries().map(\.name) == ["Good"])
        let names = files(in: store.root.designs)
        #expect(names.contains { $0.hasPrefix("\(badID.uuidString).json.corrupt-") })
        let aside = try #require(names.first { $0.contains("corrupt") })
        #expect(try String(contentsOf: store.root.designs.appendingPathComponent(aside), encoding: .utf8) == "{ not json")
    }

    @Test func resolveByPrefixAndAmbiguousNames() throws {
        let store = try TempStore(); defer { store.remove() }
        let lib = store.library()
        let a = makeSpec("Twin"), b = makeSpec("Twin")
        try lib.add([a, b])
        #expect(try lib.resolve(String(a.id.uuidString.prefix(8))).id == a.id)
        #expect(throws: DesignError.self) { try lib.resolve("Twin") }
        #expect(throws: DesignError.self) { try lib.resolve("nobody") }
    }

    @Test func editorRefusesBadValuesAndKeepsTheDesign() throws {
        var s = makeSpec("E")
        let before = s
        #expect(throws: DesignError.self) { try DesignEditor.apply(["accent=pink", "spacing=40"], to: &s) }
        #expect(s == before)
        #expect(throws: DesignError.self) { try DesignEditor.apply(["image=../x.png"], to: &s) }
        #expect(throws: DesignError.self) { try DesignEditor.apply(["colour=red"], to: &s) }
        try DesignEditor.apply(["accent=pink", "style.background=aurora", "template=hero", "symbol.size=40",
                                "action.1=increment:cups:2", "action.2=now:fed:unixSeconds:Fed", "secondary="], to: &s)
        #expect(s.style.accent == .pink && s.style.background == .aurora && s.layout.template == .hero)
        #expect(s.symbol?.sizePoints == 40 && s.secondaryText == nil)
        #expect(s.actionBar?.actions.map(\.kind) == [.incrementVariable, .setVariableToNow])
        #expect(s.actionBar?.actions[1].title == "Fed")
    }
}
