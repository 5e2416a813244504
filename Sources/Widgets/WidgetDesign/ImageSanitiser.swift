import Foundation

/// Checks for images that come from import files (untrusted) or the user: the bytes must be a
/// PNG, JPEG, GIF or WebP by their magic numbers, within size caps, and stored under a bare, safe
/// file name that cannot leave the store's `images/` folder.
public enum ImageSanitiser {
    public enum Format: String, Sendable {
        case png, jpeg, gif, webp
        public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    /// Largest single image accepted, decoded bytes.
    public static let maxImageBytes = 10 << 20
    public static let maxFileNameCharacters = 128

    /// The format named by the first bytes, or nil when they are not one of the four.
    public static func format(of data: Data) -> Format? {
        let b = [UInt8](data.prefix(12))
        if b.count >= 8, b[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .jpeg }
        if b.count >= 6, b[0..<6] == Array("GIF87a".utf8)[0..<6] || b[0..<6] == Array("GIF89a".utf8)[0..<6] {
            return .gif
        }
        if b.count >= 12, b[0..<4] == Array("RIFF".utf8)[0..<4], b[8..<12] == Array("WEBP".utf8)[0..<4] { return .webp }
        return nil
    }

    /// Refuses data that is not an image or is too large; returns its format.
    public static func check(_ data: Data, name: String, limitBytes: Int = maxImageBytes) throws -> Format {
        guard data.count <= limitBytes else {
            throw DesignError("image \"\(name)\" is \(data.count) bytes; the limit is \(limitBytes) bytes")
        }
        guard let f = format(of: data) else {
            throw DesignError("image \"\(name)\" is not a PNG, JPEG, GIF or WebP image (its first bytes do not match)")
        }
        return f
    }

    /// A bare file name safe to create inside `images/`: the last path component, with anything
    /// but letters, digits, `.`, `-`, `_` and space replaced by `_`, no leading dots, at most
    /// 128 characters. Nil when nothing usable is left.
    public static func sanitisedFileName(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let last = trimmed.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        for s in last.unicodeScalars {
            let ok =
                (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                || s == "." || s == "-" || s == "_" || s == " "
            scalars.append(ok ? s : "_")
        }
        var name = String(scalars)
        while name.hasPrefix(".") { name.removeFirst() }
        name = name.trimmingCharacters(in: .whitespaces)
        if name.count > maxFileNameCharacters {
            // Keep the extension: it tells readers the image type.
            var ext = (name as NSString).pathExtension
            if ext.count > 16 { ext = "" }
            let keep = maxFileNameCharacters - (ext.isEmpty ? 0 : ext.count + 1)
            name = String(name.prefix(keep)).trimmingCharacters(in: .whitespaces) + (ext.isEmpty ? "" : ".\(ext)")
        }
        let isOnlyFiller = name.allSatisfy { $0 == "_" || $0 == "." || $0 == " " }
        return name.isEmpty || isOnlyFiller ? nil : name
    }
}
