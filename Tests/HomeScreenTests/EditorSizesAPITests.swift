import Foundation
import TestSupport
import Testing
import WidgetRender

/// The Editor's per-size edits over a real `weaver serve`: Smart Photo crops sent as one edit of
/// four fields, the photo served for the crop rectangles, the matched set, and widgets drawn
/// light or dark; each checked against what `weaver render` draws from the saved design.
@Suite(.serialized)
struct EditorSizesAPITests {
    /// A photo whose every part looks different: red to the right, green downwards, a blue square.
    static func photo(width: Int = 400, height: Int = 300) throws -> [UInt8] {
        var rgb: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let square = (150..<250).contains(x) && (100..<200).contains(y)
                rgb += [UInt8(255 * x / width), UInt8(255 * y / height), square ? 255 : 30]
            }
        }
        return try #require(DesignImages.encodeJPEG(rgb: rgb, width: width, height: height, quality: 92))
    }

    static func render(_ rig: ServeRig, _ id: String, _ family: String, token: String, query: String = "") throws
        -> RawHTTP.Reply
    {
        try EditorAPITests.send(
            rig, "POST", "/api/drafts/\(id)/render?family=\(family)&format=png&scale=2\(query)", token: token)
    }

    @Test func cropsAreEditedAsOneEditAndDrawOnlyTheirSize() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let id = try EditorAPITests.makeDesign(rig, name: "Photo")
        let token = try rig.startServerForAPI()
        let uploaded = try EditorAPITests.upload(rig, try Self.photo(), token: token)
        let name = try #require(uploaded.json()?["fileName"] as? String)
        #expect(
            try EditorAPITests.send(
                rig, "POST", "/api/drafts/\(id)/edit", #"{"field":"image","value":"\#(name)"}"#, token: token
            ).status == 200)

        // The photo as stored, for the crop rectangles; nothing else is served from there.
        let served = try RawHTTP.send(port: rig.port, path: "/api/images/\(name)")
        #expect(served.status == 200 && served.headers["content-type"] == "image/jpeg")
        #expect(served.body == [UInt8](try Data(contentsOf: rig.store.appendingPathComponent("images/\(name)"))))
        try Data("not a picture".utf8).write(to: rig.store.appendingPathComponent("images/note.png"))
        #expect(try RawHTTP.send(port: rig.port, path: "/api/images/note.png").status == 422)
        for path in ["/api/images/nope.png", "/api/images/..%2F..%2Fetc%2Fpasswd", "/api/images/%2Fetc%2Fpasswd"] {
            #expect(try RawHTTP.send(port: rig.port, path: path).status == 404, "\(path)")
        }

        let smallBefore = try Self.render(rig, id, "small", token: token).body
        let mediumBefore = try Self.render(rig, id, "medium", token: token).body
        // The rectangle moved: four fields in one edit.
        let moved = try EditorAPITests.send(
            rig, "POST", "/api/drafts/\(id)/edit",
            #"{"edits":[{"field":"image.crop.medium.x","value":"0.5"},{"field":"image.crop.medium.y","value":"0.25"},"#
                + #"""
                {"field":"image.crop.medium.width","value":"0.5"},{"field":"image.crop.medium.height","value":"0.5"}]}
                """#,
            token: token)
        #expect(moved.status == 200, "\(moved.text)")
        let smart =
            ((moved.json()?["design"] as? [String: Any])?["image"] as? [String: Any])?["smartPhoto"] as? [String: Any]
        let medium = smart?["medium"] as? [String: Any]
        #expect(
            (medium?["cropRect"] as? [String: Double]) == ["x": 0.5, "y": 0.25, "width": 0.5, "height": 0.5],
            "\(String(describing: smart))")
        #expect(smart?["small"] == nil)
        let mediumAfter = try Self.render(rig, id, "medium", token: token).body
        #expect(mediumAfter.count > 1000 && mediumAfter != mediumBefore, "the medium picture did not change")
        #expect(try Self.render(rig, id, "small", token: token).body == smallBefore, "the small picture changed")

        // One bad part refuses the whole edit, beside the first field; too many parts are refused.
        let bad = try EditorAPITests.send(
            rig, "POST", "/api/drafts/\(id)/edit",
            #"""
            {"edits":[{"field":"image.crop.medium.x","value":"0"},{"field":"image.crop.medium.width","value":"1.5"}]}
            """#,
            token: token)
        #expect(bad.status == 422 && (bad.json()?["error"] as? String)?.contains("0…1") == true, "\(bad.text)")
        #expect(
            try Self.render(rig, id, "medium", token: token).body == mediumAfter, "a refused edit changed the draft")
        let nine =
            "[" + Array(repeating: #"{"field":"image.crop.small.x","value":"0"}"#, count: 9).joined(separator: ",")
        #expect(
            try EditorAPITests.send(rig, "POST", "/api/drafts/\(id)/edit", #"{"edits":\#(nine)]}"#, token: token).status
                == 400)

        // Saved, `weaver render` draws the dock's picture.
        let draft = try #require(try RawHTTP.send(port: rig.port, path: "/api/drafts/\(id)").json()?["design"])
        let body = String(decoding: try JSONSerialization.data(withJSONObject: draft), as: UTF8.self)
        #expect(try EditorAPITests.send(rig, "PUT", "/api/designs/\(id)", body, token: token).status == 200)
        let out = rig.store.deletingLastPathComponent().appendingPathComponent("medium.png")
        let rendered = try rig.weaver(["render", id, "--family", "medium", "--scale", "2", "-o", out.path])
        #expect(rendered.status == 0, "\(rendered.stderrText)")
        #expect([UInt8](try Data(contentsOf: out)) == mediumAfter, "weaver render does not draw the dock's crop")

        // Light widgets: the dock and `weaver render --appearance light` agree; the swatches follow.
        let light = try Self.render(rig, id, "medium", token: token, query: "&appearance=light")
        #expect(light.status == 200 && light.body != mediumAfter)
        _ = try rig.weaver([
            "render", id, "--family", "medium", "--scale", "2", "--appearance", "light", "-o", out.path,
        ])
        #expect([UInt8](try Data(contentsOf: out)) == light.body, "the light dock is not weaver render's light picture")
        #expect(try Self.render(rig, id, "medium", token: token, query: "&appearance=dim").status == 400)
        let darkSwatches = try RawHTTP.send(port: rig.port, path: "/api/swatches").json()
        let lightSwatches = try RawHTTP.send(port: rig.port, path: "/api/swatches?appearance=light").json()
        let darkPlain = (darkSwatches?["style.background"] as? [String: String])?["plain"]
        let lightPlain = (lightSwatches?["style.background"] as? [String: String])?["plain"]
        #expect(darkPlain != nil && lightPlain != nil && darkPlain != lightPlain, "\(String(describing: lightPlain))")
        #expect(try RawHTTP.send(port: rig.port, path: "/api/swatches?appearance=dim").status == 400)
    }

    @Test func aSmallOnlyTextIsDrawnOnlyAtSmallWithPro() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        let id = try EditorAPITests.makeDesign(rig, name: "Set")
        let token = try rig.startServerForAPI()
        let edit = try EditorAPITests.send(
            rig, "POST", "/api/drafts/\(id)/edit", #"{"field":"matchedSet.small.primaryText","value":"Only small"}"#,
            token: token)
        #expect(edit.status == 200, "\(edit.text)")
        func tree(_ family: String) throws -> String {
            try EditorAPITests.send(rig, "POST", "/api/drafts/\(id)/render?family=\(family)&format=json", token: token)
                .text
        }
        #expect(try tree("small").contains("Only small"))
        for family in ["medium", "large"] { #expect(try !tree(family).contains("Only small"), "\(family)") }
    }

    /// The dock's six pictures of one redraw (`draw=N`) are drawn from one read of the store: a
    /// variable changed between two of them does not split the dock; the next redraw shows it.
    @Test func oneRedrawsPicturesShareOneReadOfTheStore() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        #expect(try rig.weaver(["vars", "set", "mood", "calm"]).status == 0)
        let id = try EditorAPITests.makeDesign(rig, name: "Shared")
        let token = try rig.startServerForAPI()
        let edit = try EditorAPITests.send(
            rig, "POST", "/api/drafts/\(id)/edit", #"{"field":"primaryText","value":"Mood {{mood}}"}"#, token: token)
        #expect(edit.status == 200, "\(edit.text)")
        func tree(_ family: String, draw: String?) throws -> String {
            let query = draw.map { "&draw=\($0)" } ?? ""
            return try EditorAPITests.send(
                rig, "POST", "/api/drafts/\(id)/render?family=\(family)&format=json\(query)", token: token
            ).text
        }
        #expect(try tree("small", draw: "1001").contains("Mood calm"))
        #expect(try rig.weaver(["vars", "set", "mood", "stormy"]).status == 0)
        // The same redraw: the same inputs, although the store changed in between.
        #expect(try tree("medium", draw: "1001").contains("Mood calm"))
        // A new redraw, and a picture drawn alone, read the store again.
        #expect(try tree("medium", draw: "1002").contains("Mood stormy"))
        #expect(try tree("large", draw: nil).contains("Mood stormy"))
        // A redraw's name is digits only, at most 32.
        let bad = try EditorAPITests.send(
            rig, "POST", "/api/drafts/\(id)/render?family=small&format=json&draw=x1", token: token)
        #expect(bad.status == 400 && bad.text.contains("'draw'"), "\(bad.text)")
    }
}
