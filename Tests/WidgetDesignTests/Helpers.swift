import Foundation
import SharedStore
import TestSupport

@testable import WidgetDesign

/// A fresh store in a temporary folder.
struct TempStore {
    let url: URL
    var root: StoreRoot { StoreRoot(url: url) }

    init() throws {
        url = try Products.temporaryDirectory("ww-designs")
    }

    func library() -> DesignLibrary { DesignLibrary(root: root) }

    func unlockPro() throws { try ProEntitlement.set(true, root: root, now: fixedNow) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

func day(_ n: Int) -> Date { fixedNow.addingTimeInterval(Double(n) * 86_400) }

func makeSpec(_ name: String, updated: Date = fixedNow, template: LayoutTemplateToken = .classic, image: String? = nil)
    -> WidgetSpec
{
    var s = WidgetSpec(
        name: name, primaryText: "Hello \(name)", secondaryText: "second", updatedAt: updated,
        symbol: SymbolSpec(name: "sparkles"))
    s.layout.template = template
    if let image { s.image = ImageSpec(fileName: image) }
    return s
}

/// The smallest data that passes the PNG magic check, varied by `tag` so images differ.
func pngBytes(_ tag: UInt8 = 0) -> Data {
    Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, tag, tag, tag])
}

func json(_ text: String) -> Data { Data(text.utf8) }

func packageJSON(specs: [String], images: [String] = [], version: Int = 1) -> Data {
    json(
        """
        {"magic":"com.conornolan.widgetweaver.exchange","formatVersion":\(version),"createdAt":"2026-01-01T00:00:00Z",
         "specs":[\(specs.joined(separator: ","))],"images":[\(images.joined(separator: ","))]}
        """)
}

func specJSON(
    _ name: String, id: String = UUID().uuidString, updated: String = "2026-01-01T00:00:00Z", image: String? = nil
) -> String {
    let img = image.map { #","image":{"fileName":"\#($0)","contentMode":"fill","height":120,"cornerRadius":16}"# } ?? ""
    return
        #"""
        {"id":"\#(id)","name":"\#(name)","primaryText":"Hi","updatedAt":"\#(updated)","layout":{"template":"classic"},\#
        "style":{"accent":"pink"}\#(img)}
        """#
}

func imageJSON(_ name: String, _ data: Data) -> String {
    #"{"originalFileName":"\#(name)","data":"\#(data.base64EncodedString())"}"#
}

func files(in url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
}
