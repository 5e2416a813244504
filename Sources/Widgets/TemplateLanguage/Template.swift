/// A parsed template: literal text and `{{...}}` tokens. Parse once, render many times.
///
/// Token grammar (inside `{{` and the first following `}}`):
/// ```
/// token    := base [ "|" fallback ] [ "||" filters ]     (explicit delimiter)
///           | base [ "|" fallback [ "|" filters ] ]       (without "||")
/// base     := key | "=" expression
/// filters  := filter ("|" filter)*
/// ```
/// - With `||`, everything between the first `|` and the first `||` is the fallback, so it may
///   contain `|`. Without `||`, the second segment is the fallback and the rest are filters:
///   `{{key|a|b}}` is key `key`, fallback `a`, filter `b`.
/// - An expression ends at the first `|` outside quotes (`var("a|b")` works).
/// - A `{{` with no closing `}}` is literal text. Values are never re-parsed as templates.
public struct Template: Sendable {
    public enum Part: Sendable, Equatable {
        case literal(String)
        case token(Token)
    }

    public struct Token: Sendable, Equatable {
        public enum Base: Sendable, Equatable {
            /// A canonical key (see `KeyCanonicaliser`); `""` never resolves.
            case key(String)
            /// An inline maths expression, without its `=`.
            case maths(String)
        }
        public var base: Base
        /// Used verbatim (not trimmed) when the base is missing or empty.
        public var fallback: String?
        public var filters: [Filter]
    }

    public let parts: [Part]

    static let partsReservationLimit = 32

    public init(_ source: String) {
        var parts: [Part] = []
        let utf8 = source.utf8
        // Growing the array one append at a time costs an allocation per doubling; every token
        // brings at most one literal before it. Capped so a hostile template of braces reserves
        // no more than a typical one.
        var opens = 0
        var previousWasOpen = false
        for byte in utf8 {
            let isOpen = byte == UInt8(ascii: "{")
            if isOpen, previousWasOpen {
                opens += 1
                if opens == Self.partsReservationLimit { break }
                previousWasOpen = false
            } else {
                previousWasOpen = isOpen
            }
        }
        parts.reserveCapacity(2 * opens + 1)
        var literalStart = utf8.startIndex
        var i = utf8.startIndex
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        while i < utf8.endIndex {
            guard utf8[i] == open, let next = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex),
                next < utf8.endIndex, utf8[next] == open
            else {
                i = utf8.index(after: i)
                continue
            }
            // Find the first "}}" after the opening braces.
            let contentStart = utf8.index(after: next)
            var j = contentStart
            var contentEnd: String.Index? = nil
            while j < utf8.endIndex {
                if utf8[j] == close {
                    let k = utf8.index(after: j)
                    if k < utf8.endIndex, utf8[k] == close {
                        contentEnd = j
                        break
                    }
                }
                j = utf8.index(after: j)
            }
            guard let contentEnd else { break }  // unterminated: the rest is literal
            if literalStart < i { parts.append(.literal(String(source[literalStart..<i]))) }
            parts.append(.token(Token(parsing: source[contentStart..<contentEnd])))
            i = utf8.index(contentEnd, offsetBy: 2)
            literalStart = i
        }
        if literalStart < utf8.endIndex { parts.append(.literal(String(source[literalStart...]))) }
        self.parts = parts
    }
}

extension Template.Token {
    // Scanning works on UTF-8 bytes: `|`, `"`, `'` and `=` are ASCII, so every index found is a
    // character boundary, and byte scanning avoids grapheme breaking (most of the parse time).
    static let pipe = UInt8(ascii: "|")

    public init(parsing content: Substring) {
        let bytes = content.utf8
        var bodyStart = bytes.startIndex
        while bodyStart < bytes.endIndex,
            bytes[bodyStart] == UInt8(ascii: " ") || bytes[bodyStart] == UInt8(ascii: "\t")
        {
            bodyStart = bytes.index(after: bodyStart)
        }
        let isMaths = bodyStart < bytes.endIndex && bytes[bodyStart] == UInt8(ascii: "=")
        let baseEnd: String.Index
        if isMaths {
            let expressionStart = bytes.index(after: bodyStart)
            baseEnd = Self.firstPipeOutsideQuotes(content[expressionStart...]) ?? content.endIndex
            base = .maths(String(content[expressionStart..<baseEnd]))
        } else {
            baseEnd = bytes.firstIndex(of: Self.pipe) ?? content.endIndex
            base = .key(KeyCanonicaliser.canonical(content[content.startIndex..<baseEnd]))
        }
        fallback = nil
        filters = []
        guard baseEnd < content.endIndex else { return }
        let rest = content[bytes.index(after: baseEnd)...]  // after the first "|"
        let restBytes = rest.utf8
        let filterText: Substring?
        if restBytes.first == Self.pipe {
            filterText = rest[restBytes.index(after: restBytes.startIndex)...]
        } else if let delimiter = Self.firstDoublePipe(rest) {
            fallback = String(rest[..<delimiter])
            filterText = rest[restBytes.index(delimiter, offsetBy: 2)...]
        } else if let pipe = restBytes.firstIndex(of: Self.pipe) {
            fallback = String(rest[..<pipe])
            filterText = rest[restBytes.index(after: pipe)...]
        } else {
            fallback = String(rest)
            filterText = nil
        }
        guard let filterText else { return }
        let filterBytes = filterText.utf8
        var pieceStart = filterBytes.startIndex
        while pieceStart <= filterBytes.endIndex {
            let pieceEnd = filterBytes[pieceStart...].firstIndex(of: Self.pipe) ?? filterBytes.endIndex
            if pieceStart < pieceEnd {
                let filter = Filter(parsing: filterText[pieceStart..<pieceEnd])
                // Ignored filters change nothing, so they are dropped here, not skipped per render.
                if filter != .ignored { filters.append(filter) }
            }
            guard pieceEnd < filterBytes.endIndex else { break }
            pieceStart = filterBytes.index(after: pieceEnd)
        }
    }

    static func firstDoublePipe(_ text: Substring) -> String.Index? {
        let bytes = text.utf8
        var i = bytes.startIndex
        while let found = bytes[i...].firstIndex(of: pipe) {
            let next = bytes.index(after: found)
            if next < bytes.endIndex, bytes[next] == pipe { return found }
            i = next
        }
        return nil
    }

    static func firstPipeOutsideQuotes(_ text: Substring) -> String.Index? {
        let bytes = text.utf8
        var quote: UInt8? = nil
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if let q = quote {
                if byte == q { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == pipe {
                return i
            }
            i = bytes.index(after: i)
        }
        return nil
    }
}
