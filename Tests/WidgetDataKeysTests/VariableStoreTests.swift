import Foundation
import TestSupport
import Testing

@testable import TemplateLanguage
@testable import WidgetDataKeys

@Suite("Variable store (variables.json)")
struct VariableStoreTests {
    @Test func setGetDeleteUnderCanonicalKeys() throws {
        let store = VariableStore(root: try TemplateFixture.temporaryStore())
        #expect(try store.set("Last Done", to: "yesterday") == "last done")
        try store.set("last_done", to: "today")
        #expect(try store.load() == ["last done": "today"])
        #expect(try store.delete(" LAST   DONE "))
        #expect(try !store.delete("last done"))
        #expect(try store.load().isEmpty)
    }

    @Test func rejectsBadKeysAndValues() throws {
        let store = VariableStore(root: try TemplateFixture.temporaryStore())
        #expect(throws: VariableStoreError.self) { try store.set("__time", to: "x") }
        #expect(throws: VariableStoreError.self) { try store.set(" _ ", to: "x") }
        #expect(throws: VariableStoreError.self) { try store.set(String(repeating: "k", count: 300), to: "x") }
        #expect(throws: VariableStoreError.self) { try store.set("k", to: String(repeating: "v", count: 70_000)) }
        #expect(!FileManager.default.fileExists(atPath: store.document.url.path))
    }

    @Test func incrementCounts() throws {
        let store = VariableStore(root: try TemplateFixture.temporaryStore())
        #expect(try store.increment("cups", by: 1) == "1")
        #expect(try store.increment("cups", by: 2.5) == "3.5")
        #expect(try store.increment("cups", by: -0.5) == "3")
        try store.set("name", to: "Ada")
        #expect(throws: VariableStoreError.notANumber(key: "name", value: "Ada")) { try store.increment("name", by: 1) }
        #expect(try store.load()["name"] == "Ada")
        try store.set("huge", to: "999999999999999")
        #expect(throws: VariableStoreError.self) { try store.increment("huge", by: 1) }
    }

    @Test func concurrentIncrementsLoseNothing() async throws {
        let root = try TemplateFixture.temporaryStore()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<25 { _ = try? VariableStore(root: root).increment("n", by: 1) }
                }
            }
        }
        #expect(try VariableStore(root: root).load()["n"] == "100")
    }

    @Test(arguments: [
        (NowFormat.iso, "2026-01-24T09:30:00.000Z"), (.unix, "1769247000"), (.unixms, "1769247000000"),
        (.date, "2026-01-23"), (.time, "22:30"),
    ])
    func setNowFormats(_ format: NowFormat, _ expected: String) throws {
        let store = VariableStore(root: try TemplateFixture.temporaryStore())
        // Pacific/Pago_Pago is UTC-11: 09:30 UTC is 22:30 on the previous local day.
        let zone = TimeZone(identifier: "Pacific/Pago_Pago")!
        #expect(try store.setNow("stamp", format: format, now: TemplateFixture.now, timeZone: zone) == expected)
        #expect(try store.load()["stamp"] == expected)
    }

    @Test func setNowValuesRoundTripThroughTheDateParser() throws {
        let zone = TimeZone(identifier: "Europe/Paris")!
        for format in [NowFormat.iso, .unix, .unixms] {
            let text = format.text(for: TemplateFixture.now, timeZone: zone)
            #expect(DateParsing.parse(text, now: .distantPast, timeZone: zone) == TemplateFixture.now)
        }
    }

    @Test func corruptFileIsSetAsideNotOverwritten() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write("{ this is not json", to: root.variables)
        var setAsideAt: URL?
        let store = VariableStore(root: root)
        #expect(try store.load { _, url in setAsideAt = url }.isEmpty)
        let moved = try #require(setAsideAt)
        #expect(try String(contentsOf: moved, encoding: .utf8) == "{ this is not json")
        try store.set("k", to: "v")
        #expect(try store.load() == ["k": "v"])
        #expect(try String(contentsOf: moved, encoding: .utf8) == "{ this is not json")
    }

    @Test func handEditedFilesAreReadLeniently() throws {
        let root = try TemplateFixture.temporaryStore()
        try TemplateFixture.write(
            #"{"variables":{"Count":5,"Ratio":0.5,"On":true,"Last_Done":"x"}}"#, to: root.variables)
        #expect(try VariableStore(root: root).load() == ["count": "5", "ratio": "0.5", "on": "true", "last done": "x"])
    }

    @Test func newerSchemaIsNotRewritten() throws {
        let root = try TemplateFixture.temporaryStore()
        let original = #"{"schemaVersion":2,"variables":{"a":"1"}}"#
        try TemplateFixture.write(original, to: root.variables)
        #expect(throws: VariableStoreError.self) { try VariableStore(root: root).set("b", to: "2") }
        #expect(try String(contentsOf: root.variables, encoding: .utf8) == original)
        #expect(try VariableStore(root: root).load() == ["a": "1"])
    }
}
