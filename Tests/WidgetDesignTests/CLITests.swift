import Foundation
import SharedStore
import TestSupport
import Testing
@testable import WidgetDesign

/// Runs the built `weaver` the way a user would, non-interactively (stdin is a pipe).
@Suite struct DesignCLITests {
    func weaver(_ store: TempStore, _ args: [String]) throws -> Products.Result {
        try Products.run("weaver", args, environment: ["WIDGETWEAVER_HOME": store.url.path])
    }

    @Test func concurrentEditsFromSeveralProcessesLoseNothing() throws {
        let store = try TempStore(); defer { store.remove() }
        try store.unlockPro()
        let seed = makeSpec("Shared")
        try store.library().add([seed])
        let weaverURL = Products.url("weaver")
        var env = ProcessInfo.processInfo.environment
        env["WIDGETWEAVER_HOME"] = store.url.path
        var processes: [Process] = []
        for i in 0..<8 {
            let p = Process()
            p.executableURL = weaverURL
            p.environment = env
            p.arguments = i % 2 == 0 ? ["designs", "new", "--name", "Made \(i)"]
                                     : ["designs", "set", seed.id.uuidString, "primaryText=edit \(i)", "accent=pink"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            processes.append(p)
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
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
        #expect(files(in: store.root.designs).allSatisfy { $0.hasSuffix(".json") })   // no stray temp files
    }

    @Test func importFollowsFlagsAndPrintsTheSummary() throws {
        let store = try TempStore(); defer { store.remove() }
        let file = store.url.appendingPathComponent("three.wwdesign")
        try packageJSON(specs: [specJSON("Old", updated: "2025-01-01T00:00:00Z", image: "a.png"),
                                specJSON("Newest", updated: "2025-06-01T00:00:00Z"),
                                specJSON("Middle", updated: "2025-03-01T00:00:00Z")],
                        images: [imageJSON("a.png", pngBytes())]).write(to: file)
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
        #expect(files(in: store.root.images).isEmpty)   // "Old" (the one with the image) was not selected
    }

    @Test func exportFailureLeavesNoFile() throws {
        let store = try TempStore(); defer { store.remove() }
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
        let store = try TempStore(); defer { store.remove() }
        let file = store.url.appendingPathComponent("spec.json")
        try json(#"{"name":"V","primaryText":"x","style":{"accent":"chartreuse"},"layout":{"spacing":100}}"#).write(to: file)
        let r = try weaver(store, ["designs", "validate", file.path])
        #expect(r.status == 1)
        #expect(r.stdoutText.contains("style.accent"))
        #expect(r.stdoutText.contains("layout.spacing"))
        let clean = store.url.appendingPathComponent("clean.json")
        try makeSpec("C").encoded().write(to: clean)
        #expect(try weaver(store, ["designs", "validate", clean.path]).status == 0)
    }

    @Test func setRefusesOutOfRangeWithTheRangeAndChangesNothing() throws {
        let store = try TempStore(); defer { store.remove() }
        let s = makeSpec("S")
        try store.library().add([s])
        let r = try weaver(store, ["designs", "set", "S", "accent=pink", "symbol.size=200"])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("8…96"))
        #expect(try store.library().load(s.id) == s)
    }
}
