import Foundation

/// Markup that is already HTML: a rendered template, or several joined. Text becomes `HTML` only by
/// going through a template (which escapes it) or `Page.escape`, so user data is never pasted in raw.
struct HTML: Sendable, CustomStringConvertible {
    let description: String

    fileprivate init(trusted: String) { description = trusted }

    static let empty = HTML(trusted: "")

    /// A page body built before templates did it (the pages not yet moved to their HTML files); their
    /// builders escape what they insert.
    init(trustedBody: String) { description = trustedBody }

    /// Several pieces of markup one after another.
    init(joining parts: some Sequence<HTML>) {
        description = parts.map(\.description).joined()
    }
}

/// What a template's `{{name}}` hole takes: text (escaped), a number, or `HTML` (inserted as it is).
protocol HTMLValue {
    var html: String { get }
}

extension String: HTMLValue {
    var html: String { Page.escape(self) }
}

extension Int: HTMLValue {
    var html: String { String(self) }
}

extension HTML: HTMLValue {
    var html: String { description }
}

extension Array: HTMLValue where Element == HTML {
    var html: String { map(\.description).joined() }
}

/// The fragments of one page's HTML file under `Resources/` (`<!-- @fragment NAME -->` starts each; the text up
/// to the next such line is the fragment; `<!-- @inline NAME -->` starts one without its last newline, a piece
/// of a line). `{{name}}` is a hole for a value, escaped unless it is `HTML`. A hole
/// alone on its line whose value is empty or ends a line itself takes the line's newline too, so lists compose
/// without blank lines.
struct HTMLTemplates: Sendable {
    private enum Part: Sendable {
        case text(String)
        case hole(String)
    }

    private let fragments: [String: [Part]]
    private let file: String

    init(_ bytes: [UInt8], file: String) {
        self.file = file
        var fragments: [String: [Part]] = [:]
        var name: String?
        var body = ""
        var inline = false
        func finish() {
            guard let name else { return }
            precondition(fragments[name] == nil, "\(file) has two fragments named '\(name)'")
            fragments[name] = Self.parts(inline ? String(body.dropLast()) : body)
        }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }  // the file's own last newline ends its last line
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let marker = ["<!-- @fragment ", "<!-- @inline "].first(where: { trimmed.hasPrefix($0) }),
                trimmed.hasSuffix(" -->")
            {
                finish()
                name = String(trimmed.dropFirst(marker.count).dropLast(" -->".count))
                inline = marker == "<!-- @inline "
                body = ""
            } else if name != nil {
                body += line + "\n"
            }
        }
        finish()
        self.fragments = fragments
    }

    private static func parts(_ text: String) -> [Part] {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            parts.append(.text(String(rest[..<open.lowerBound])))
            parts.append(.hole(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        parts.append(.text(String(rest)))
        return parts
    }

    /// Whether the file has a fragment `name` (for optional pieces, such as a sound's own icon).
    func has(_ name: String) -> Bool { fragments[name] != nil }

    /// The fragment `name` with its holes filled. A hole without a value, or a value without a hole, is a
    /// mistake in this program, not in the request: it stops here, where the tests see it.
    func render(_ name: String, _ values: [String: any HTMLValue] = [:]) -> HTML {
        guard let parts = fragments[name] else { preconditionFailure("\(file) has no fragment '\(name)'") }
        var out = ""
        var swallowNewline = false
        var used: Set<String> = []
        for part in parts {
            switch part {
            case .text(let text):
                out += swallowNewline && text.hasPrefix("\n") ? String(text.dropFirst()) : text
                swallowNewline = false
            case .hole(let key):
                guard let value = values[key] else { preconditionFailure("\(file) '\(name)': no value for {{\(key)}}") }
                let html = value.html
                let atLineStart = out.isEmpty || out.hasSuffix("\n")
                out += html
                swallowNewline = atLineStart && (html.isEmpty || html.hasSuffix("\n"))
                used.insert(key)
            }
        }
        precondition(used.isSuperset(of: values.keys), "\(file) '\(name)': a value for a hole it does not have")
        return HTML(trusted: out)
    }
}
