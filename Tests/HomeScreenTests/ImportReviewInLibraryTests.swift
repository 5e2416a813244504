import Foundation
import TestSupport
import Testing

/// Issue 41, item 10: Import Review sees the designs the Library already holds. An export of the
/// Library imported into it made "Night Board (Copy)" and took the last free slot; now each such
/// design is marked `inLibrary` and left out of the default selection, and a new one is not.
@Suite struct ImportReviewInLibraryTests {
    @Test func anExportOfTheLibraryIsMarkedAndNotChosenByDefault() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Night Board")
        let token = try rig.startServerForAPI()
        let exported = try RawHTTP.send(port: rig.port, path: "/api/export?ids=\(id)")
        #expect(exported.status == 200, "\(exported.text.prefix(300))")

        // The export itself: its one design is in the Library; nothing is chosen for import.
        var review = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/import?name=library.wwdesign", exported.body, token: token,
            type: "application/octet-stream")
        #expect(review.status == 200, "\(review.text)")
        var designs = review.json()?["designs"] as? [[String: Any]] ?? []
        #expect(designs.count == 1 && designs.first?["inLibrary"] as? Bool == true, "\(designs)")
        #expect(review.json()?["defaultSelection"] as? [Int] == [], "\(review.text)")

        // A package with a design the Library does not hold: not marked, chosen.
        let other = ImportFixtures.package(specs: [ImportFixtures.spec("Morning Board")], images: [])
        review = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/import?name=other.wwdesign", Array(other), token: token,
            type: "application/octet-stream")
        #expect(review.status == 200, "\(review.text)")
        designs = review.json()?["designs"] as? [[String: Any]] ?? []
        #expect(designs.count == 1 && designs.first?["inLibrary"] as? Bool == false, "\(designs)")
        #expect(review.json()?["defaultSelection"] as? [Int] == [0], "\(review.text)")
    }
}
