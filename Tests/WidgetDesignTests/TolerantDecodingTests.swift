import BoundedJSON
import CivilDates
import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

@Suite struct TolerantDecodingTests {
    func decode(_ text: String) throws -> (WidgetSpec, [Finding]) {
        try WidgetSpec.decode(json(text), fallbackDate: fixedNow)
    }

    @Test func unknownTokenFallsBackForThatFieldOnlyAndIsReported() throws {
        let (spec, findings) = try decode(
            #"{"name":"A","primaryText":"x","style":{"accent":"chartreuse","background":"aurora","padding":12}}"#)
        #expect(spec.style.accent == .blue)
        #expect(spec.style.background == .aurora)  // the rest of the style survives
        #expect(spec.style.paddingPoints == 12)
        #expect(findings.count == 1)
        #expect(findings[0].path == "style.accent")
        #expect(findings[0].kind == .unknownToken)
        #expect(findings[0].message.contains("chartreuse"))
        #expect(findings[0].message.contains("blue|purple"))
    }

    /// Issue 41.18: `style.fontDesign` (SwiftUI's Font.Design names). A file from before the field
    /// reads as the default face with no finding; an unknown face falls back with one that lists the four.
    @Test func fontDesignIsReadAndAFileWithoutItKeepsTheDefaultFace() throws {
        let (old, oldFindings) = try decode(#"{"name":"A","primaryText":"x","style":{"accent":"pink"}}"#)
        #expect(old.style.fontDesign == .default)
        #expect(oldFindings.isEmpty, "\(oldFindings)")
        for (written, face) in [("rounded", FontDesignToken.rounded), ("serif", .serif), ("monospaced", .monospaced)] {
            let (spec, findings) = try decode(
                #"{"name":"A","primaryText":"x","style":{"fontDesign":"\#(written)"}}"#)
            #expect(spec.style.fontDesign == face && findings.isEmpty, "\(written): \(findings)")
        }
        let (bad, findings) = try decode(#"{"name":"A","primaryText":"x","style":{"fontDesign":"comic"}}"#)
        #expect(bad.style.fontDesign == .default)
        #expect(findings.map(\.path) == ["style.fontDesign"])
        #expect(findings.first?.message.contains("default|rounded|serif|monospaced") == true, "\(findings)")
    }

    @Test func outOfRangeValuesAreClampedAndReportedWithTheirRange() throws {
        let (spec, findings) = try decode(
            #"""
            {"name":"A","primaryText":"x","symbol":{"name":"star","size":400},"image":{"fileName":"a.png","height":-5,\#
            "cornerRadius":500},
             "layout":{"spacing":99,"primaryLineLimit":0},"style":{"backgroundOverlayOpacity":1.5}}
            """#)
        #expect(spec.symbol?.sizePoints == 96)
        #expect(spec.image?.heightPoints == 0)
        #expect(spec.image?.cornerRadiusPoints == 128)
        #expect(spec.layout.spacingPoints == 32)
        #expect(spec.layout.primaryLineLimit == 1)
        #expect(spec.style.backgroundOverlayOpacity == 1)
        let paths = Set(findings.map(\.path))
        #expect(
            paths == [
                "symbol.size", "image.height", "image.cornerRadius", "layout.spacing", "layout.primaryLineLimit",
                "style.backgroundOverlayOpacity",
            ])
        #expect(findings.allSatisfy { $0.kind == .outOfRange })
        #expect(findings.first { $0.path == "symbol.size" }!.message.contains("8…96"))
    }

    @Test func wrongTypesAndUnknownKeysAreReportedWithPaths() throws {
        let (spec, findings) = try decode(
            #"{"name":"A","primaryText":7,"layout":{"showsAccentBar":"yes"},"colour":"red","id":"nope"}"#)
        #expect(spec.primaryText == "")
        #expect(spec.layout.showsAccentBar == true)
        #expect(Set(findings.map(\.path)) == ["primaryText", "layout.showsAccentBar", "colour", "id"])
        #expect(findings.first { $0.path == "colour" }?.kind == .unknownKey)
    }

    @Test func seedAppAliasesAreAcceptedSilently() throws {
        let (spec, findings) = try decode(
            #"{"name":"A","primaryText":"x","layout":{"alignment":"center"},"image":{"fileName":"p.jpg","crop":"fit"}}"#
        )
        #expect(spec.layout.alignment == .centre)
        #expect(spec.image?.contentMode == .fit)
        #expect(findings.isEmpty)
    }

    @Test func actionBarKeepsTwoButtonsAndClampsAmounts() throws {
        let (spec, findings) = try decode(
            #"""
            {"name":"A","primaryText":"x","actionBar":{"actions":[
              {"kind":"incrementVariable","variableKey":"cups","incrementAmount":500,"title":"Cup"},
              {"kind":"setVariableToNow","variableKey":"fed","nowFormat":"unixSeconds"},
              {"kind":"incrementVariable","variableKey":"third"}]}}
            """#)
        let actions = try #require(spec.actionBar?.actions)
        #expect(actions.count == 2)
        #expect(actions[0].incrementAmount == 99)
        #expect(actions[1].nowFormat == .unixSeconds)
        #expect(actions[1].title == "Done")
        #expect(Set(findings.map(\.path)) == ["actionBar.actions[0].incrementAmount", "actionBar.actions[2]"])
    }

    @Test func imageFileNamesWithPathsAreSanitisedAndReported() throws {
        let (spec, findings) = try decode(#"{"name":"A","primaryText":"x","image":{"fileName":"../../etc/passwd"}}"#)
        #expect(spec.image?.fileName == "passwd")
        #expect(findings.map(\.path) == ["image.fileName"])
    }

    @Test func encodeDecodeRoundTripIsExactAndClean() throws {
        var s = makeSpec("Round", template: .poster, image: "a.png")
        s.style.accent = .indigo
        s.style.background = .candy
        s.layout.alignment = .topTrailing
        s.actionBar = ActionBarSpec(actions: [
            ActionSpec(title: "+2", kind: .incrementVariable, variableKey: "n", incrementAmount: 2)
        ])
        s.matchedSet = MatchedSet(small: SpecVariant(primaryText: "S", layout: LayoutSpec(template: .poster)))
        s.remindersConfig = .object(["mode": .string("today")])
        let (back, findings) = try WidgetSpec.decode(s.encoded(), fallbackDate: day(5))
        #expect(findings.isEmpty)
        #expect(back == s)
    }

    @Test func parserRefusesDeepNestingBeforeParsing() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(JSONValue.nestingDepth(of: json(deep), stopAbove: 32) == 33)
        #expect(throws: (any Error).self) { try WidgetSpec.decode(json(deep), fallbackDate: fixedNow) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(json(deep)) }
    }

    @Test func parserHandlesEscapesAndRejectsGarbage() throws {
        let v = try JSONValue.parse(json(#"{"a":"\u00e9\n\ud83d\ude00\"","b":[1.5e2,-0,true,null]}"#))
        #expect(v["a"] == .string("é\n😀\""))
        #expect(v["b"] == .array([.number(150), .number(0), .bool(true), .null]))
        for bad in ["{", #"{"a":}"#, "[1,]", "01", #""\x""#, "tru", "[1] 2", "\"a\u{01}\""] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSONValue.parse(json(bad)) }
        }
    }

    @Test func isoDatesRoundTripAndAcceptOffsets() throws {
        #expect(ISODate.format(fixedNow) == "2026-01-01T00:00:00Z")
        #expect(ISODate.parse("2026-01-01T00:00:00Z") == fixedNow)
        #expect(ISODate.parse("2026-01-01T01:30:00+01:30") == fixedNow)
        #expect(ISODate.parse("2026-01-01T00:00:00.250Z") == fixedNow.addingTimeInterval(0.25))
        #expect(ISODate.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        #expect(ISODate.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(ISODate.parse("2026-13-01T00:00:00Z") == nil)
        #expect(ISODate.parse("yesterday") == nil)
    }
}
