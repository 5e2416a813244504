import CivilDates
import Foundation
import SharedStore
import TestSupport
import Testing

@testable import WidgetDesign

/// Runs the built `weaver` the way a user would, non-interactively (stdin is a pipe).
@Suite struct DesignCLITests {
    func weaver(_ store: TestStore, _ args: [String]) throws -> Products.Result {
        try Products.run("weaver", args, environment: TestStore(at: store.url).environment())
    }

    @Test func concurrentEditsFromSeveralProcessesLoseNothing() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        let seed = try store.addSpec("Shared")
        // Started with posix_spawn (TestSupport.ChildProcess), never Foundation's Process.
        var processes: [ChildProcess] = []
        for i in 0..<8 {
            let args =
                i % 2 == 0
                ? ["designs", "new", "--name", "Made \(i)"]
                : ["designs", "set", seed.id.uuidString, "primaryText=edit \(i)", "accent=pink"]
            processes.append(
                try ChildProcess(Products.url("weaver").path, args, environment: TestStore(at: store.url).environment())
            )
        }
        let statuses = processes.map { $0.wait() }
        #expect(
            statuses.allSatisfy { $0 == 0 },
            "\(statuses) \(processes.map { String(decoding: $0.stderr, as: UTF8.self) })")
        let lib = store.library()
        let rows = try lib.summaries()
        #expect(rows.count == 5)
        #expect(Set(rows.map(\.name)) == ["Shared", "Made 0", "Made 2", "Made 4", "Made 6"])
        for id in try lib.fileIDs() {
            let data = try #require(try FileSystem.read(lib.fileURL(id)))
            let (_, findings) = try WidgetSpec.decode(data, fallbackDate: fixedNow)
            #expect(findings.isEmpty)
        }
        let edited = try lib.load(seed.id)
        #expect(edited.primaryText.hasPrefix("edit "))
        #expect(edited.style.accent == .pink)
        #expect(files(in: store.root.designs).allSatisfy { $0.hasSuffix(".json") })  // no stray temp files
    }

    @Test func importFollowsFlagsAndPrintsTheSummary() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let file = store.url.appendingPathComponent("three.wwdesign")
        try ImportFixtures.package(
            specs: [
                ImportFixtures.spec("Old", updated: "2025-01-01T00:00:00Z", image: "a.png"),
                ImportFixtures.spec("Newest", updated: "2025-06-01T00:00:00Z"),
                ImportFixtures.spec("Middle", updated: "2025-03-01T00:00:00Z"),
            ],
            images: [ImportFixtures.image("a.png", ImportFixtures.png())]
        ).write(to: file)
        try store.library().add([makeSpec("Existing")])

        let dry = try weaver(store, ["import", file.path, "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.stdoutText.contains("Import Review: three.wwdesign"))
        #expect(dry.stdoutText.contains("embedded image"))
        #expect(try store.library().summaries().count == 1)

        let tooMany = try weaver(store, ["import", file.path, "--all"])
        #expect(tooMany.status != 0)
        #expect(tooMany.stderrText.contains("weaver pro unlock"))
        #expect(try store.library().summaries().count == 1)

        // Free tier, two slots left: the default picks the two newest.
        let def = try weaver(store, ["import", file.path])
        #expect(def.status == 0, "\(def.stderrText)")
        #expect(def.stdoutText.contains("Imported 2 designs. Skipped 1 (not selected)."))
        #expect(Set(try store.library().summaries().map(\.name)) == ["Existing", "Newest", "Middle"])
        #expect(files(in: store.root.images).isEmpty)  // "Old" (the one with the image) was not selected
    }

    @Test func exportFailureLeavesNoFile() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.library().add([makeSpec("A")])
        let out = store.url.appendingPathComponent("out.wwdesign")
        let bad = try weaver(store, ["export", "no-such-design", "-o", out.path])
        #expect(bad.status != 0)
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let good = try weaver(store, ["export", "--all", "-o", out.path])
        #expect(good.status == 0)
        let back = try DesignExchange.parse(try Data(contentsOf: out), fileName: "out", now: fixedNow)
        #expect(back.specs.map(\.name) == ["A"])
    }

    @Test func validateListsFindingsWithPathsAndFailsOnThem() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let file = store.url.appendingPathComponent("spec.json")
        try Data(#"{"name":"V","primaryText":"x","style":{"accent":"chartreuse"},"layout":{"spacing":100}}"#.utf8)
            .write(
                to: file)
        let r = try weaver(store, ["designs", "validate", file.path])
        #expect(r.status == 1)
        #expect(r.stdoutText.contains("style.accent"))
        #expect(r.stdoutText.contains("layout.spacing"))
        let clean = store.url.appendingPathComponent("clean.json")
        try makeSpec("C").encoded().write(to: clean)
        #expect(try weaver(store, ["designs", "validate", clean.path]).status == 0)
    }

    @Test func setRefusesOutOfRangeWithTheRangeAndChangesNothing() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = try store.addSpec("S")
        let r = try weaver(store, ["designs", "set", "S", "accent=pink", "symbol.size=200"])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("8…96"))
        #expect(try store.library().load(s.id) == s)
        // Issue 16.17: the value is quoted as typed, and a number out of range is not called "not a number".
        let padding = try weaver(store, ["designs", "set", "S", "padding=40"])
        #expect(padding.status != 0)
        #expect(
            padding.stderrText.contains("style.padding: '40' is out of range; allowed: 0…32 pt"),
            "\(padding.stderrText)")
        #expect(!padding.stderrText.contains("not a number"))
        let word = try weaver(store, ["designs", "set", "S", "padding=wide"])
        #expect(word.stderrText.contains("'wide' is not a number; allowed: a number in 0…32 pt"), "\(word.stderrText)")
        #expect(try store.library().load(s.id) == s)
    }

    /// Issue 41.18: `weaver designs set` takes the font design by its key and its short names, and
    /// refuses a face it does not have, naming the four.
    @Test func setTakesAFontDesign() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = try store.addSpec("S")
        let r = try weaver(store, ["designs", "set", "S", "style.fontDesign=serif"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(try store.library().load(s.id).style.fontDesign == .serif)
        #expect(try weaver(store, ["designs", "set", "S", "font=monospaced"]).status == 0)
        #expect(try store.library().load(s.id).style.fontDesign == .monospaced)
        let bad = try weaver(store, ["designs", "set", "S", "font=comic"])
        #expect(bad.status != 0)
        #expect(
            bad.stderrText.contains("style.fontDesign") && bad.stderrText.contains("default|rounded|serif|monospaced"),
            "\(bad.stderrText)")
        #expect(try store.library().load(s.id).style.fontDesign == .monospaced)
    }

    /// `image=PATH` copies the picture into the store (designs name bare files in images/), keeps
    /// a different picture of the same name, and refuses what is not an image, copying nothing.
    @Test func imageGivenByPathIsCopiedIntoTheStore() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = try store.addSpec("S")
        let outside = try Products.temporaryDirectory("ww-pictures")
        defer { try? FileManager.default.removeItem(at: outside) }
        // A 1×1 PNG (IHDR, one IDAT, IEND; CRCs included) and the same with another colour.
        let red: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0,
            1,
            8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE, 0, 0, 0, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF,
            0xC0, 0, 0, 0x03, 0x01, 0x01, 0, 0xC9, 0xFE, 0x92, 0xEF, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42,
            0x60, 0x82,
        ]
        let picture = outside.appendingPathComponent("My photo!.png")
        try Data(red).write(to: picture)
        let r = try weaver(store, ["designs", "set", "S", "image=\(picture.path)"])
        #expect(r.status == 0, "\(r.stderrText)")
        let copied = store.root.images.appendingPathComponent("My photo_.png")
        #expect(try Data(contentsOf: copied) == Data(red))
        #expect(try store.library().load(s.id).image?.fileName == "My photo_.png")
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("Copied \(picture.path) to \(copied.path)."))

        // Another picture with the same name does not replace the first.
        let other = outside.appendingPathComponent("sub/My photo!.png")
        try FileManager.default.createDirectory(
            at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        let longer = Data(red + [0])  // different bytes, still a PNG (a byte after IEND)
        try longer.write(to: other)
        let second = try weaver(store, ["designs", "set", "S", "image=\(other.path)"])
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(try Data(contentsOf: copied) == Data(red))
        #expect(try store.library().load(s.id).image?.fileName == "My photo_-2.png")

        // A name taken by a file that cannot be read (here a dangling link) is kept, not replaced.
        let third = outside.appendingPathComponent("third/Kept.png")
        try FileManager.default.createDirectory(
            at: third.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(red).write(to: third)
        try FileManager.default.createSymbolicLink(
            atPath: store.root.images.appendingPathComponent("Kept.png").path, withDestinationPath: "/nonexistent/x.png"
        )
        // keys in any case, as the editor reads them
        let kept = try weaver(store, ["designs", "set", "S", "Image=\(third.path)"])
        #expect(kept.status == 0, "\(kept.stderrText)")
        #expect(try store.library().load(s.id).image?.fileName == "Kept-2.png")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: store.root.images.appendingPathComponent("Kept.png").path) == "/nonexistent/x.png")

        // A FIFO is refused at once (opening it would wait for a writer forever).
        let fifo = outside.appendingPathComponent("pipe.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let piped = try weaver(store, ["designs", "set", "S", "image=\(fifo.path)"])
        #expect(piped.status != 0 && piped.stderrText.contains("not a regular file"), "\(piped.stderrText)")

        // Not an image: refused, naming the file; nothing copied, the design unchanged.
        let text = outside.appendingPathComponent("notes.png")
        try Data("hello".utf8).write(to: text)
        let before = try store.library().load(s.id)
        let bad = try weaver(store, ["designs", "set", "S", "image=\(text.path)"])
        #expect(bad.status != 0)
        #expect(bad.stderrText.contains(text.path), "\(bad.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: store.root.images.appendingPathComponent("notes.png").path))
        #expect(try store.library().load(s.id) == before)
    }

    /// A stored design's finding (a value out of range, corrected on load) is printed once per
    /// command, though the command lists the designs and then loads the one it draws.
    @Test func aStoredDesignsFindingIsPrintedOnce() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = try store.addSpec("S")
        let file = store.root.designs.appendingPathComponent("\(s.id.uuidString).json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var style = try #require(json["style"] as? [String: Any])
        style["padding"] = 99
        var edited = json
        edited["style"] = style
        try JSONSerialization.data(withJSONObject: edited).write(to: file)
        let r = try weaver(store, ["render", "S", "--format", "txt"])
        #expect(r.status == 0, "\(r.stderrText)")
        let findings = r.stderrText.components(separatedBy: "\n").filter {
            $0.contains("style.padding: 99 is outside 0…32")
        }
        #expect(findings.count == 1, "\(r.stderrText)")
    }

    // MARK: Issue 16

    @Test func exportRefusesAMissingFolderAndCreatesNothing() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.library().add([makeSpec("A"), makeSpec("B")])
        let missing = store.url.appendingPathComponent("no-such-folder")
        let r = try weaver(store, ["export", "--all", "-o", missing.appendingPathComponent("x.wwdesign").path])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("does not exist"), "\(r.stderrText)")
        #expect(!r.stdoutText.contains("Exported"))
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        let folder = try weaver(store, ["export", "--all", "-o", store.url.path])
        #expect(folder.status != 0 && folder.stderrText.contains("is a folder"))
    }

    @Test func importRefusesJSONThatIsNotADesign() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let mix = store.url.appendingPathComponent("sleep.json")
        try Data(#"{"name":"Sleep","masterVolume":0.7,"layers":[{"enabled":true,"volume":0.8}]}"#.utf8).write(to: mix)
        let r = try weaver(store, ["import", mix.path, "--all"])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("not a design file"), "\(r.stderrText)")
        #expect(try store.library().summaries().isEmpty)
        let list = store.url.appendingPathComponent("list.json")
        try Data(#"[1, "two", {"name":"Sleep","layers":[]}]"#.utf8).write(to: list)
        let l = try weaver(store, ["import", list.path, "--all"])
        #expect(l.status != 0 && l.stderrText.contains("none of the 3 items"), "\(l.stderrText)")
    }

    @Test func badSelectionsAreRefusedWithTheAcceptedForms() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        let file = store.url.appendingPathComponent("two.wwdesign")
        try ImportFixtures.package(specs: [ImportFixtures.spec("One"), ImportFixtures.spec("Two")]).write(to: file)
        for bad in ["a", "1-", "n", "1-x", "2-1", "1--3"] {
            let r = try weaver(store, ["import", file.path, "--select", bad])
            #expect(r.status != 0, "--select \(bad) was accepted")
            #expect(r.stderrText.contains("Accepted: numbers 1…2"), "\(bad): \(r.stderrText)")
        }
        #expect(try store.library().summaries().isEmpty)
        let one = try weaver(store, ["import", file.path, "--select", "2"])
        #expect(one.stdoutText.contains("Imported 1 design. Skipped 1 (not selected)."), "\(one.stdoutText)")
    }

    @Test func importReadsStandardInputAndStampsTheImportTime() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        let package = ImportFixtures.package(specs: [ImportFixtures.spec("Piped", updated: "2020-01-01T00:00:00Z")])
        let before = Date()
        let r = try Products.run(
            "weaver", ["import", "-", "--all"], stdin: package, environment: TestStore(at: store.url).environment())
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText.contains("Import Review: standard input"))
        let row = try #require(try store.library().summaries().first)
        #expect(row.name == "Piped")
        #expect(row.updatedAt >= WidgetSpec.wholeSeconds(before))  // stamped like the seed app does
        let kept = try Products.run(
            "weaver", ["import", "-", "--all", "--keep-dates"], stdin: package,
            environment: TestStore(at: store.url).environment())
        #expect(kept.status == 0)
        #expect(try store.library().summaries().contains { ISODate.format($0.updatedAt) == "2020-01-01T00:00:00Z" })
        // Bounded: more than the package limit is refused without being read whole.
        let empty = try Products.run(
            "weaver", ["import", "-"], stdin: Data(), environment: TestStore(at: store.url).environment())
        #expect(empty.status != 0 && empty.stderrText.contains("standard input: empty"))
    }

    @Test func exportEmbedsImagesByDefaultAndNamesThoseLeftOut() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try FileSystem.atomicWrite(ImportFixtures.png(3), to: store.root.images.appendingPathComponent("cat.png"))
        var spec = makeSpec("Cat", template: .poster, image: "cat.png")
        spec.image?.smartPhoto = SmartPhotoSpec(
            masterFileName: "cat-master.png",
            small: SmartPhotoVariant(
                renderFileName: "cat-small.png", cropRect: .full, pixelSize: PixelSize(width: 10, height: 10)),
            preparedAt: fixedNow)
        try FileSystem.atomicWrite(
            ImportFixtures.png(4), to: store.root.images.appendingPathComponent("cat-master.png"))
        try store.library().add([spec])
        let out = store.url.appendingPathComponent("cat.wwdesign")
        let r = try weaver(store, ["export", "Cat", "-o", out.path])
        #expect(r.status == 0)
        #expect(
            r.stdoutText.contains("Exported 1 design with 2 images (1 referenced image left out) to"), "\(r.stdoutText)"
        )
        #expect(r.stderrText.contains("image 'cat-small.png' left out: not in"), "\(r.stderrText)")
        let p = try DesignExchange.parse(try Data(contentsOf: out), fileName: "cat", now: fixedNow)
        #expect(p.images.keys.sorted() == ["cat-master.png", "cat.png"])
        let bare = try weaver(store, ["export", "Cat", "--no-embed-images", "-o", out.path])
        #expect(
            bare.stderrText.contains(
                "3 referenced images left out (--no-embed-images): cat-master.png, cat-small.png, cat.png"),
            "\(bare.stderrText)")
    }

    @Test func deletingTheDefaultSaysSoAndRestoreDoesNotMakeItDefault() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = makeSpec("Main")
        try store.library().add([s, makeSpec("Other")])
        #expect(try weaver(store, ["designs", "default", "Main"]).status == 0)
        let del = try weaver(store, ["designs", "delete", "Main"])
        #expect(del.stdoutText.contains("It was the default design; no default is set now"), "\(del.stdoutText)")
        #expect(try store.library().recordedDefaultID() == nil)
        let res = try weaver(store, ["designs", "restore", s.id.uuidString])
        #expect(res.status == 0)
        #expect(res.stdoutText.contains("It is not the default design"))
        #expect(try store.library().defaultID() == nil)
        #expect(try weaver(store, ["designs", "default"]).stdoutText.contains("No default design is set."))
        // A record left pointing at a trashed design by an older version is cleared on restore.
        try store.library().delete(s.id)
        try store.library().setDefaultUnlocked(s.id)
        _ = try weaver(store, ["designs", "restore", s.id.uuidString])
        #expect(try store.library().defaultID() == nil)
    }

    @Test func defaultClearAndTrashEmpty() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let a = makeSpec("A"), b = makeSpec("B")
        try store.library().add([a, b])
        try store.library().setDefault(a.id)
        let clear = try weaver(store, ["designs", "default", "--clear"])
        #expect(clear.stdoutText.contains("Cleared the default design."))
        #expect(try store.library().defaultID() == nil)
        try store.library().delete(b.id)
        try store.library().delete(a.id)
        try "keep me".write(to: store.root.trash.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let empty = try weaver(store, ["designs", "trash", "--empty"])
        #expect(empty.stdoutText.contains("Deleted 2 designs from the trash for good"), "\(empty.stdoutText)")
        #expect(files(in: store.root.trash) == ["notes.txt"])
        #expect(try weaver(store, ["designs", "trash", "--empty"]).stdoutText.contains("already empty"))
    }

    @Test func shortPrefixAndCatalogueStarterMessages() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = try store.addSpec("Only")
        let prefix = String(s.id.uuidString.prefix(3))
        let show = try weaver(store, ["designs", "show", prefix])
        #expect(show.status != 0)
        #expect(
            show.stderrText.contains("'\(prefix)' is too short for an ID prefix: give at least 4 characters"),
            "\(show.stderrText)")
        #expect(show.stderrText.contains("1 design's ID starts with it (Only"))
        let steps = try weaver(store, ["designs", "set", "Only", "template=steps"])
        #expect(steps.status != 0)
        #expect(steps.stderrText.contains("'steps' is a catalogue starter"), "\(steps.stderrText)")
        #expect(steps.stderrText.contains("weaver templates add steps"))
        #expect(try store.library().load(s.id) == s)
    }

    /// Issue 28.4: an unknown symbol name and buttons that show only with Pro were accepted
    /// without a word; the warning came only at render or tap. `set` says it (and still saves).
    @Test func setWarnsAboutUnknownSymbolsAndProOnlyButtonsAndStillSaves() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let s = try store.addSpec("S")
        let symbol = try weaver(store, ["designs", "set", "S", "symbol=sparklez"])
        #expect(symbol.status == 0, "\(symbol.stderrText)")
        #expect(symbol.stderrText.contains("unknown symbol 'sparklez'"), "\(symbol.stderrText)")
        #expect(try store.library().load(s.id).symbol?.name == "sparklez")
        let known = try weaver(store, ["designs", "set", "S", "symbol=sparkles"])
        #expect(!known.stderrText.contains("unknown symbol"), "\(known.stderrText)")

        let buttons = try weaver(store, ["designs", "set", "S", "action.1=increment:coffees"])
        #expect(buttons.status == 0, "\(buttons.stderrText)")
        #expect(buttons.stderrText.contains("Pro"), "\(buttons.stderrText)")
        #expect(buttons.stderrText.contains("weaver pro unlock"), "\(buttons.stderrText)")
        #expect(try store.library().load(s.id).actionBar?.actions.count == 1)
        try store.unlockPro()
        let unlocked = try weaver(store, ["designs", "set", "S", "action.2=now:fed:time"])
        #expect(unlocked.status == 0, "\(unlocked.stderrText)")
        #expect(!unlocked.stderrText.contains("Pro"), "\(unlocked.stderrText)")
    }

    /// Issue 28.5: after 'weaver designs new' plain 'weaver render' went from drawing the Noise
    /// widget to "no default design". The first design becomes the default, as on iOS, and
    /// messages about having none name the command that sets one.
    @Test func theFirstDesignBecomesTheDefault() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let first = try weaver(store, ["designs", "new", "--name", "First"])
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(first.stdoutText.contains("default"), "\(first.stdoutText)")
        let id = try #require(try store.library().summaries().first?.id)
        #expect(try store.library().defaultID() == id)
        let render = try weaver(store, ["render", "--format", "txt"])
        #expect(render.status == 0, "\(render.stderrText)")
        #expect(render.stdoutText.contains("First"), "\(render.stdoutText)")
        // A second design leaves the default alone.
        #expect(try weaver(store, ["designs", "new", "--name", "Second"]).status == 0)
        #expect(try store.library().defaultID() == id)
        let delete = try weaver(store, ["designs", "delete", "First"])
        #expect(delete.stdoutText.contains("weaver designs default"), "\(delete.stdoutText)")
        let none = try weaver(store, ["designs", "default"])
        #expect(none.stdoutText.contains("weaver designs default DESIGN"), "\(none.stdoutText)")
        let bare = try weaver(store, ["render", "--format", "txt"])
        #expect(bare.status != 0)
        #expect(bare.stderrText.contains("weaver designs default DESIGN"), "\(bare.stderrText)")
    }

    @Test func varsRenderReadsTheTemplateFromStandardInput() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        let r = try Products.run(
            "weaver", ["vars", "render", "--now", "2026-01-24T09:30:00Z", "--tz", "UTC", "-"],
            stdin: Data("at {{__time}}, {{=2*21}}\n".utf8), environment: TestStore(at: store.url).environment())
        #expect(r.status == 0, "\(r.stderrText)")
        #expect(r.stdoutText == "at 09:30, 42\n")
        let big = try Products.run(
            "weaver", ["vars", "render", "-"], stdin: Data(repeating: 0x61, count: (1 << 20) + 1),
            environment: TestStore(at: store.url).environment())
        #expect(big.status != 0)
        #expect(big.stderrText.contains("longer than 1048576 bytes"), "\(big.stderrText)")
    }
}
