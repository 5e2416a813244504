import Foundation

/// Which links an `openURL` button may open: http and https with a host, and `weaver:` links
/// (`weaver:editor/ID`). Anything else (`file:`, `javascript:`, `data:`, a shell command, a
/// link with spaces or control characters) is refused, by the editor, the decoder and at the
/// press alike, so a design file from elsewhere cannot make a button run something.
public enum OpenURLPolicy {
    public static let allowed = "an http:// or https:// link with a host, or a weaver: link such as weaver:editor/ID"

    /// The link, checked; throws `DesignError` naming what is wrong.
    public static func check(_ raw: String) throws -> String {
        let t = raw.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { throw DesignError("an openURL button needs a link; allowed: \(allowed)") }
        guard t.utf8.count <= FieldLimits.maxURLCharacters else {
            throw DesignError("the link is longer than \(FieldLimits.maxURLCharacters) bytes")
        }
        guard !t.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace })
        else {
            throw DesignError("'\(printable(t))' contains spaces or control characters; allowed: \(allowed)")
        }
        guard let colon = t.firstIndex(of: ":") else {
            throw DesignError("'\(printable(t))' has no scheme; allowed: \(allowed)")
        }
        let scheme = t[..<colon].lowercased()
        let rest = t[t.index(after: colon)...]
        switch scheme {
        case "http", "https":
            guard let c = URLComponents(string: t), let host = c.host, !host.isEmpty, rest.hasPrefix("//") else {
                throw DesignError("'\(printable(t))' is not a link with a host; allowed: \(allowed)")
            }
            return t
        case "weaver":
            guard !rest.isEmpty, !rest.hasPrefix("-") else {
                throw DesignError("'\(printable(t))' names nothing after 'weaver:'; allowed: \(allowed)")
            }
            return t
        default:
            throw DesignError(
                """
                '\(printable(String(t.prefix(80))))' uses the scheme '\(printable(String(scheme.prefix(20))))', \
                which a button may not open; allowed: \(allowed)
                """
            )
        }
    }

    static func printable(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
