import Foundation
import TestSupport
import Testing

@testable import WidgetDesign

@Suite struct ImportReviewTests {
    func review(pro: Bool, existing: Int, dates: [Int]) -> ImportReview {
        ImportReview(
            fileName: "f.wwdesign",
            items: dates.enumerated().map { i, d in
                ImportReview.Item(
                    number: i + 1, name: "D\(i + 1)", template: .classic, updatedAt: day(d),
                    referencesEmbeddedImage: false)
            },
            isPro: pro, existingCount: existing)
    }

    @Test func proSelectsEverythingByDefault() throws {
        let r = review(pro: true, existing: 50, dates: [1, 5, 3, 2])
        #expect(r.slotsLeft == nil)
        #expect(r.defaultSelection == [1, 2, 3, 4])
        #expect(try r.resolve(.all) == [1, 2, 3, 4])
    }

    @Test func freeTierSelectsNewestUpToTheSlotsLeft() throws {
        let r = review(pro: false, existing: 1, dates: [1, 5, 3, 9])
        #expect(r.slotsLeft == 2)
        #expect(r.defaultSelection == [2, 4])  // day 9 and day 5, in file order
        #expect(review(pro: false, existing: 3, dates: [1, 2]).defaultSelection == [])
        // ties keep file order
        #expect(review(pro: false, existing: 0, dates: [4, 4, 4, 4]).defaultSelection == [1, 2, 3])
    }

    @Test func selectionsLargerThanTheFreeSlotsAreRefusedWithAPointerToPro() throws {
        let r = review(pro: false, existing: 2, dates: [1, 2, 3])
        do {
            _ = try r.parseSelection("1,3")
            Issue.record("expected a refusal")
        } catch let e as DesignError {
            #expect(e.message.contains("weaver pro unlock"))
            #expect(e.message.contains("1 slot left"))
        } catch { Issue.record("\(error)") }
        #expect(throws: DesignError.self) { try r.resolve(.all) }
        #expect(try r.parseSelection("3") == [3])
        #expect(try r.parseSelection("select none") == [])
    }

    @Test func selectionTextIsParsedAndChecked() throws {
        let r = review(pro: true, existing: 0, dates: [1, 2, 3, 4, 5])
        #expect(try r.parseSelection("1, 3") == [1, 3])
        #expect(try r.parseSelection("2-4") == [2, 3, 4])
        #expect(try r.parseSelection("select all") == [1, 2, 3, 4, 5])
        #expect(try r.parseSelection("") == [1, 2, 3, 4, 5])
        #expect(throws: DesignError.self) { try r.parseSelection("6") }
        #expect(throws: DesignError.self) { try r.parseSelection("0") }
        #expect(throws: DesignError.self) { try r.parseSelection("two") }
    }

    @Test func renderShowsNameTemplateDateAndImage() {
        var r = review(pro: false, existing: 0, dates: [0])
        r.items[0].referencesEmbeddedImage = true
        let text = r.render()
        #expect(text.contains("f.wwdesign"))
        #expect(text.contains("D1"))
        #expect(text.contains("classic"))
        #expect(text.contains("2026-01-01 00:00"))
        #expect(text.contains("embedded image"))
        #expect(ImportReview.summary(imported: 2, skipped: 1) == "Imported 2 designs. Skipped 1 (not selected).")
    }

    @Test func selectionParsingRefusesLettersAndOpenRanges() throws {
        let review = ImportReview(
            fileName: "f",
            items: (1...4).map {
                ImportReview.Item(
                    number: $0, name: "D\($0)", template: .classic, updatedAt: fixedNow, referencesEmbeddedImage: false)
            }, isPro: true, existingCount: 0)
        #expect(try review.parseSelection("all") == [1, 2, 3, 4])
        #expect(try review.parseSelection("select none") == [])
        #expect(try review.parseSelection("1,3-4") == [1, 3, 4])
        #expect(try review.parseSelection("2 4") == [2, 4])
        for bad in ["a", "n", "1-", "-2", "1-2-3", "x", "3-1", "١"] {
            #expect(throws: DesignError.self, "\(bad)") { try review.parseSelection(bad) }
        }
        do { _ = try review.parseSelection("1-") } catch let e as DesignError {
            #expect(e.message.contains("open range") && e.message.contains("'all'") && e.message.contains("2-4"))
        }
        #expect(ImportReview.summary(imported: 1, skipped: 0) == "Imported 1 design. Skipped 0 (not selected).")
        #expect(ImportReview.summary(imported: 2, skipped: 1) == "Imported 2 designs. Skipped 1 (not selected).")
    }
}
