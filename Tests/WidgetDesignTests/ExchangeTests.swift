import CivilDates
import Foundation
import SharedStore
import TestSupport
import Testing

@testable import WidgetDesign

@Suite struct ExchangeTests {
    func write(_ data: Data, _ store: TestStore, _ name: String = "in.wwdesign") throws -> URL {
        let url = store.url.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test func exportThenImportGivesEqualDesignsWithNewIDsAndIdenticalImages() throws {
        let source = try TestStore("ww-designs")
        defer { source.remove() }
        try source.unlockPro()
        let lib = source.library()
        let image = ImportFixtures.png(7)
        try FileSystem.atomicWrite(image, to: source.root.images.appendingPathComponent("cat.png"))
        var a = makeSpec("With image", updated: day(1), template: .poster, image: "cat.png")
        a.actionBar = ActionBarSpec(actions: [ActionSpec(title: "+1", kind: .incrementVariable, variableKey: "n")])
        let b = makeSpec("Plain", updated: day(2))
        try lib.add([a, b])
        let data = try DesignExchange.exportData(
            [a, b], embedImages: true, imagesFolder: source.root.images, now: fixedNow)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""magic" : "com.conornolan.widgetweaver.exchange""#))
        #expect(text.contains(#""createdAt" : "2026-01-01T00:00:00Z""#))

        let target = try TestStore("ww-designs")
        defer { target.remove() }
        try target.unlockPro()
        let package = try DesignExchange.parse(data, fileName: "x.wwdesign", now: fixedNow)
        #expect(package.findings.isEmpty)
        let result = try DesignImporter(library: target.library()).importDesigns(package, selection: [1, 2])
        #expect(result.imported.count == 2)
        for (orig, imported) in zip([a, b], result.imported) {
            #expect(imported.id != orig.id)
            var same = imported
            same.id = orig.id
            #expect(same == orig)
        }
        #expect(try Data(contentsOf: target.root.images.appendingPathComponent("cat.png")) == image)
    }

    /// Issue 41.18: a design's font design is written to the .wwdesign file and read back.
    @Test func theFontDesignTravelsInTheFile() throws {
        var a = makeSpec("Serif")
        a.style.fontDesign = .serif
        var b = makeSpec("Rounded")
        b.style.fontDesign = .rounded
        let c = makeSpec("Default")
        let data = try DesignExchange.exportData(
            [a, b, c], embedImages: false, imagesFolder: URL(fileURLWithPath: "/nonexistent"), now: fixedNow)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""fontDesign" : "serif""#) && text.contains(#""fontDesign" : "rounded""#))
        // The default face is not written: the seed app's files keep exactly their own members.
        #expect(text.components(separatedBy: "\"fontDesign\"").count == 3)
        let package = try DesignExchange.parse(data, fileName: "fonts.wwdesign", now: fixedNow)
        #expect(package.findings.isEmpty, "\(package.findings)")
        #expect(package.specs.map(\.style.fontDesign) == [.serif, .rounded, .default])
    }

    @Test func onlyImagesOfSelectedDesignsAreWrittenAndNamesNeverCollide() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        try FileSystem.atomicWrite(ImportFixtures.png(1), to: store.root.images.appendingPathComponent("a.png"))
        let data = ImportFixtures.package(
            specs: [ImportFixtures.spec("A", image: "a.png"), ImportFixtures.spec("B", image: "b.png")],
            images: [
                ImportFixtures.image("a.png", ImportFixtures.png(2)),
                ImportFixtures.image("b.png", ImportFixtures.png(3)),
            ])
        let package = try DesignExchange.parse(data, fileName: "p", now: fixedNow)
        let result = try DesignImporter(library: store.library()).importDesigns(package, selection: [1])
        #expect(files(in: store.root.images) == ["a-2.png", "a.png"])
        #expect(try Data(contentsOf: store.root.images.appendingPathComponent("a.png")) == ImportFixtures.png(1))
        #expect(result.imported[0].image?.fileName == "a-2.png")
        #expect(result.skippedCount == 1)
    }

    @Test func acceptsABareArrayAndASingleSpec() throws {
        let arr = try DesignExchange.parse(
            json("[\(ImportFixtures.spec("A")),\(ImportFixtures.spec("B"))]"), fileName: "a", now: fixedNow)
        #expect(arr.specs.map(\.name) == ["A", "B"])
        let one = try DesignExchange.parse(json(ImportFixtures.spec("Solo")), fileName: "s", now: fixedNow)
        #expect(one.specs.map(\.name) == ["Solo"])
    }

    @Test func refusesNewerFormatVersionsAndForeignFiles() {
        expectRefusal(
            ImportFixtures.package(specs: [ImportFixtures.spec("A")], version: 2), containing: "formatVersion")
        expectRefusal(
            json(#"{"magic":"something.else","formatVersion":1,"specs":[]}"#), containing: "does not look like")
        expectRefusal(ImportFixtures.package(specs: []), containing: "no designs")
        expectRefusal(json("42"), containing: "top level")
        expectRefusal(json("{\"magic\": "), containing: "not a design file")
    }

    /// The package envelope is read by `JSONReader`; each refusal keeps the words it had when it
    /// was read by hand (only 1e400, once shown as "0 is newer", is now said to be too large).
    @Test func envelopeRefusalsKeepTheirWords() throws {
        let magic = #""magic":"com.conornolan.widgetweaver.exchange""#
        let spec = ImportFixtures.spec("A")
        let cases: [(String, String)] = [
            (
                #"{"specs":[\#(spec)]}"#,
                #"""
                magic: this file does not look like a WidgetWeaver export (expected \#
                "com.conornolan.widgetweaver.exchange")
                """#
            ),
            (
                #"{"magic":7,"specs":[\#(spec)]}"#,
                #"""
                magic: this file does not look like a WidgetWeaver export (expected \#
                "com.conornolan.widgetweaver.exchange")
                """#
            ),
            (
                #"{\#(magic),"formatVersion":"1","specs":[\#(spec)]}"#,
                "formatVersion: expected a whole number, found string"
            ),
            (
                #"{\#(magic),"formatVersion":1.5,"specs":[\#(spec)]}"#,
                "formatVersion: expected a whole number, found number"
            ),
            (
                #"{\#(magic),"formatVersion":null,"specs":[\#(spec)]}"#,
                "formatVersion: expected a whole number, found null"
            ),
            (#"{\#(magic),"formatVersion":0,"specs":[\#(spec)]}"#, "formatVersion: 0 is not a valid version (1)"),
            (
                #"{\#(magic),"formatVersion":2,"specs":[\#(spec)]}"#,
                "formatVersion: 2 is newer than this version of weaver understands (1); update weaver to import it"
            ),
            (
                #"{\#(magic),"formatVersion":1e400,"specs":[\#(spec)]}"#,
                "formatVersion: too large a number (beyond ±1.8e308)"
            ),
            (#"{\#(magic),"formatVersion":1}"#, "specs: expected an array of designs"),
            (#"{\#(magic),"formatVersion":1,"specs":{}}"#, "specs: expected an array of designs"),
            (#"{\#(magic),"specs":[\#(spec)],"images":"a.png"}"#, "images: expected an array, found string"),
            (#"{\#(magic),"specs":[\#(spec)],"images":[3]}"#, "images[0]: expected an object, found number"),
            (
                #"{\#(magic),"specs":[\#(spec)],"images":[{}]}"#,
                "images[0].originalFileName: expected a file name string"
            ),
            (
                #"{\#(magic),"specs":[\#(spec)],"images":[{"originalFileName":"a.png","data":null}]}"#,
                "images[0].data: expected a base64 string"
            ),
            (
                #"{\#(magic),"specs":[\#(spec)],"images":[{"originalFileName":"a.png","data":"@@"}]}"#,
                #"images[0].data: image "a.png" is not valid base64"#
            ),
            (
                #"{\#(magic),"specs":[\#(spec)],"images":[{"originalFileName":"..","data":""}]}"#,
                #"images[0].originalFileName: ".." is not a usable file name"#
            ),
        ]
        for (text, message) in cases {
            #expect(throws: DesignError(message), "\(text)") {
                _ = try DesignExchange.parse(json(text), fileName: "x", now: fixedNow)
            }
        }
        expectRefusal(json(#"{"magic": "#), containing: "not a design file: invalid JSON at line 1, column ")
        // Fields the envelope does not know, a createdAt that is no date and null images still import.
        let lenient = try DesignExchange.parse(
            json(#"{\#(magic),"createdAt":5,"specs":[\#(spec)],"images":null,"fromTheFuture":true}"#),
            fileName: "x", now: fixedNow)
        #expect(lenient.specs.count == 1 && lenient.createdAt == nil)
        #expect(lenient.notes.contains("formatVersion is missing; read as version 1"))
        let dated = try DesignExchange.parse(ImportFixtures.package(specs: [spec]), fileName: "x", now: fixedNow)
        #expect(dated.createdAt == ISODate.parse("2026-01-01T00:00:00Z"))
    }

    @Test func hostileImagesAreRefusedOrSanitised() throws {
        // Paths in names are reduced to a bare name, with a note.
        let traversal = try DesignExchange.parse(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A", image: "../../x.png")],
                images: [ImportFixtures.image("../../x.png", ImportFixtures.png())]), fileName: "t", now: fixedNow)
        #expect(traversal.images.keys.sorted() == ["x.png"])
        #expect(traversal.specs[0].image?.fileName == "x.png")
        #expect(traversal.notes.contains { $0.contains("sanitised") })
        let absolute = try DesignExchange.parse(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A")], images: [ImportFixtures.image("/etc/passwd", ImportFixtures.png())]),
            fileName: "t",
            now: fixedNow)
        #expect(absolute.images.keys.sorted() == ["passwd"])
        expectRefusal(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A")], images: [ImportFixtures.image("..", ImportFixtures.png())]),
            containing: "images[0].originalFileName")
        // Not an image, invalid base64, oversized, conflicting duplicates.
        expectRefusal(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A")],
                images: [ImportFixtures.image("a.png", Data("#!/bin/sh\nrm -rf ~".utf8))]),
            containing: "not a PNG")
        expectRefusal(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A")],
                images: [#"{"originalFileName":"a.png","data":"@@@not base64@@@"}"#]),
            containing: "base64")
        var limits = DesignExchange.Limits()
        limits.maxImageBytes = 64
        expectRefusal(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A")],
                images: [ImportFixtures.image("a.png", ImportFixtures.png() + Data(count: 200))]),
            containing: "limit", limits: limits)
        expectRefusal(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A")],
                images: [
                    ImportFixtures.image("a.png", ImportFixtures.png(1)),
                    ImportFixtures.image("a.png", ImportFixtures.png(2)),
                ]),
            containing: "two different images")
    }

    @Test func oversizedDeepAndHugeFilesAreRefused() {
        var limits = DesignExchange.Limits()
        limits.maxFileBytes = 1000
        expectRefusal(
            ImportFixtures.package(specs: Array(repeating: ImportFixtures.spec("A"), count: 20)),
            containing: "limit is 1000 bytes",
            limits: limits)
        let deep =
            #"""
            {"magic":"com.conornolan.widgetweaver.exchange","formatVersion":1,"specs":[{"name":"A","remindersConfig":
            """#
            + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}]}"
        expectRefusal(json(deep), containing: "nests")
        var few = DesignExchange.Limits()
        few.maxSpecs = 3
        expectRefusal(
            ImportFixtures.package(specs: Array(repeating: ImportFixtures.spec("A"), count: 4)),
            containing: "the limit is 3", limits: few)
    }

    @Test func duplicateIDsAreNotedAndBothImportUnderNewIDs() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        let id = UUID().uuidString
        let package = try DesignExchange.parse(
            ImportFixtures.package(specs: [ImportFixtures.spec("A", id: id), ImportFixtures.spec("B", id: id)]),
            fileName: "d", now: fixedNow)
        #expect(package.notes.contains { $0.contains("specs[1].id") })
        let result = try DesignImporter(library: store.library()).importDesigns(package, selection: [1, 2])
        #expect(Set(result.imported.map(\.id)).count == 2)
        #expect(!result.imported.contains { $0.id.uuidString == id })
    }

    @Test func failedImportWritesNothing() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let lib = store.library()
        try lib.add([makeSpec("1"), makeSpec("2")])
        let package = try DesignExchange.parse(
            ImportFixtures.package(
                specs: [ImportFixtures.spec("A", image: "a.png"), ImportFixtures.spec("B")],
                images: [ImportFixtures.image("a.png", ImportFixtures.png())]), fileName: "f", now: fixedNow)
        // Two designs into one free slot: refused as a whole.
        #expect(throws: DesignError.self) {
            try DesignImporter(library: lib).importDesigns(package, selection: [1, 2])
        }
        #expect(try lib.summaries().count == 2)
        #expect(files(in: store.root.images).isEmpty)
    }

    func expectRefusal(
        _ data: Data, containing text: String, limits: DesignExchange.Limits = DesignExchange.Limits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try DesignExchange.parse(data, fileName: "x", now: fixedNow, limits: limits)
            Issue.record("expected a refusal containing '\(text)'", sourceLocation: sourceLocation)
        } catch let e as DesignError {
            #expect(e.message.contains(text), "\(e.message)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}
