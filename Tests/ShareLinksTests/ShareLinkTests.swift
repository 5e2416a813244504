import Foundation
import Testing

@testable import ShareLinks

/// The share link's format: what goes in comes out byte for byte; anything cut, altered, oversized or
/// foreign is refused with a message that says which.
@Suite struct ShareLinkTests {
    let json = Array(#"{"name":"Rain","layers":[{"colour":1.2,"volume":0.5}],"masterVolume":0.6}"#.utf8)

    @Test func aLinkCarriesItsJSONWhole() throws {
        let text = try ShareLink(kind: .mix, json: json).text()
        #expect(text.hasPrefix("http://127.0.0.1:8765/share#ww1.mix."))
        #expect(try ShareLink.read(text) == ShareLink(kind: .mix, json: json))
        // The fragment alone, and with the spaces a paste brings, reads the same.
        let fragment = String(text[text.index(after: text.firstIndex(of: "#")!)...])
        #expect(try ShareLink.read("  " + fragment + "\n").json == json)
        // Another server's address in front is fine: only the fragment counts.
        #expect(try ShareLink.read("http://127.0.0.1:9000/share#" + fragment).kind == .mix)
    }

    @Test func everyAlteredCharacterIsRefused() throws {
        let text = try ShareLink(kind: .design, json: json).text()
        let start = text.distance(from: text.startIndex, to: text.firstIndex(of: "#")!) + 1
        var refused = 0
        var chars = Array(text)
        for i in start..<chars.count where chars[i] != "." {
            let original = chars[i]
            chars[i] = original == "A" ? "B" : "A"
            if (try? ShareLink.read(String(chars))) == nil { refused += 1 }
            chars[i] = original
        }
        let altered = chars[start...].filter { $0 != "." }.count
        #expect(refused == altered, "\(altered - refused) of \(altered) one-character changes were accepted")
    }

    @Test func refusalsSayWhatIsWrong() throws {
        let text = try ShareLink(kind: .mix, json: json).text()
        func message(_ link: String) -> String {
            do {
                _ = try ShareLink.read(link)
                return "accepted"
            } catch { return error.message }
        }
        #expect(message(String(text.dropLast(5))).contains("checksum"))
        #expect(message(text.replacingOccurrences(of: "#ww1.", with: "#ww9.")).contains("version 'ww9'"))
        #expect(message(text.replacingOccurrences(of: ".mix.", with: ".song.")).contains("carries a 'song'"))
        #expect(message("http://example.com/page#top").contains("not a WidgetWeaver share link"))
        #expect(message(text + String(repeating: "A", count: 2000)).contains("at most 2000"))
        #expect(message("#ww1.mix.@@@.x").contains("not base64url"))
        #expect(message("#ww1.mix").contains("has 2 parts"))
    }

    @Test func aLinkOverTheLimitIsNotMade() throws {
        // Incompressible JSON (a long random string) cannot fit in 2,000 characters.
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<3000).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &generator)! }
        let big = Array(#"{"name":""#.utf8) + Array(String(noise).utf8) + Array(#""}"#.utf8)
        #expect(throws: ShareLinkError.self) { try ShareLink(kind: .mix, json: big).text() }
    }

    @Test func aDecompressionBombStopsAtTheBound() throws {
        // 10 MB of one byte packs into a few kilobytes of DEFLATE; reading it must stop at 64 KiB.
        let bomb = try ShareLink.deflate([UInt8](repeating: 0x20, count: 10 << 20))
        let fragment = "#ww1.mix.\(Base64URL.encode(bomb)).AAAAAAAAAAA"
        #expect(bomb.count < 20_000)
        if fragment.count <= ShareLink.maximumCharacters {
            #expect(throws: ShareLinkError("the link unpacks to more than 65536 bytes; it is not a share link")) {
                try ShareLink.read(fragment)
            }
        } else {
            #expect(throws: ShareLinkError.self) { try ShareLink.read(fragment) }
        }
    }

    @Test func qrCodeHasFinderPatternsAndQuietZone() throws {
        let link = try ShareLink(kind: .mix, json: json).text()
        let code = try QRCode(link)
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "a QR code's side is 17 + 4 × version")
        // Finder pattern corners: dark outer ring, light ring, dark 3×3 centre (top-left, top-right, bottom-left).
        for (ox, oy) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(code.isDark(ox, oy) && code.isDark(ox + 6, oy + 6) && code.isDark(ox + 3, oy + 3))
            #expect(!code.isDark(ox + 1, oy + 1) && !code.isDark(ox + 5, oy + 5))
        }
        let (pixels, side) = code.argbPixels(scale: 2)
        #expect(side == (code.size + 8) * 2)
        #expect(pixels[0] == 0xFFFF_FFFF && pixels[8 * side + 8] == 0xFF00_0000)
        let text = code.terminalText(colours: false)
        #expect(text.split(separator: "\n").count == (code.size + 8 + 1) / 2)
    }
}
