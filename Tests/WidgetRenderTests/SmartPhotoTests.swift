import Foundation
import Testing
import WidgetDesign

@testable import WidgetRender

/// Issue 28.8: the app writes a Smart Photo's per-size `straightenDegrees` and
/// `rotationQuarterTurns`; they were dropped on reading, and a render drawn from the master
/// ignored them. Tested as pictures: which colour lands where.
@Suite struct SmartPhotoTests {
    let renderer = WidgetRenderer()

    /// A 200×100 master: left half red, right half blue.
    static let master: DecodedImage = {
        var rgb = [UInt8](repeating: 0, count: 200 * 100 * 3)
        for y in 0..<100 {
            for x in 0..<200 {
                let i = (y * 200 + x) * 3
                if x < 100 { rgb[i] = 230 } else { rgb[i + 2] = 230 }
            }
        }
        return try! DesignImages.decode(
            Data(DesignImages.encodeJPEG(rgb: rgb, width: 200, height: 100, quality: 95)!), name: "master.jpg")
    }()

    /// A poster (no caption) whose medium Smart Photo render is not on this machine, so it is
    /// drawn from the master with the crop, the quarter turns and the straightening.
    func design(straighten: Double, turns: Int) throws -> WidgetSpec {
        let json = """
            {"id": "6A1F0000-0000-0000-0000-000000000001", "name": "Turned", "primaryText": "Hi", "updatedAt": \
            "2026-01-24T09:00:00Z",
             "layout": {"template": "poster", "posterOverlayMode": "none"}, "style": {"accent": "blue"},
             "image": {"fileName": "base.jpg", "contentMode": "fill", "height": 120, "cornerRadius": 0,
                       "smartPhoto": {"masterFileName": "master.jpg", "algorithmVersion": 1, "preparedAt": \
            "2026-01-24T09:00:00Z",
                                      "medium": {"renderFileName": "master-medium.jpg", "cropRect": {"x": 0, "y": 0, \
            "width": 1, "height": 1},
                                                 "pixelSize": {"width": 728, "height": 340},
                                                 "straightenDegrees": \(straighten), "rotationQuarterTurns": \
            \(turns)}}}}
            """
        let (spec, findings) = try WidgetSpec.decode(Data(json.utf8), fallbackDate: Fixtures.now)
        #expect(findings.isEmpty, "\(findings)")
        return spec
    }

    func colourAt(_ image: PixelImage, _ x: Int, _ y: Int) -> (r: Int, b: Int) {
        let p = image.argb[y * image.width + x]
        return (Int((p >> 16) & 0xFF), Int(p & 0xFF))
    }

    func render(_ spec: WidgetSpec) throws -> PixelImage {
        let images = ["master.jpg": Self.master]
        let layout = renderer.layout(design: spec, family: .medium, scale: 1, inputs: Fixtures.inputs(images: images))
        return try renderer.pixels(layout, images: images)
    }

    @Test func aQuarterTurnPutsTheMastersLeftHalfOnTop() throws {
        // Unturned: red on the left, blue on the right.
        let plain = try render(try design(straighten: 0, turns: 0))
        #expect(
            colourAt(plain, 40, 85).r > 150 && colourAt(plain, 320, 85).b > 150,
            "\(colourAt(plain, 40, 85)) \(colourAt(plain, 320, 85))")
        // One quarter turn clockwise: the left (red) half is now on top, the right (blue) below.
        let turned = try render(try design(straighten: 0, turns: 1))
        #expect(colourAt(turned, 182, 20).r > 150 && colourAt(turned, 182, 20).b < 80, "\(colourAt(turned, 182, 20))")
        #expect(
            colourAt(turned, 182, 150).b > 150 && colourAt(turned, 182, 150).r < 80, "\(colourAt(turned, 182, 150))")
        // Three quarter turns: the other way round.
        let back = try render(try design(straighten: 0, turns: 3))
        #expect(colourAt(back, 182, 20).b > 150 && colourAt(back, 182, 150).r > 150)
    }

    @Test func straighteningRotatesAboutTheCropCentre() throws {
        // 90° of straightening turns the picture as a quarter turn does, about the crop's centre.
        let straightened = try render(try design(straighten: 90, turns: 0))
        #expect(
            colourAt(straightened, 182, 30).r > 150 && colourAt(straightened, 182, 30).b < 80,
            "\(colourAt(straightened, 182, 30))")
        #expect(
            colourAt(straightened, 182, 140).b > 150 && colourAt(straightened, 182, 140).r < 80,
            "\(colourAt(straightened, 182, 140))")
        // A few degrees tilt the red/blue boundary: near the top it moves right of the centre line.
        let tilted = try render(try design(straighten: 10, turns: 0))
        #expect(colourAt(tilted, 186, 10).r > 150, "\(colourAt(tilted, 186, 10))")
        #expect(colourAt(tilted, 178, 160).b > 150, "\(colourAt(tilted, 178, 160))")
    }
}
