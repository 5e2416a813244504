import Foundation

/// Files for `weaver import` and every other import path (the browser's Import Review): good
/// packages, the shapes the exchange tests refuse (foreign, newer, hostile images, deep, huge),
/// and files that are not JSON at all. Each path is fed all of them and must answer as the CLI does.
public enum ImportFixtures {
    public struct File: Sendable {
        public var fileName: String
        public var data: Data
        /// Whether `weaver import` accepts it.
        public var accepted: Bool
    }

    public static let fixedDate = "2026-01-01T00:00:00Z"

    public static func spec(
        _ name: String, id: String = UUID().uuidString, updated: String = fixedDate, image: String? = nil
    ) -> String {
        let img =
            image.map { #","image":{"fileName":"\#($0)","contentMode":"fill","height":120,"cornerRadius":16}"# } ?? ""
        return
            #"""
            {"id":"\#(id)","name":"\#(name)","primaryText":"Hi","updatedAt":"\#(updated)",\#
            "layout":{"template":"classic"},"style":{"accent":"pink"}\#(img)}
            """#
    }

    public static func image(_ name: String, _ data: Data) -> String {
        #"{"originalFileName":"\#(name)","data":"\#(data.base64EncodedString())"}"#
    }

    public static func package(specs: [String], images: [String] = [], version: Int = 1) -> Data {
        Data(
            """
            {"magic":"com.conornolan.widgetweaver.exchange","formatVersion":\(version),"createdAt":"\(fixedDate)",
             "specs":[\(specs.joined(separator: ","))],"images":[\(images.joined(separator: ","))]}
            """.utf8)
    }

    /// The first bytes of a PNG: enough for the exchange's format check.
    public static func png(_ tag: UInt8 = 0) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, tag, tag, tag])
    }

    /// Every file, good and bad. `oversized` adds one a byte over the 64 MiB limit (slow to send:
    /// leave it out where a path is exercised many times).
    public static func all(oversized: Bool = true) -> [File] {
        var files = [
            File(
                fileName: "two.wwdesign",
                data: package(specs: [spec("Alpha", updated: "2026-01-02T00:00:00Z"), spec("Beta")]), accepted: true),
            File(
                fileName: "with-image.wwdesign",
                data: package(specs: [spec("Pictured", image: "a.png")], images: [image("a.png", png())]),
                accepted: true),
            File(fileName: "array.json", data: Data("[\(spec("A")),\(spec("B"))]".utf8), accepted: true),
            File(fileName: "one.json", data: Data(spec("Solo").utf8), accepted: true),
            File(
                fileName: "traversal.wwdesign",
                data: package(specs: [spec("T", image: "../../x.png")], images: [image("../../x.png", png())]),
                accepted: true),
            File(fileName: "newer.wwdesign", data: package(specs: [spec("A")], version: 2), accepted: false),
            File(
                fileName: "foreign.wwdesign",
                data: Data(#"{"magic":"something.else","formatVersion":1,"specs":[]}"#.utf8), accepted: false),
            File(fileName: "empty-package.wwdesign", data: package(specs: []), accepted: false),
            File(fileName: "number.json", data: Data("42".utf8), accepted: false),
            File(fileName: "truncated.wwdesign", data: Data("{\"magic\": ".utf8), accepted: false),
            File(
                fileName: "dotdot-image.wwdesign", data: package(specs: [spec("A")], images: [image("..", png())]),
                accepted: false),
            File(
                fileName: "script-image.wwdesign",
                data: package(specs: [spec("A")], images: [image("a.png", Data("#!/bin/sh\nrm -rf ~".utf8))]),
                accepted: false),
            File(
                fileName: "bad-base64.wwdesign",
                data: package(specs: [spec("A")], images: [#"{"originalFileName":"a.png","data":"@@@not base64@@@"}"#]),
                accepted: false),
            File(
                fileName: "two-images.wwdesign",
                data: package(specs: [spec("A")], images: [image("a.png", png(1)), image("a.png", png(2))]),
                accepted: false),
            File(
                fileName: "deep.wwdesign",
                data: Data(
                    (#"""
                    {"magic":"com.conornolan.widgetweaver.exchange","formatVersion":1,"specs":[{"name":"A",\#
                    "remindersConfig":
                    """#
                        + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}]}").utf8),
                accepted: false),
            File(fileName: "not-a-design.json", data: Data(#"{"hello": "world"}"#.utf8), accepted: false),
            File(fileName: "picture.wwdesign", data: png(7), accepted: false),
            File(fileName: "empty.wwdesign", data: Data(), accepted: false),
            File(fileName: "latin1.json", data: Data([0x7B, 0x22, 0xE9, 0x22, 0x3A, 0x31, 0x7D]), accepted: false),
        ]
        if oversized {
            files.append(
                File(fileName: "huge.wwdesign", data: Data(repeating: 0x20, count: (64 << 20) + 1), accepted: false))
        }
        return files
    }
}
