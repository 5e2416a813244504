import Foundation
import TestSupport
import Testing
import WidgetRender

/// Import Review draws a design that embeds an image with that image (decoded for the picture,
/// never written to the store before the import); a corrupt embedded image draws the placeholder.
@Suite struct ImportReviewPictureTests {
    /// A 48×48 PNG of one colour, encoded by our own writer.
    static func solidPNG(_ argb: UInt32) throws -> Data {
        Data(try PixelImage(width: 48, height: 48, argb: Array(repeating: argb, count: 48 * 48)).png())
    }

    @Test func aReviewedDesignIsDrawnWithItsEmbeddedImage() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let data = ImportFixtures.package(
            specs: [
                ImportFixtures.spec("Pictured", image: "red.png"), ImportFixtures.spec("Broken", image: "b.png"),
                ImportFixtures.spec("Plain"),
            ],
            images: [
                ImportFixtures.image("red.png", try Self.solidPNG(0xFFE0_2020)),
                ImportFixtures.image("b.png", ImportFixtures.png(3)),
            ])
        let review = try LibraryAPITests.sendBytes(
            rig, "POST", "/api/import?name=pictures.wwdesign", Array(data), token: token,
            type: "application/octet-stream")
        #expect(review.status == 200, "\(review.text)")
        let reviewID = try #require(review.json()?["reviewId"] as? String)
        func picture(_ index: Int) throws -> String {
            let r = try RawHTTP.send(port: rig.port, path: "/api/import/\(reviewID)/\(index).svg?family=small")
            #expect(r.status == 200, "\(r.text.prefix(300))")
            return r.text
        }
        // Cairo writes a drawn bitmap into the SVG as an <image> with PNG data.
        let pictured = try picture(0), broken = try picture(1), plain = try picture(2)
        #expect(pictured.contains("<image") && pictured.contains("data:image/png;base64,"), "no image drawn")
        #expect(!broken.contains("data:image/png;base64,"), "a corrupt image was drawn")
        #expect(!plain.contains("data:image/png;base64,"))
        #expect(broken != plain, "the corrupt image's placeholder is missing")
        // Nothing reached the store before the import.
        let images = rig.store.appendingPathComponent("images")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? []).isEmpty)
        #expect(try LibraryAPITests.list(rig).isEmpty)
    }
}
