import Foundation
import NoiseEngine
import TestSupport
import Testing

/// The Noise page's board API over a real socket to a real `weaver serve` (no player: the Last Mix), with
/// the user presets checked through the `noise` CLI and shared links made by `noise share`.
@Suite(.serialized)
struct SoundBoardAPITests {
    static func board(_ rig: ServeRig) throws -> (sounds: [[String: Any]], board: [String: Any]) {
        let reply = try RawHTTP.send(port: rig.port, path: "/api/board")
        let json = try #require(reply.json(), "\(reply.text)")
        return (json["sounds"] as? [[String: Any]] ?? [], json["board"] as? [String: Any] ?? [:])
    }

    static func playing(_ board: [String: Any]) -> [String] {
        (board["layers"] as? [[String: Any]] ?? []).filter { $0["enabled"] as? Bool == true }
            .map { $0["sound"] as? String ?? "?" }
    }

    static func lastMix(_ rig: ServeRig) throws -> Mix {
        let data = try Data(contentsOf: rig.store.appendingPathComponent("last-mix.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let mix = try JSONSerialization.data(withJSONObject: try #require(object["mix"]))
        return try Mix.decode(Array(mix), file: nil)
    }

    @Test func theBoardListsEverySoundTheEngineMakesAndBuildsAMixHeldAtTheReferenceLoudness() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()

        // Every texture of the engine but plain noise, the three named colours and the built-in presets.
        let (sounds, start) = try Self.board(rig)
        let ids = sounds.compactMap { $0["id"] as? String }
        for texture in Mix.Texture.allCases where texture != .noise {
            #expect(ids.contains(texture.rawValue), "no card for the \(texture.rawValue) texture: \(ids)")
        }
        for id in ["white", "pink", "brown", "ocean", "wind", "campfire"] { #expect(ids.contains(id), "\(ids)") }
        #expect(Set(ids).count == ids.count, "one card per sound: \(ids)")
        // An empty store plays the default mix: one pink layer.
        #expect(Self.playing(start) == ["pink"], "\(start)")

        let page = try RawHTTP.send(port: rig.port, path: "/noise")
        for id in ids { #expect(page.text.contains(#"data-sound="\#(id)""#), "no card \(id) on the page") }
        #expect(page.text.contains(#"<details id="advanced""#) && page.text.contains(#"id="mixer-form""#))
        #expect(page.text.contains(#"aria-pressed="true""#), "the pink card is pressed")
        // The page's own script (with its pure logic included) and style sheet.
        let script = try RawHTTP.send(port: rig.port, path: "/static/board.js")
        #expect(script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true)
        #expect(script.text.contains("function cardStates") && !script.text.contains("// @include"))
        let sheet = try RawHTTP.send(port: rig.port, path: "/static/board.css")
        #expect(sheet.status == 200 && sheet.headers["content-type"]?.hasPrefix("text/css") == true)
        // Share links name /share; it is the same page.
        let share = try RawHTTP.send(port: rig.port, path: "/share")
        #expect(share.status == 200 && share.text.contains(#"data-sound="drops""#))

        // Three sounds in: each goes to a new layer and the master follows the loudness model.
        for id in ["drops", "brown", "crackle"] {
            let r = try rig.post("/api/board/add", #"{"sound":"\#(id)"}"#, token: token)
            #expect(r.status == 200, "\(id): \(r.text)")
            let mix = try Self.lastMix(rig)
            let loudness = mix.predictedLoudness().loudnessLufs
            // Held at the reference; or, for a mix too soft to reach it (pink and drops at 80%), master at 100%.
            let held = abs(loudness - Mix.referenceLoudnessLufs) < 0.1
            let closest = mix.masterVolume == 1 && loudness < Mix.referenceLoudnessLufs
            #expect(held || closest, "\(id): \(loudness) LUFS at \(mix.masterVolume)")
        }
        #expect(Self.playing(try Self.board(rig).board) == ["pink", "drops", "brown", "crackle"])

        // A fifth asks which to replace, naming the layers; then replaces the one chosen.
        let full = try rig.post("/api/board/add", #"{"sound":"white"}"#, token: token)
        #expect(full.status == 409, "\(full.text)")
        #expect(full.json()?["field"] as? String == "replaceLayer")
        #expect(full.text.contains("1 Pink, 2 Drops, 3 Brown, 4 Crackle"), "\(full.text)")
        let replaced = try rig.post("/api/board/add", #"{"sound":"white","replaceLayer":2}"#, token: token)
        #expect(replaced.status == 200, "\(replaced.text)")
        #expect(Self.playing(try Self.board(rig).board) == ["pink", "white", "brown", "crackle"])

        // Taking one out switches its layer off, and the rest is held at the reference again.
        let removed = try rig.post("/api/board/remove", #"{"sound":"crackle"}"#, token: token)
        #expect(removed.status == 200, "\(removed.text)")
        let mix = try Self.lastMix(rig)
        #expect(mix.layers[3].enabled == false && mix.layers[3].texture == .crackle)
        #expect(abs(mix.predictedLoudness().loudnessLufs - Mix.referenceLoudnessLufs) < 0.1)
        #expect(Self.playing(try Self.board(rig).board) == ["pink", "white", "brown"])
        // The next sound takes the switched-off layer.
        #expect(try rig.post("/api/board/add", #"{"sound":"drops"}"#, token: token).status == 200)
        #expect(Self.playing(try Self.board(rig).board) == ["pink", "white", "brown", "drops"])
    }

    @Test func badInputIsRefusedNamingTheFieldAndWhatIsAllowed() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        func expectRefusal(
            _ path: String, _ body: String, _ status: Int, _ words: String, field: String? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let r = try rig.post(path, body, token: token)
            #expect(r.status == status, "\(path) \(body) → \(r.status) \(r.text)", sourceLocation: sourceLocation)
            #expect(r.text.contains(words), "\(r.text)", sourceLocation: sourceLocation)
            if let field {
                #expect(r.json()?["field"] as? String == field, "\(r.text)", sourceLocation: sourceLocation)
            }
        }
        try expectRefusal(
            "/api/board/add", #"{"sound":"hail"}"#, 400, "allowed white, pink, brown, drops", field: "sound")
        try expectRefusal(
            "/api/board/add", #"{"sound":"drops","replaceLayer":5}"#, 400, "allowed 1…4", field: "replaceLayer")
        try expectRefusal("/api/board/add", #"{"sound":"drops","replaceLayer":1.5}"#, 400, "whole number")
        try expectRefusal("/api/board/add", #"{"sound":"drops","volume":1}"#, 400, #"the body must be {\"sound\""#)
        try expectRefusal("/api/board/add", #"{"sound":7}"#, 400, "'sound' must be a string", field: "sound")
        try expectRefusal("/api/board/remove", "[]", 400, #"the body must be {\"sound\": ID}"#)
        try expectRefusal("/api/presets", #"{"name":""}"#, 400, "'name' must be 1 to 200 characters", field: "name")
        try expectRefusal("/api/presets", #"{"name":"!!!"}"#, 400, "at least one letter or digit", field: "name")
        try expectRefusal(
            "/api/presets", #"{"name":"\#(String(repeating: "a", count: 201))"}"#, 400, "1 to 200", field: "name")
        try expectRefusal("/api/presets", #"{"name":"Rain"}"#, 409, "'rain' is a built-in preset", field: "name")
        try expectRefusal("/api/presets/rain/rename", #"{"name":"Mine"}"#, 404, "built-in preset")
        try expectRefusal("/api/share/open", #"{"link":"hello"}"#, 400, "not a WidgetWeaver share link", field: "link")
        try expectRefusal("/api/board/play", #"{"now":true}"#, 400, "the body must be {}")
        let pause = try rig.post("/api/board/pause", "{}", token: token)
        #expect(pause.status == 200 && pause.text.contains("No player is running"), "\(pause.text)")
        // Writes need the page's token and origin (AccessMiddleware).
        let anonymous = try rig.post("/api/board/add", #"{"sound":"drops"}"#, token: nil)
        #expect(anonymous.status == 403, "\(anonymous.text)")
        let foreign = try rig.post("/api/presets", #"{"name":"x"}"#, token: token, origin: "http://evil.example")
        #expect(foreign.status == 403, "\(foreign.text)")
        #expect(Self.playing(try Self.board(rig).board) == ["pink"], "nothing changed")
    }

    @Test func presetsSavedRenamedAndDeletedOnThePageAreTheCLIsPresets() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        #expect(try rig.post("/api/board/add", #"{"sound":"drops"}"#, token: token).status == 200)

        let saved = try rig.post("/api/presets", #"{"name":"Night Board"}"#, token: token)
        #expect(saved.status == 200, "\(saved.text)")
        var list = try rig.noise(["presets"])
        #expect(list.stdoutText.contains("night-board") && list.stdoutText.contains("Night Board (yours)"), "\(list)")
        let shown = try rig.noise(["presets", "show", "night-board", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
        #expect((object["layers"] as? [[String: Any]])?.count == 2, "\(shown.stdoutText)")
        // The board now shows it as the mix's preset, and lists it as the user's.
        let board = try Self.board(rig).board
        #expect(board["presetID"] as? String == "night-board", "\(board)")
        let presets = board["presets"] as? [[String: Any]] ?? []
        #expect(presets.contains { $0["id"] as? String == "night-board" && $0["user"] as? Bool == true })

        let again = try rig.post("/api/presets", #"{"name":"night board"}"#, token: token)
        #expect(again.status == 409 && again.json()?["field"] as? String == "name", "\(again.text)")

        let renamed = try rig.post("/api/presets/night-board/rename", #"{"name":"Quiet Board"}"#, token: token)
        #expect(renamed.status == 200, "\(renamed.text)")
        list = try rig.noise(["presets"])
        #expect(list.stdoutText.contains("Quiet Board (yours)") && !list.stdoutText.contains("night-board"), "\(list)")
        #expect(try Self.board(rig).board["presetID"] as? String == "quiet-board")

        func delete(_ id: String) throws -> RawHTTP.Reply {
            try RawHTTP.send(
                port: rig.port, method: "DELETE", path: "/api/presets/\(id)",
                headers: [("Origin", rig.origin), ("X-WidgetWeaver-Token", token)], body: [])
        }
        let deleted = try delete("quiet-board")
        #expect(deleted.status == 200, "\(deleted.text)")
        #expect(!(try rig.noise(["presets"]).stdoutText.contains("quiet-board")))
        #expect(try Self.board(rig).board["presetID"] == nil, "the label went with the preset")
        let gone = try delete("quiet-board")
        #expect(gone.status == 404 && gone.text.contains("no preset of yours"), "\(gone.text)")
        let builtIn = try delete("rain")
        #expect(builtIn.status == 404 && builtIn.text.contains("cannot be deleted"), "\(builtIn.text)")
    }

    @Test func aMixLinkIsReadOnTheServerAndADamagedOneRefusedInShareLinksWords() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let made = try rig.noise(["share", "--preset", "rain", "--no-qr"])
        #expect(made.status == 0, "\(made.stderrText)")
        let link = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(link.contains("#ww1.mix."), "\(link)")

        func open(_ link: String) throws -> RawHTTP.Reply {
            let body = try JSONSerialization.data(withJSONObject: ["link": link])
            return try rig.post("/api/share/open", String(decoding: body, as: UTF8.self), token: token)
        }
        let opened = try open(link)
        #expect(opened.status == 200, "\(opened.text)")
        let summary = try #require(opened.json())
        #expect(summary["name"] as? String == "Rain")
        // The mix whole, as the preset file has it.
        let preset = try Mix.load(
            path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Presets/rain.json")
                .path)
        let carried = try JSONSerialization.data(withJSONObject: try #require(summary["mix"]))
        #expect(try Mix.decode(Array(carried), file: nil) == preset)
        // The fragment alone opens too; nothing played and the Last Mix is untouched.
        #expect(try open(String(link[link.firstIndex(of: "#")!...].dropFirst())).status == 200)
        #expect(!FileManager.default.fileExists(atPath: rig.store.appendingPathComponent("last-mix.json").path))

        // One character of the payload changed: the checksum refuses it.
        let payloadAt = link.index(link.firstIndex(of: "#")!, offsetBy: 12)
        let swapped: Character = link[payloadAt] == "A" ? "B" : "A"
        var tampered = link
        tampered.replaceSubrange(payloadAt...payloadAt, with: String(swapped))
        let refused = try open(tampered)
        #expect(refused.status == 400 && refused.json()?["field"] as? String == "link", "\(refused.text)")
        #expect(refused.text.contains("the link is damaged"), "\(refused.text)")
        let long = try open(link + String(repeating: "A", count: 2001 - link.count))
        #expect(long.status == 400 && long.text.contains("a share link is at most 2000"), "\(long.text)")
        let tooBig = try open(String(repeating: "A", count: 13000))
        #expect(tooBig.status == 400, "\(tooBig.text)")
        let design = try open("http://127.0.0.1:8765/share#ww1.design.AAAA.AAAAAAAAAAA")
        #expect(design.status == 400, "\(design.text)")
    }
}
