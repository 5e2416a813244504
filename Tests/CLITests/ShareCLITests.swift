import Foundation
import TestSupport
import Testing

/// `noise share` and `--link`, run as a user does: the link plays what was shared, a phone's reader
/// (zbarimg) reads the QR code back to the same link, and a damaged link is refused.
@Suite struct ShareCLITests {
    func share(_ args: [String]) throws -> String {
        let r = try Products.run("noise", ["share"] + args)
        #expect(r.status == 0, "\(r.stderrText)")
        return r.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test func aSharedPresetRendersByteForByteLikeThePreset() throws {
        let dir = try Products.temporaryDirectory("share")
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = try share(["--preset", "rain", "--no-qr"])
        #expect(link.hasPrefix("http://127.0.0.1:8765/share#ww1.mix."))
        #expect(link.count <= 2000)
        func render(_ source: [String], _ name: String) throws -> Data {
            let path = dir.appendingPathComponent(name).path
            let r = try Products.run(
                "noise", ["render"] + source + ["--duration", "2s", "--seed", "7", "-o", path])
            #expect(r.status == 0, "\(r.stderrText)")
            return (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        }
        let fromPreset = try render(["--preset", "rain"], "preset.wav")
        let fromLink = try render(["--link", link], "link.wav")
        #expect(!fromPreset.isEmpty && fromPreset == fromLink)
    }

    @Test func theQRCodeReadsBackToTheLink() throws {
        let dir = try Products.temporaryDirectory("share-qr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("rain.png").path
        let r = try Products.run("noise", ["share", "--preset", "ocean", "--png", png])
        #expect(r.status == 0, "\(r.stderrText)")
        let lines = r.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        let link = String(lines[0])
        // The terminal code follows the link: half blocks, one text line per two module rows.
        #expect(lines.count > 15 && lines[1...].contains { $0.contains("█") })
        let zbar = try ChildProcess("/usr/bin/zbarimg", ["--raw", "-q", png])
        #expect(zbar.wait() == 0, "zbarimg: \(String(decoding: zbar.stderr, as: UTF8.self))")
        #expect(String(decoding: zbar.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == link)
    }

    @Test func aDamagedOrForeignLinkIsRefusedAndNothingIsWritten() throws {
        let dir = try Products.temporaryDirectory("share-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = try share(["--preset", "wind", "--no-qr"])
        // One character of the checksum (the link's last part) changed: the payload still unpacks, the
        // sum no longer matches. (A changed payload character may instead fail to unpack: also refused.)
        var chars = Array(link)
        chars[chars.count - 3] = chars[chars.count - 3] == "x" ? "y" : "x"
        let out = dir.appendingPathComponent("x.wav").path
        for (bad, words) in [
            (String(chars), "checksum"), (String(link.prefix(link.count - 30)), "the link is damaged"),
            ("http://127.0.0.1:8765/share#ww2.mix.AAAA.AAAA", "version 'ww2'"),
            ("https://example.org/#top", "not a WidgetWeaver share link"),
        ] {
            let r = try Products.run("noise", ["render", "--link", bad, "--duration", "1s", "-o", out])
            #expect(r.status != 0)
            #expect(r.stderrText.contains(words), "\(bad): \(r.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let both = try Products.run("noise", ["render", "--link", link, "--preset", "rain", "-o", out])
        #expect(both.status != 0 && both.stderrText.contains("not more"))
    }

    @Test func aSharedDesignImportsIntoAnotherStoreAsItWas() throws {
        let dir = try Products.temporaryDirectory("share-design")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = ["WIDGETWEAVER_HOME": dir.appendingPathComponent("a").path]
        let second = ["WIDGETWEAVER_HOME": dir.appendingPathComponent("b").path]
        #expect(try Products.run("weaver", ["templates", "add", "classic"], environment: first).status == 0)
        let shared = try Products.run("weaver", ["share", "Classic", "--no-qr"], environment: first)
        #expect(shared.status == 0, "\(shared.stderrText)")
        let link = shared.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(link.hasPrefix("http://127.0.0.1:8765/share#ww1.design.") && link.count <= 2000)
        let imported = try Products.run("weaver", ["import", link, "--all"], environment: second)
        #expect(imported.status == 0, "\(imported.stderrText)")
        #expect(imported.stdoutText.contains("Imported 1 design"))
        func show(_ env: [String: String]) throws -> String {
            let r = try Products.run("weaver", ["designs", "show", "Classic", "--json"], environment: env)
            #expect(r.status == 0, "\(r.stderrText)")
            // The ID and dates are the store's own; everything the design says must have travelled.
            return r.stdoutText.split(separator: "\n")
                .filter { !$0.contains("\"id\"") && !$0.contains("updatedAt") && !$0.contains("createdAt") }
                .joined(separator: "\n")
        }
        #expect(try show(first) == show(second))
        // A mix link is not a design, and a design link does not play.
        let mixLink = try share(["--preset", "rain", "--no-qr"])
        let wrongWay = try Products.run("weaver", ["import", mixLink, "--all"], environment: second)
        #expect(wrongWay.status != 0 && wrongWay.stderrText.contains("not a design"))
        let notAMix = try Products.run("noise", ["render", "--link", link, "--duration", "1s", "-o", "-"])
        #expect(notAMix.status != 0 && notAMix.stderrText.contains("not a mix"))
    }
}
