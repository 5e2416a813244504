import Foundation
import TestSupport
import Testing

/// Explore's seeded remix rows against `weaver remix`: the seed the page shows gives, through
/// `weaver remix STARTER --seed S --json`, the very layouts and styles the row draws and "Add"
/// saves, and "Add" saves what `--save K` saves, leaving the original alone.
@Suite(.serialized)
struct ExploreRemixTests {
    static func object(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Layout and style: what a remix changes.
    static func look(_ spec: [String: Any]) -> NSDictionary {
        ["layout": spec["layout"] ?? NSNull(), "style": spec["style"] ?? NSNull()] as NSDictionary
    }

    @Test func theRowIsWeaverRemixOfTheStarterWithTheSeedShown() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        #expect(try rig.weaver(["pro", "unlock"]).status == 0)
        let token = try rig.startServerForAPI()
        let page = try RawHTTP.send(port: rig.port, path: "/explore").text

        for (templateID, name) in [("classic", "Classic"), ("weather", "Weather")] {
            let card = try #require(
                page.firstMatch(of: try Regex(#"data-template="\#(templateID)"[\s\S]*?data-seed="(\d+)""#)),
                "no seeded row for \(templateID)")
            let seed = try #require(card.output[1].substring.map(String.init))
            #expect(try rig.weaver(["templates", "add", templateID]).status == 0)
            let original = try #require(
                try LibraryAPITests.list(rig).first { $0["name"] as? String == name }?["id"] as? String)
            let originalBefore = try rig.weaver(["designs", "show", original, "--json"]).stdout
            let cli = try rig.weaver(["remix", original, "--seed", seed, "--count", "4", "--json"])
            #expect(cli.status == 0, "\(cli.stderrText)")
            let variants = Self.object(cli.stdout)["variants"] as? [[String: Any]] ?? []
            #expect(variants.count == 4)

            // Each picture of the row is drawn, and each differs from the others.
            var pictures: Set<String> = []
            for k in 1...4 {
                let svg = try RawHTTP.send(
                    port: rig.port, path: "/api/explore/\(templateID).svg?family=small&seed=\(seed)&variant=\(k)")
                #expect(svg.status == 200 && svg.text.contains("<svg"), "\(svg.text.prefix(200))")
                pictures.insert(svg.text)
            }
            #expect(pictures.count == 4, "\(templateID): the four remixes draw alike")

            for k in [1, 3] {
                let before = try LibraryAPITests.list(rig).count
                let added = try LibraryAPITests.send(
                    rig, "POST", "/api/library/add",
                    #"{"template":"\#(templateID)","seed":"\#(seed)","variant":\#(k)}"#,
                    token: token)
                #expect(added.status == 201, "\(added.text)")
                #expect(added.json()?["name"] as? String == "\(name) (Remix \(k))", "\(added.text)")
                let id = try #require(added.json()?["id"] as? String)
                let web = Self.object(try rig.weaver(["designs", "show", id, "--json"]).stdout)
                #expect(
                    Self.look(web) == Self.look(variants[k - 1]), "\(templateID) remix \(k) differs from weaver remix")
                #expect(try LibraryAPITests.list(rig).count == before + 1)

                // `--save K` saves the same design under the same name.
                let saved = try rig.weaver(["remix", original, "--seed", seed, "--count", "4", "--save", "\(k)"])
                #expect(saved.status == 0, "\(saved.stderrText)")
                let savedID = try #require(saved.stdoutText.firstMatch(of: /\(([0-9A-F-]{36})\)/)?.1)
                let cliSaved = Self.object(try rig.weaver(["designs", "show", String(savedID), "--json"]).stdout)
                #expect(cliSaved["name"] as? String == web["name"] as? String)
                #expect(Self.look(cliSaved) == Self.look(web))
            }
            #expect(try rig.weaver(["designs", "show", original, "--json"]).stdout == originalBefore)
        }

        // Bad seeds and variants are refused with the allowed range.
        for body in [
            #"{"template":"classic","seed":"-1","variant":1}"#, #"{"template":"classic","seed":"7","variant":0}"#,
            #"{"template":"classic","seed":7,"variant":1}"#, #"{"template":"classic","seed":"7","variant":101}"#,
            #"{"template":"classic","remix":"midnight","seed":"7","variant":1}"#,
        ] {
            let r = try LibraryAPITests.send(rig, "POST", "/api/library/add", body, token: token)
            #expect(r.status == 422 && r.errorText.contains("1…100"), "\(body): \(r.text)")
        }
        #expect(
            try RawHTTP.send(port: rig.port, path: "/api/explore/classic.svg?family=small&seed=x&variant=1").status
                == 400)
    }
}
