import Foundation
import TestSupport
import Testing

/// The Library, Explore and sharing API over a real socket to a real `weaver serve`, each answer
/// checked against what the `weaver` verbs read from (or write to) the same store.
@Suite(.serialized)
struct LibraryAPITests {
    static func send(_ rig: ServeRig, _ method: String, _ path: String, _ body: String = "", token: String?) throws
        -> RawHTTP.Reply
    {
        try sendBytes(rig, method, path, Array(body.utf8), token: token)
    }

    static func sendBytes(
        _ rig: ServeRig, _ method: String, _ path: String, _ body: [UInt8], token: String?,
        type: String = "application/json"
    ) throws -> RawHTTP.Reply {
        var headers = [("Content-Type", type), ("Origin", rig.origin)]
        if let token { headers.append(("X-WidgetWeaver-Token", token)) }
        return try RawHTTP.send(
            port: rig.port, method: method, path: path, headers: headers, body: body, timeoutSeconds: 60)
    }

    static func list(_ rig: ServeRig) throws -> [[String: Any]] {
        let list = try rig.weaver(["designs", "list", "--json"])
        #expect(list.status == 0, "\(list.stderrText)")
        return try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
    }

    @Test func libraryActionsAreTheCLIsAndTheFreeTierCapHolds() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()

        // Explore's "Add to Library" is `weaver templates add`.
        let added = try Self.send(rig, "POST", "/api/library/add", #"{"template":"weather"}"#, token: token)
        #expect(added.status == 201, "\(added.text)")
        let weatherID = try #require(added.json()?["id"] as? String)
        #expect(try Self.list(rig).map { $0["name"] as? String } == ["Weather"])
        // The first design becomes the default, as with the CLI.
        #expect(try Self.list(rig).first?["isDefault"] as? Bool == true)

        let page = try RawHTTP.send(port: rig.port, path: "/library")
        #expect(page.status == 200)
        #expect(page.text.contains("data-design-id=\"\(weatherID)\""))
        #expect(page.text.contains("1 of 3 designs; Pro: unlimited"), "\(page.text.prefix(2000))")

        // Duplicate, rename, default: what `weaver designs` sees afterwards.
        let copy = try Self.send(rig, "POST", "/api/library/\(weatherID)/duplicate", token: token)
        #expect(copy.status == 201, "\(copy.text)")
        let copyID = try #require(copy.json()?["id"] as? String)
        #expect(try Self.list(rig).contains { $0["name"] as? String == "Weather (Copy)" })
        let renamed = try Self.send(
            rig, "POST", "/api/library/\(copyID)/rename", #"{"name":"Rainy Days"}"#, token: token)
        #expect(renamed.status == 200, "\(renamed.text)")
        #expect(try EditorAPITests.showJSON(rig, copyID)["name"] as? String == "Rainy Days")
        let tooLong = try Self.send(
            rig, "POST", "/api/library/\(copyID)/rename", #"{"name":"\#(String(repeating: "x", count: 500))"}"#,
            token: token)
        #expect(tooLong.status == 422 && tooLong.json()?["field"] as? String == "name", "\(tooLong.text)")
        #expect(try Self.send(rig, "POST", "/api/library/\(copyID)/default", token: token).status == 200)
        #expect(try rig.weaver(["designs", "default"]).stdoutText.contains("Rainy Days"))

        // Search is `designs list --search` (case and accents ignored).
        let found = try RawHTTP.send(port: rig.port, path: "/api/library?search=RAINY")
        let names = (found.json()?["designs"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Rainy Days"], "\(found.text)")

        // The cap: a third design fits, a fourth is refused with the CLI's words.
        #expect(
            try Self.send(rig, "POST", "/api/library/add", #"{"template":"classic","remix":"midnight"}"#, token: token)
                .status == 201)
        let fourth = try Self.send(rig, "POST", "/api/library/add", #"{"template":"hero"}"#, token: token)
        #expect(fourth.status == 422)
        let cli = try rig.weaver(["templates", "add", "hero"])
        #expect(cli.status != 0)
        let message = try #require(fourth.json()?["error"] as? String)
        #expect(
            message.contains("the free tier keeps at most 3 designs") && cli.stderrText.contains(message),
            "\(message) / \(cli.stderrText)")
        #expect(try Self.list(rig).count == 3)
        #expect(try RawHTTP.send(port: rig.port, path: "/library").text.contains("3 of 3 designs; Pro: unlimited"))

        // Delete goes to the CLI's trash; undo restores it, as the default again (issue 41.9).
        let deleted = try Self.send(rig, "DELETE", "/api/library/\(copyID)", token: token)
        #expect(deleted.status == 200, "\(deleted.text)")
        #expect(deleted.json()?["wasDefault"] as? Bool == true)
        let trash = try rig.weaver(["designs", "trash", "--json"])
        #expect(trash.stdoutText.contains(copyID), "\(trash.stdoutText)")
        #expect(try Self.list(rig).count == 2)
        let undo = try #require(deleted.json()?["undo"] as? String)
        let restored = try Self.send(rig, "POST", undo, token: token)
        #expect(restored.status == 200, "\(restored.text)")
        #expect(try Self.list(rig).contains { $0["id"] as? String == copyID })
        #expect(!(try rig.weaver(["designs", "trash", "--json"]).stdoutText.contains(copyID)))
        let afterUndo = try Self.list(rig)
        #expect(
            afterUndo.first { $0["id"] as? String == copyID }?["isDefault"] as? Bool == true,
            "undoing the default design's delete left no default: \(afterUndo)")

        // Writes need the page's token and origin.
        #expect(try Self.send(rig, "POST", "/api/library/add", #"{"template":"classic"}"#, token: nil).status == 403)
        #expect(try Self.send(rig, "DELETE", "/api/library/\(copyID)", token: "0000").status == 403)
        #expect(try Self.send(rig, "POST", "/api/library/not-a-uuid/duplicate", token: token).status == 404)
    }

    /// The export is the bytes `weaver export` writes (apart from the package's creation time).
    @Test func exportIsWhatWeaverExportWrites() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        let a = try EditorAPITests.makeDesign(rig, name: "First")
        _ = try EditorAPITests.makeDesign(rig, name: "Second")
        try rig.startServer()
        let folder = rig.store.deletingLastPathComponent()
        func withoutCreatedAt(_ data: Data) -> String {
            String(decoding: data, as: UTF8.self).replacing(/"createdAt" : "[^"]*"/, with: "\"createdAt\" : \"\"")
        }
        for (query, args) in [("ids=\(a)", [a]), ("ids=all", ["--all"])] {
            let web = try RawHTTP.send(port: rig.port, path: "/api/export?\(query)")
            #expect(web.status == 200, "\(web.text)")
            #expect(web.headers["content-disposition"]?.hasPrefix("attachment; filename=") == true)
            let file = folder.appendingPathComponent("cli.wwdesign")
            let cli = try rig.weaver(["export"] + args + ["--output", file.path])
            #expect(cli.status == 0, "\(cli.stderrText)")
            let cliBytes = try Data(contentsOf: file)
            #expect(withoutCreatedAt(Data(web.body)) == withoutCreatedAt(cliBytes))
            #expect(
                withoutCreatedAt(Data(web.body)) != String(decoding: Data(web.body), as: UTF8.self),
                "no createdAt to set aside")
        }
        #expect(try RawHTTP.send(port: rig.port, path: "/api/export?ids=").status == 400)
        #expect(try RawHTTP.send(port: rig.port, path: "/api/export?ids=../../etc/passwd").status == 422)
    }

    /// Every file of the import tests, uploaded to the Import Review and given to `weaver import`:
    /// the same files are accepted, the same refused with the same message, and nothing is written.
    @Test func everyImportFileIsAcceptedOrRefusedAsWeaverImportDoes() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let folder = rig.store.deletingLastPathComponent().appendingPathComponent("imports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The oversized file is declared, not sent: the server refuses it from its length, as
        // `weaver import` refuses it from its size, before reading it.
        let huge = try #require(ImportFixtures.all().last)
        let hugePath = folder.appendingPathComponent(huge.fileName)
        try huge.data.write(to: hugePath)
        let hugeCLI = try rig.weaver(["import", hugePath.path, "--dry-run"])
        let hugeWeb = try RawHTTP.sendRaw(
            port: rig.port,
            "POST /api/import?name=\(huge.fileName) HTTP/1.1\r\nHost: 127.0.0.1:\(rig.port)\r\n"
                + """
                Origin: \(rig.origin)\r\nX-WidgetWeaver-Token: \(token)\r\nContent-Length: \
                \(huge.data.count)\r\nConnection: close\r\n\r\n
                """
        )
        #expect(hugeCLI.status != 0 && hugeWeb.status == 413, "\(hugeWeb.status) \(hugeWeb.text)")
        let hugeMessage = String(hugeWeb.errorText.dropFirst(huge.fileName.count + 2))
        #expect(
            !hugeMessage.isEmpty && hugeCLI.stderrText.contains(hugePath.path + ": " + hugeMessage),
            "web '\(hugeWeb.errorText)' / cli '\(hugeCLI.stderrText)'")
        try FileManager.default.removeItem(at: hugePath)
        for file in ImportFixtures.all(oversized: false) {
            let path = folder.appendingPathComponent(file.fileName)
            try file.data.write(to: path)
            let cli = try rig.weaver(["import", path.path, "--dry-run"])
            let web = try Self.sendBytes(
                rig, "POST", "/api/import?name=\(file.fileName)", Array(file.data), token: token,
                type: "application/octet-stream")
            #expect((cli.status == 0) == file.accepted, "\(file.fileName): weaver import: \(cli.stderrText)")
            #expect((web.status == 200) == file.accepted, "\(file.fileName): web: \(web.status) \(web.text)")
            if file.accepted {
                let names = (web.json()?["designs"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
                #expect(
                    !names.isEmpty && names.allSatisfy { cli.stdoutText.contains($0) },
                    "\(file.fileName): \(names) / \(cli.stdoutText)")
            } else {
                // The CLI says "PATH: MESSAGE"; the page "NAME: MESSAGE".
                let error = web.json()?["error"] as? String ?? ""
                #expect(error.hasPrefix(file.fileName + ": "), "\(file.fileName): \(error)")
                let message = String(error.dropFirst(file.fileName.count + 2))
                #expect(
                    !message.isEmpty && cli.stderrText.contains(path.path + ": " + message),
                    "\(file.fileName): web '\(message)' / cli '\(cli.stderrText)'")
            }
        }
        #expect(try Self.list(rig).isEmpty, "a review wrote designs")
    }

    /// Import Review: only the ticked designs are written, with new IDs, and the summary is the CLI's;
    /// past the free slots the import is refused with the CLI's warning.
    @Test func importReviewImportsOnlyTheSelectedDesigns() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let token = try rig.startServerForAPI()
        let alpha = UUID().uuidString
        let data = ImportFixtures.package(
            specs: [
                ImportFixtures.spec("Alpha", id: alpha), ImportFixtures.spec("Beta", image: "b.png"),
                ImportFixtures.spec("Gamma"), ImportFixtures.spec("Delta", updated: "2026-02-01T00:00:00Z"),
            ],
            images: [ImportFixtures.image("b.png", ImportFixtures.png(3))])
        let review = try Self.sendBytes(
            rig, "POST", "/api/import?name=four.wwdesign", Array(data), token: token, type: "application/octet-stream")
        #expect(review.status == 200, "\(review.text)")
        let answer = try #require(review.json())
        #expect(answer["fileName"] as? String == "four.wwdesign")
        #expect(answer["freeSlots"] as? Int == 3)
        let designs = try #require(answer["designs"] as? [[String: Any]])
        #expect(designs.map { $0["index"] as? Int } == [0, 1, 2, 3])
        #expect(designs.map { $0["hasImage"] as? Bool } == [false, true, false, false])
        #expect(
            designs[0]["template"] as? String == "classic"
                && designs[0]["updatedAt"] as? String == "2026-01-01T00:00:00Z")
        // The free tier's default: the newest first, up to the free slots.
        #expect(answer["defaultSelection"] as? [Int] == [0, 1, 3])
        let reviewID = try #require(answer["reviewId"] as? String)
        #expect(try Self.list(rig).isEmpty, "the review wrote something")
        // The picture of a design under review.
        let picture = try RawHTTP.send(port: rig.port, path: "/api/import/\(reviewID)/0.svg?family=small")
        #expect(picture.status == 200 && picture.text.contains("<svg"))

        // Four past three free slots: refused with the review's words, nothing written.
        let over = try Self.send(rig, "POST", "/api/import/\(reviewID)", #"{"select":[0,1,2,3]}"#, token: token)
        #expect(over.status == 422)
        #expect(over.errorText.contains("4 designs selected but the free tier has 3 slots left"), "\(over.text)")
        #expect(try Self.list(rig).isEmpty)
        #expect(try Self.send(rig, "POST", "/api/import/\(reviewID)", #"{"select":[9]}"#, token: token).status == 422)

        let done = try Self.send(rig, "POST", "/api/import/\(reviewID)", #"{"select":[0,1]}"#, token: token)
        #expect(done.status == 200, "\(done.text)")
        #expect(done.json()?["message"] as? String == "Imported 2 designs. Skipped 2 (not selected). Stored 1 image.")
        let rows = try Self.list(rig)
        #expect(Set(rows.compactMap { $0["name"] as? String }) == ["Alpha", "Beta"])
        #expect(!rows.contains { $0["id"] as? String == alpha }, "the import kept the file's ID")
        #expect(FileManager.default.fileExists(atPath: rig.store.appendingPathComponent("images/b.png").path))
        // A review is used once.
        #expect(try Self.send(rig, "POST", "/api/import/\(reviewID)", #"{"select":[2]}"#, token: token).status == 404)
    }
}

extension RawHTTP.Reply {
    /// The answer's `error` text, or "" when it has none.
    var errorText: String { json()?["error"] as? String ?? "" }
}
