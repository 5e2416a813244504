import CDeflate
import Foundation
import SharedStore

/// A mix or a design carried whole in a link, with no server: the JSON, DEFLATE-compressed and in
/// base64url, in the URL's fragment (which browsers never send to a server), versioned and with a
/// checksum so a link cut short or altered on its way is refused rather than half-read.
///
///     http://127.0.0.1:8765/share#ww1.mix.<payload>.<check>
///
/// `check` is the first 8 bytes of the SHA-256 of the kind and the JSON (base64url). The link names the
/// default local address of `weaver serve`; any `weaver serve` page (and `noise play --link`) reads it.
/// What comes out is bytes for the strict readers (`Mix.decode`, the design import): the checksum
/// guards against corruption, the strict reader against everything else.
public struct ShareLink: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable { case mix, design }

    public var kind: Kind
    /// The JSON the link carries.
    public var json: [UInt8]

    public init(kind: Kind, json: [UInt8]) {
        self.kind = kind
        self.json = json
    }

    /// Longer links are cut by chat apps, QR readers and some browsers' address bars.
    public static let maximumCharacters = 2000
    /// The JSON a link may unpack to: a mix is a few hundred bytes, a design a few kilobytes; this
    /// bound is what a hostile link can make us allocate (DEFLATE packs up to 1032:1).
    public static let maximumJSONBytes = 64 << 10
    public static let version = "ww1"
    public static let defaultBase = "http://127.0.0.1:8765/share"

    /// The link text; throws when it would be longer than `maximumCharacters`.
    public func text(base: String = ShareLink.defaultBase) throws(ShareLinkError) -> String {
        guard json.count <= Self.maximumJSONBytes else {
            throw ShareLinkError(
                "the \(kind.rawValue) is \(json.count) bytes of JSON; a link carries at most \(Self.maximumJSONBytes)")
        }
        let packed = try Self.deflate(json)
        let fragment = [Self.version, kind.rawValue, Base64URL.encode(packed), Self.check(kind, json)]
            .joined(separator: ".")
        let link = base + "#" + fragment
        guard link.count <= Self.maximumCharacters else {
            throw ShareLinkError(
                "the \(kind.rawValue) makes a link of \(link.count) characters; a link is at most "
                    + "\(Self.maximumCharacters)")
        }
        return link
    }

    /// Reads a link (the whole URL, or only what follows `#`). Every failure names what is wrong.
    public static func read(_ text: String) throws(ShareLinkError) -> ShareLink {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= maximumCharacters else {
            throw ShareLinkError(
                "the link is \(trimmed.count) characters; a share link is at most \(maximumCharacters)")
        }
        let fragment = trimmed.firstIndex(of: "#").map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        let parts = fragment.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.first?.hasPrefix("ww") == true else {
            throw ShareLinkError("not a WidgetWeaver share link (it should end in '#ww1.mix.…' or '#ww1.design.…')")
        }
        guard parts[0] == version else {
            throw ShareLinkError(
                "the link is of version '\(parts[0])'; this version reads '\(version)' (made by a newer WidgetWeaver?)")
        }
        guard parts.count == 4 else {
            throw ShareLinkError("the link is damaged: it has \(parts.count) parts where a share link has 4")
        }
        guard let kind = Kind(rawValue: parts[1]) else {
            let kinds = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ShareLinkError("the link carries a '\(parts[1])'; a share link carries one of: \(kinds)")
        }
        guard let packed = Base64URL.decode(parts[2]) else {
            throw ShareLinkError("the link is damaged: its payload is not base64url")
        }
        let json = try inflate(packed)
        guard check(kind, json) == parts[3] else {
            throw ShareLinkError("the link is damaged or was altered: its checksum does not match what it carries")
        }
        return ShareLink(kind: kind, json: json)
    }

    static func check(_ kind: Kind, _ json: [UInt8]) -> String {
        let hex = SHA256.hex(Data(Array(kind.rawValue.utf8) + [0] + json))
        var bytes: [UInt8] = []
        var index = hex.startIndex
        for _ in 0..<8 {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return Base64URL.encode(bytes)
    }

    static func deflate(_ bytes: [UInt8]) throws(ShareLinkError) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(12) else {
            throw ShareLinkError("could not compress the link: out of memory")
        }
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_deflate_compress_bound(compressor, bytes.count))
        let count = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_deflate_compress(
                    compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard count > 0 else { throw ShareLinkError("could not compress the link") }
        return Array(out[..<count])
    }

    static func inflate(_ packed: [UInt8]) throws(ShareLinkError) -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw ShareLinkError("could not read the link: out of memory")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var out = [UInt8](repeating: 0, count: maximumJSONBytes)
        var count = 0
        let result = packed.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_deflate_decompress(
                    decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &count)
            }
        }
        switch result {
        case LIBDEFLATE_SUCCESS: return Array(out[..<count])
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw ShareLinkError("the link unpacks to more than \(maximumJSONBytes) bytes; it is not a share link")
        default: throw ShareLinkError("the link is damaged: its payload does not unpack")
        }
    }
}

/// RFC 4648 §5 base64url without padding: safe in a URL fragment and in a QR code's byte mode.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    private static let alphabet = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
