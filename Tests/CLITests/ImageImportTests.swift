import CairoCanvas
import Foundation
import SharedStore
import TestSupport
import Testing
import WidgetInputs

@testable import WidgetRender

/// Issue 28.6: `designs set X image=<6000×5000 png>` said "too large"; today's phones take 48 MP.
/// Big photos are scaled down on import, and a header claiming more than the import cap is still
/// refused before anything is decoded.
@Suite(.serialized) struct ImageImportTests {
    func weaver(_ home: URL, _ args: [String]) throws -> Products.Result {
        try Products.run("weaver", args, environment: TestStore(at: home).environment())
    }

    func store() throws -> URL {
        let home = try Products.temporaryDirectory("ww-import")
        let made = try weaver(home, ["designs", "new", "--template", "poster", "--name", "Photo"])
        #expect(made.status == 0, "\(made.stderrText)")
        return home
    }

    func storedImage(_ home: URL) throws -> (name: String, image: DecodedImage) {
        let list = try weaver(home, ["designs", "show", "Photo", "--json"])
        let name =
            try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("images").path)
            .filter { !$0.hasPrefix(".") }.sorted().first ?? ""
        #expect(!name.isEmpty, "\(list.stdoutText)")
        return (name, try DesignImages.load(fileName: name, in: StoreRoot(url: home)))
    }

    @Test func a30MegapixelPNGIsScaledDownOnImport() throws {
        let home = try store()
        defer { try? FileManager.default.removeItem(at: home) }
        let width = 6000, height = 5000
        var pixels = [UInt32](repeating: 0xFF33_6699, count: width * height)
        for x in 0..<width { pixels[x] = 0xFFFF_0000 }  // a red first row, so the picture is not flat
        let png = try pixels.withUnsafeBufferPointer {
            try PNGEncoder.encode(
                argb: $0.baseAddress!, width: width, height: height, rowPixels: width, ignoringAlpha: true)
        }
        let file = home.appendingPathComponent("big.png")
        try Data(png).write(to: file)
        let r = try weaver(home, ["designs", "set", "Photo", "image=\(file.path)"])
        #expect(r.status == 0, "\(r.stderrText)")
        #expect((r.stdoutText + r.stderrText).contains("6000×5000"), "\(r.stdoutText) \(r.stderrText)")
        let (name, image) = try storedImage(home)
        #expect(name.hasSuffix(".png"))
        #expect(image.pixelWidth * image.pixelHeight <= DesignImages.maximumPixels)
        #expect(
            image.pixelWidth * image.pixelHeight >= DesignImages.maximumPixels / 2,
            "scaled more than needed: \(image.pixelWidth)×\(image.pixelHeight)")
        #expect(abs(Double(image.pixelWidth) / Double(image.pixelHeight) - 1.2) < 0.01)
        let render = try weaver(home, ["render", "Photo", "--format", "txt"])
        #expect(render.status == 0 && !render.stderrText.contains("too large"), "\(render.stderrText)")
    }

    @Test func a48MegapixelJPEGIsScaledDownOnImport() throws {
        let home = try store()
        defer { try? FileManager.default.removeItem(at: home) }
        let width = 8000, height = 6000
        let jpeg = try #require(
            DesignImages.encodeJPEG(
                rgb: [UInt8](repeating: 140, count: width * height * 3), width: width, height: height))
        let file = home.appendingPathComponent("phone.jpg")
        try Data(jpeg).write(to: file)
        let r = try weaver(home, ["designs", "set", "Photo", "image=\(file.path)"])
        #expect(r.status == 0, "\(r.stderrText)")
        let (name, image) = try storedImage(home)
        #expect(name.hasSuffix(".jpg"))
        #expect(
            image.pixelWidth * image.pixelHeight <= DesignImages.maximumPixels,
            "\(image.pixelWidth)×\(image.pixelHeight)")
        #expect(abs(Double(image.pixelWidth) / Double(image.pixelHeight) - 4.0 / 3.0) < 0.01)
    }

    /// A PNG header claiming 20000×20000 (400 MP) is refused from the header alone, naming the cap.
    @Test func aDecompressionBombIsStillRefusedFromItsHeader() throws {
        let home = try store()
        defer { try? FileManager.default.removeItem(at: home) }
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        header += [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let file = home.appendingPathComponent("bomb.png")
        try Data(header).write(to: file)
        let r = try weaver(home, ["designs", "set", "Photo", "image=\(file.path)"])
        #expect(r.status != 0)
        #expect(r.stderrText.contains("20000×20000") && r.stderrText.contains("too large"), "\(r.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("images/bomb.png").path))
    }
}
