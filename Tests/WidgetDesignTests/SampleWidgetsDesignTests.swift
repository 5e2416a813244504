import CivilDates
import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

/// The second seed's widgets in the design model: countdown targets, `clock.format`, the reset
/// and open-a-link actions, through `weaver designs set` parsing, tolerant decoding and the
/// `.wwdesign` round trip (our own keys).
@Suite struct SampleWidgetsDesignTests {
    func edited(_ assignments: [String], template: LayoutTemplateToken = .classic) throws -> WidgetSpec {
        var s = makeSpec("Edited", template: template)
        try DesignEditor.apply(assignments, to: &s)
        return s
    }

    func refusal(_ assignments: [String]) -> String {
        do {
            _ = try edited(assignments)
            return ""
        } catch let e as DesignError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    /// `TemplateCatalogue.find` takes an ID as written before folding: that gives what the folded
    /// search gives only while no template's folded name is another template's ID.
    @Test func templatesAreFoundByIDNameAndSpelling() {
        for t in TemplateCatalogue.all {
            #expect(TemplateCatalogue.find(t.id)?.id == t.id)
            #expect(TemplateCatalogue.find(" " + t.name.uppercased() + "\n")?.id == t.id)
            #expect(!TemplateCatalogue.all.contains { $0.id != t.id && DesignSummary.fold(t.name) == $0.id })
        }
        #expect(TemplateCatalogue.find("Noise-Machine")?.id == "noise-machine")
        #expect(TemplateCatalogue.find("no such template") == nil)
    }

    @Test func countdownTargetsParseAndBadOnesAreRefusedWithWhatIsAllowed() throws {
        #expect(
            try edited(["countdown.target=2026-12-31T23:59:00Z"]).countdown?.target
                == .instant(ISODate.parse("2026-12-31T23:59:00Z")!))
        #expect(
            try edited(["countdown.target=2026-12-31T23:59:00+01:00"]).countdown?.target
                == .instant(ISODate.parse("2026-12-31T22:59:00Z")!))
        #expect(try edited(["countdown.target={{launch}}"]).countdown?.target == .variable("launch"))
        #expect(try edited(["countdown.target=sleep-timer"]).countdown?.target == .sleepTimer)
        #expect(try edited(["countdown.target=sleep-timer", "countdown.target="]).countdown == nil)
        for bad in ["tomorrow", "2026-12-31", "{{}}", "{{a;b}}", String(repeating: "9", count: 200)] {
            let m = refusal(["countdown.target=\(bad)"])
            #expect(m.hasPrefix("countdown.target:") && m.contains("allowed: an ISO 8601 time"), "\(bad): \(m)")
        }
    }

    @Test func clockFormatTakesFriendlySpellings() throws {
        #expect(try edited(["clock.format=12h"]).clockFormat == .h12)
        #expect(try edited(["clock.format=24h-seconds"]).clockFormat == .h24Seconds)
        #expect(try edited(["clockFormat=h12Seconds"]).clockFormat == .h12Seconds)
        #expect(try edited(["clock.format=12h", "clock.format=none"]).clockFormat == nil)
        #expect(refusal(["clock.format=25h"]).contains("allowed: h24|h12|h24Seconds|h12Seconds"))
    }

    @Test func resetAndOpenActionsParseBesideTheSeedKinds() throws {
        let s = try edited(["action.1=increment:count:1:Add", "action.2=reset:count:5:Reset"])
        let reset = try #require(s.actionBar?.actions.last)
        #expect(
            reset.kind == .resetVariable && reset.variableKey == "count" && reset.resetValue == "5"
                && reset.title == "Reset")
        let bare = try #require(try edited(["action.1=reset:count"]).actionBar?.actions.first)
        #expect(bare.resetValue == "0" && bare.title == "Reset")
        let open = try #require(try edited(["action.1=open:https://example.com/a"]).actionBar?.actions.first)
        #expect(
            open.kind == .openURL && open.url == "https://example.com/a" && open.title == "Open"
                && open.variableKey.isEmpty)
        let titled = try #require(
            try edited(["action.1=open:Docs:https://example.com:8080/p?q=1"]).actionBar?.actions.first)
        #expect(titled.title == "Docs" && titled.url == "https://example.com:8080/p?q=1")
        let editor = try #require(try edited(["action.1=open:weaver:editor/ABC"]).actionBar?.actions.first)
        #expect(editor.url == "weaver:editor/ABC")
        for bad in [
            "file:///etc/passwd", "javascript:alert(1)", "Docs:ftp://x", "https://exa mple.com", "http:example.com",
            "weaver:", "weaver:-x", "mailto:a@b.c",
        ] {
            let m = refusal(["action.1=open:\(bad)"])
            #expect(m.hasPrefix("action.1:") && m.contains("allowed: an http:// or https:// link"), "\(bad): \(m)")
        }
        #expect(refusal(["action.1=frobnicate:x"]).contains("reset:KEY[:VALUE[:TITLE]]"))
    }

    @Test func newFieldsRoundTripUnderOurOwnKeys() throws {
        var s = makeSpec("Round", template: .countdown)
        s.clockFormat = .h12Seconds
        s.countdown = CountdownSpec(target: .variable("launch"))
        s.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "Reset", kind: .resetVariable, variableKey: "count", resetValue: "7"),
            ActionSpec(title: "Site", kind: .openURL, variableKey: "", url: "https://example.com/"),
        ])
        let data = s.encoded()
        let text = String(decoding: data, as: UTF8.self)
        for key in ["\"clockFormat\"", "\"countdown\"", "\"resetValue\"", "\"url\""] {
            #expect(text.contains(key), "\(key) missing")
        }
        let (back, findings) = try WidgetSpec.decode(data, fallbackDate: fixedNow)
        #expect(findings.isEmpty, "\(findings)")
        #expect(back == s && back.layout.template == .countdown)
        for template in ["month", "forecast", "countdown"] {
            let t = try #require(TemplateCatalogue.find(template))
            let d = try t.design(now: fixedNow)
            #expect(d.layout.template.rawValue == template)
            let (again, f) = try WidgetSpec.decode(d.encoded(), fallbackDate: fixedNow)
            #expect(f.isEmpty && again == d)
        }
    }

    @Test func tolerantDecodingDropsBadTargetsAndLinksWithAFinding() throws {
        let json = Data(
            """
            {"name":"Bad","primaryText":"x","updatedAt":"2026-01-01T00:00:00Z","layout":{"template":"countdown"},
             "clockFormat":"25h","countdown":{"target":"next tuesday"},
             "actionBar":{"actions":[{"kind":"openURL","title":"Evil","url":"file:///etc/passwd"},
                                     {"kind":"openURL","title":"Fine","url":"https://example.com"},
                                     {"kind":"resetVariable","variableKey":"n"}]}}
            """.utf8)
        let (s, findings) = try WidgetSpec.decode(json, fallbackDate: fixedNow)
        #expect(s.clockFormat == nil && s.countdown == nil)
        #expect(s.actionBar?.actions.map(\.title) == ["Fine", "Reset"])
        #expect(s.actionBar?.actions.last?.resetValue == "0")
        // What a kind does not use is not kept, and a fraction of a second is dropped: re-encoding is exact.
        let odd = Data(
            """
            {"name":"Odd","primaryText":"x","updatedAt":"2026-01-01T00:00:00Z",\
            "countdown":{"target":"2026-12-31T23:59:00.75Z"},
             "actionBar":{"actions":[{"kind":"incrementVariable","variableKey":"n","resetValue":"9"}]}}
            """.utf8)
        let (first, _) = try WidgetSpec.decode(odd, fallbackDate: fixedNow)
        let (again, againFindings) = try WidgetSpec.decode(first.encoded(), fallbackDate: fixedNow)
        #expect(again == first && againFindings.isEmpty)
        #expect(first.countdown?.target == .instant(ISODate.parse("2026-12-31T23:59:00Z")!))
        let paths = findings.map(\.path)
        #expect(
            paths.contains("clockFormat") && paths.contains("countdown.target")
                && paths.contains("actionBar.actions[0].url"), "\(findings)")
    }

    /// Through a `.wwdesign` package, as `weaver export` writes it and `weaver import` reads it.
    @Test func packagesCarryTheNewTemplatesAndActions() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        var specs = try ["month", "countdown", "forecast"].map { try TemplateCatalogue.find($0)!.design(now: fixedNow) }
        specs[1].countdown = CountdownSpec(target: .instant(ISODate.parse("2026-12-31T23:59:00Z")!))
        specs[1].clockFormat = .h12
        specs[1].actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "Reset", kind: .resetVariable, variableKey: "n", resetValue: "3"),
            ActionSpec(title: "Open", kind: .openURL, variableKey: "", url: "weaver:editor/1"),
        ])
        let data = try DesignExchange.exportData(
            specs, embedImages: true, imagesFolder: store.root.images, now: fixedNow)
        let package = try DesignExchange.parse(data, fileName: "sample.wwdesign", now: fixedNow)
        #expect(package.findings.isEmpty, "\(package.findings)")
        #expect(package.specs == specs)
    }
}
