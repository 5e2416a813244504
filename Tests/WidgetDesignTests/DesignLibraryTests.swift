import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

@Suite struct DesignLibraryTests {
    @Test func addListLoadUpdateNewestFirst() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        let a = makeSpec("Alpha", updated: day(1)), b = makeSpec("Beta", updated: day(3)),
            c = makeSpec("Gamma", updated: day(2))
        try lib.add([a, b, c])
        #expect(try lib.summaries().map(\.name) == ["Beta", "Gamma", "Alpha"])
        #expect(try lib.load(a.id) == a)
        let edited = try lib.update(a.id, now: day(9)) { $0.style.accent = .pink }
        #expect(edited.updatedAt == day(9))
        #expect(try lib.load(a.id).style.accent == .pink)
        #expect(try lib.summaries().first?.name == "Alpha")
    }

    @Test func searchIgnoresCaseAndAccents() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
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
        let store = try TestStore("ww-designs")
        defer { store.remove() }
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
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        let s = try lib.added(makeSpec("Gone"))
        try lib.setDefault(s.id)
        try lib.delete(s.id)
        #expect(try lib.summaries().isEmpty)
        #expect(try lib.defaultID() == nil)
        #expect(try lib.trashed().map(\.id) == [s.id])
        #expect(
            FileManager.default.fileExists(
                atPath: store.root.trash.appendingPathComponent("\(s.id.uuidString).json").path))
        let back = try lib.restore(s.id.uuidString)
        #expect(back == s)
        #expect(try lib.trashed().isEmpty)
    }

    @Test func defaultIsRecordedInTheStore() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        let s = makeSpec("D"), t = makeSpec("T")
        try lib.add([s])
        // Issue 28.5: the first design in an empty library becomes the default, as on iOS.
        #expect(try lib.defaultID() == s.id)
        try lib.add([t])
        #expect(try lib.defaultID() == s.id)
        try lib.setDefault(nil)
        try lib.add([makeSpec("U")])
        #expect(try lib.defaultID() == nil, "a cleared default stays cleared while designs exist")
        try lib.setDefault(t.id)
        #expect(try DesignLibrary(root: store.root).defaultID() == t.id)
        #expect(throws: DesignError.self) { try lib.setDefault(UUID()) }
    }

    /// Issue 28.7: the button's time format is spelled as 'weaver vars set-now --format' spells
    /// it (`now:KEY:time`); the seed's token names (`timeOnly`) stay accepted for old designs.
    @Test func nowButtonFormatsTakeTheVarsSetNowNames() throws {
        for (written, token) in [
            ("time", WidgetNowFormatToken.timeOnly), ("date", .dateOnly), ("iso", .iso8601), ("unix", .unixSeconds),
            ("unixms", .unixMilliseconds), ("timeOnly", .timeOnly), ("unixSeconds", .unixSeconds),
        ] {
            var s = makeSpec("N")
            try DesignEditor.apply(["action.1=now:fed:\(written)"], to: &s)
            #expect(s.actionBar?.actions.first?.nowFormat == token, "\(written)")
        }
        var s = makeSpec("N")
        #expect(throws: DesignError.self) { try DesignEditor.apply(["action.1=now:fed:hour"], to: &s) }
    }

    @Test func indexIsRebuiltWhenFilesChangeBehindItsBack() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
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
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        try lib.add([makeSpec("Good")])
        let badID = UUID()
        let bad = store.root.designs.appendingPathComponent("\(badID.uuidString).json")
        try Data("{ not json".utf8).write(to: bad)
        #expect(try lib.summaries().map(\.name) == ["Good"])
        let names = files(in: store.root.designs)
        #expect(names.contains { $0.hasPrefix("\(badID.uuidString).json.corrupt-") })
        let aside = try #require(names.first { $0.contains("corrupt") })
        #expect(
            try String(contentsOf: store.root.designs.appendingPathComponent(aside), encoding: .utf8) == "{ not json")
    }

    @Test func resolveByPrefixAndAmbiguousNames() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
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
        try DesignEditor.apply(
            [
                "accent=pink", "style.background=aurora", "template=hero", "symbol.size=40",
                "action.1=increment:cups:2", "action.2=now:fed:unixSeconds:Fed", "secondary=",
            ], to: &s)
        #expect(s.style.accent == .pink && s.style.background == .aurora && s.layout.template == .hero)
        #expect(s.symbol?.sizePoints == 40 && s.secondaryText == nil)
        #expect(s.actionBar?.actions.map(\.kind) == [.incrementVariable, .setVariableToNow])
        #expect(s.actionBar?.actions[1].title == "Fed")
    }

    @Test func editorSetsClockFacePhotoFilterAndWeatherScale() throws {
        var s = makeSpec("E", template: .clockIcon)
        try DesignEditor.apply(
            ["clock.face=icon", "clock.theme=ember", "clock.secondHandColour=orange", "weatherScale=1.2"], to: &s)
        #expect(s.clockConfig == ClockDesignConfig(theme: .ember, face: .icon, iconSecondHandColour: .orange))
        #expect(s.style.weatherScale == 1.2)
        // not offered with ember
        #expect(throws: DesignError.self) { try DesignEditor.apply(["clock.secondHandColour=mint"], to: &s) }
        #expect(throws: DesignError.self) { try DesignEditor.apply(["weatherScale=2"], to: &s) }
        var p = makeSpec("P", template: .poster, image: "p.jpg")
        try DesignEditor.apply(["image.filter=sepia", "image.filter.intensity=0.4"], to: &p)
        #expect(p.image?.filter == PhotoFilterSpec(token: .sepia, intensity: 0.4))
        try DesignEditor.apply(["image.filter=none"], to: &p)
        #expect(p.image?.filter == nil)
        var c = makeSpec("C")
        try DesignEditor.apply(["template=clock"], to: &c)
        #expect(c.clockConfig == ClockDesignConfig())  // a new clock gets the Icon face
    }
}

/// The library index (`designs/index`) follows the design files, however they were changed.
@Suite struct DesignIndexTests {
    /// Issue 16.19: a design file edited by hand in place is listed with its new name at once.
    @Test func handEditedDesignIsReindexed() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        let s = makeSpec("Before")
        try lib.add([s, makeSpec("Other")])
        #expect(try lib.summaries().contains { $0.name == "Before" })
        var edited = s
        edited.name = "After the edit"
        // In place, not through weaver (a text editor saving over the file).
        try edited.encoded().write(to: lib.fileURL(s.id))
        let rows = try lib.summaries()
        #expect(rows.contains { $0.name == "After the edit" })
        #expect(!rows.contains { $0.name == "Before" })
        #expect(try lib.search("after").map(\.id) == [s.id])
        // The index was brought up to date, so the next listing reads it as is.
        #expect(try lib.readIndexIfCurrent()?.contains { $0.name == "After the edit" } == true)
    }

    /// The same with a same-size edit whose modification time is then put back (`touch -r`):
    /// still seen, because the index compares the status-change time.
    @Test func sameSizeEditWithItsOldTimeIsStillSeen() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        let s = try lib.added(makeSpec("Alpha"))
        #expect(try lib.summaries().map(\.name) == ["Alpha"])
        let url = lib.fileURL(s.id)
        let before = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"Alpha\"", with: "\"Omega\"")
        // In place (same inode, same size), then the old modification time restored.
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: url.path)
        #expect(try lib.summaries().map(\.name) == ["Omega"])
    }

    @Test func anOldVersion1IndexIsRebuilt() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        let s = try lib.added(makeSpec("Kept"))
        try Data("widgetweaver-design-index 1\n\(s.id.uuidString)\t0\tclassic\t0\tStale\tstale\n".utf8).write(
            to: store.root.designIndex)
        #expect(try lib.summaries().map(\.name) == ["Kept"])
    }
}

extension DesignLibrary {
    /// `spec`, once added to this library.
    func added(_ spec: WidgetSpec) throws -> WidgetSpec {
        try add([spec])
        return spec
    }
}
