import FieldTable
import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

/// The per-size fields `weaver designs set` and the Editor share: each size's Smart Photo crop and
/// the matched set's variants.
@Suite struct DesignEditorSizesTests {
    @Test func aCropMakesASmartPhotoOfThePlainImageAndIsTrimmedOnceAllIsSet() throws {
        var s = makeSpec("P", image: "photo.jpg")
        try DesignEditor.apply(
            [
                "image.crop.medium.x=0.25", "image.crop.medium.y=0.1", "image.crop.medium.width=0.5",
                "image.crop.medium.height=0.4",
            ], to: &s)
        let smart = try #require(s.image?.smartPhoto)
        #expect(smart.masterFileName == "photo.jpg")
        #expect(smart.small == nil && smart.large == nil, "only the edited size gets a crop")
        let medium = try #require(smart.medium)
        #expect(medium.cropRect == NormalisedRect(x: 0.25, y: 0.1, width: 0.5, height: 0.4))
        // No render was prepared for it: the render is the master, which the renderer crops.
        #expect(medium.renderFileName == "photo.jpg")
        #expect(s.image?.fileName(for: .small) == "photo.jpg")

        // x first and width after it in one edit: the rectangle is not cut short by the first.
        try DesignEditor.apply(["image.crop.medium.x=0.7", "image.crop.medium.width=0.3"], to: &s)
        #expect(s.image?.smartPhoto?.medium?.cropRect == NormalisedRect(x: 0.7, y: 0.1, width: 0.3, height: 0.4))
        // Alone, a rectangle that runs past the photo is trimmed to it, as the decoder trims it.
        try DesignEditor.apply(["image.crop.medium.x=0.9"], to: &s)
        let trimmed = try #require(s.image?.smartPhoto?.medium?.cropRect)
        #expect(abs(trimmed.width - 0.1) < 1e-12 && trimmed.x == 0.9, "\(trimmed)")
        // The JSON path is accepted as a name too; out of range is refused with the table's range.
        try DesignEditor.apply(["image.smartPhoto.small.cropRect.y=0.5"], to: &s)
        #expect(s.image?.smartPhoto?.small?.cropRect.y == 0.5)
        #expect(throws: DesignError("image.crop.large.width: '1.5' is out of range; allowed: 0…1")) {
            try DesignEditor.apply(["image.crop.large.width=1.5"], to: &s)
        }

        // What the editor wrote reads back without a finding.
        let (decoded, findings) = try WidgetSpec.decode(Data(s.jsonValue.prettyPrinted()), fallbackDate: fixedNow)
        #expect(findings.isEmpty, "\(findings)")
        #expect(decoded.image?.smartPhoto == s.image?.smartPhoto)

        // A different picture drops the old picture's crops; the same name keeps them.
        try DesignEditor.apply(["image=photo.jpg"], to: &s)
        #expect(s.image?.smartPhoto != nil)
        try DesignEditor.apply(["image=other.png"], to: &s)
        #expect(s.image?.smartPhoto == nil)

        var bare = makeSpec("B")
        #expect(throws: DesignError.self) { try DesignEditor.apply(["image.crop.small.x=0.1"], to: &bare) }
    }

    @Test func aMatchedSetVariantStartsAsTheDesignAndIsRemovedWhenOff() throws {
        var s = makeSpec("M")
        try DesignEditor.apply(["primaryText=Everywhere", "symbol=star.fill"], to: &s)
        try DesignEditor.apply(["matchedSet.small.primaryText=Only small"], to: &s)
        let small = try #require(s.matchedSet?.small)
        #expect(small.primaryText == "Only small")
        #expect(small.symbol?.name == "star.fill" && small.layout == s.layout, "made from the design")
        #expect(s.matchedSet?.medium == nil && s.primaryText == "Everywhere")

        try DesignEditor.apply(
            ["matchedSet.medium=true", "matchedSet.medium.symbol=bolt.fill", "matchedSet.medium.layout.template=hero"],
            to: &s)
        #expect(s.matchedSet?.medium?.symbol?.name == "bolt.fill")
        #expect(s.matchedSet?.medium?.layout.template == .hero)
        #expect(s.matchedSet?.medium?.primaryText == "Everywhere")
        try DesignEditor.apply(["matchedSet.medium.secondaryText=below", "matchedSet.medium.image=pic.png"], to: &s)
        #expect(s.matchedSet?.medium?.secondaryText == "below" && s.matchedSet?.medium?.image?.fileName == "pic.png")
        #expect(throws: DesignError.self) { try DesignEditor.apply(["matchedSet.large.image=../x.png"], to: &s) }
        #expect(throws: DesignError.self) { try DesignEditor.apply(["matchedSet.large.layout.template=nope"], to: &s) }
        #expect(s.matchedSet?.large == nil, "a refused edit made no variant")

        try DesignEditor.apply(["matchedSet.small=false", "matchedSet.medium=off"], to: &s)
        #expect(s.matchedSet == nil, "with no variant left there is no matched set")
        let (_, findings) = try WidgetSpec.decode(Data(s.jsonValue.prettyPrinted()), fallbackDate: fixedNow)
        #expect(findings.isEmpty, "\(findings)")
    }
}
