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

    public init(_ source: String) {
        var parts: [Part] = []
        let utf8 = source.utf8
        var literalStart = utf8.startIndex
        var i = utf8.startIndex
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        while i < utf8.endIndex {
            guard utf8[i] == open, let next = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex),
                  next < utf8.endIndex, utf8[next] == open else {
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
                    if k < utf8.endIndex, utf8[k] == close { contentEnd = j; break }
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
    public init(parsing content: Substring) {
        let body = content.drop(while: { $0 == " " || $0 == "\t" })
        let isMaths = body.first == "="
        let baseEnd: Substring.Index
        if isMaths {
            baseEnd = Self.firstPipeOutsideQuotes(body) ?? body.endIndex
            base = .maths(String(body[body.index(after: body.startIndex)..<baseEnd]))
        } else {
            baseEnd = content.firstIndex(of: "|") ?? content.endIndex
            base = .key(KeyCanonicaliser.canonical(content[content.startIndex..<baseEnd]))
        }
        fallback = nil
        filters = []
        guard baseEnd < content.endIndex else { return }
        let rest = content[content.index(after: baseEnd)...]  // after the first "|"
        let filterText: Substring?
        if rest.first == "|" {
            filterText = rest.dropFirst()
        } else if let delimiter = Self.firstDoublePipe(rest) {
            fallback = String(rest[..<delimiter])
            filterText = rest[rest.index(delimiter, offsetBy: 2)...]
        } else if let pipe = rest.firstIndex(of: "|") {
            fallback = String(rest[..<pipe])
            filterText = rest[rest.index(after: pipe)...]
        } else {
            fallback = String(rest)
            filterText = nil
        }
        if let filterText {
            for piece in filterText.split(separator: "|") {
                let filter = Filter(parsing: piece)
                // Ignored filters change nothing, so they are dropped here, not skipped per render.
                if filter != .ignored { filters.append(filter) }
            }
        }
    }

    static func firstDoublePipe(_ text: Substring) -> Substring.Index? {
        var i = text.startIndex
        while let pipe = text[i...].firstIndex(of: "|") {
            let next = text.index(after: pipe)
            if next < text.endIndex, text[next] == "|" { return pipe }
            i = next
        }
        return nil
    }

    static func firstPipeOutsideQuotes(_ text: Substring) -> Substring.Index? {
        var quote: Character? = nil
        var i = text.startIndex
        while i < text.endIndex {
            let ch = text[i]
            if let q = quote {
                if ch == q { quote = nil }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch == "|" {
                return i
            }
            i = text.index(after: i)
        }
        return nil
    }
}
