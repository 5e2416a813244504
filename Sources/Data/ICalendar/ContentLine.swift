import Foundation

/// One unfolded content line: `NAME;PARAM=VALUE;...:value` (RFC 5545 §3.1).
public struct Property: Sendable, Equatable {
    /// Upper-cased.
    public var name: String
    /// Parameter names upper-cased; values unquoted. Multi-valued parameters keep the commas.
    public var parameters: [String: String]
    /// The raw value (TEXT escapes not yet undone).
    public var value: String
    /// 1-based line of the file where the property starts.
    public var line: Int

    public func parameter(_ name: String) -> String? { parameters[name] }

    /// The value as TEXT: `\n`/`\N` → newline, `\,` `\;` `\\` → the character.
    public var text: String { Property.unescapeText(value) }

    public static func unescapeText(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = ""
        var escaping = false
        for c in s {
            if escaping {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

/// A problem the parser worked around; the file still counts.
public struct ICalendarWarning: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// A file that cannot be read as a calendar, with the line and the reason.
public struct ICalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var message: String
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Splits a file into unfolded content lines. Folding (CRLF or LF followed by a space or tab)
/// is undone; bare CR is accepted as a line end too. Each line is bounded while it is gathered,
/// so a 10 MB line costs a scan, not a 10 MB string.
enum ContentLines {
    static func unfold(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: ICalendarLimits,
        warnings: inout [ICalendarWarning], body: (_ line: Int, _ bytes: ArraySlice<UInt8>) throws -> Void
    ) rethrows {
        var current: [UInt8] = []
        current.reserveCapacity(256)
        var currentLine = 1
        var physicalLine = 1
        var overLong = false
        var i = 0
        let n = bytes.count
        // Skip a UTF-8 byte-order mark.
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        func flush() throws {
            if overLong {
                let name = String(
                    decoding: current.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ":") }.prefix(64),
                    as: UTF8.self)
                warnings.append(
                    ICalendarWarning(
                        line: currentLine,
                        message: "property \(name) is longer than \(limits.maxLineBytes) bytes; skipped"))
            } else if !current.isEmpty {
                try body(currentLine, current[...])
            }
            current.removeAll(keepingCapacity: true)
            overLong = false
        }
        while i < n {
            let b = bytes[i]
            if b == 0x0D || b == 0x0A {
                // A line end: CRLF, LF or CR.
                i += (b == 0x0D && i + 1 < n && bytes[i + 1] == 0x0A) ? 2 : 1
                physicalLine += 1
                if i < n && (bytes[i] == 0x20 || bytes[i] == 0x09) {
                    i += 1  // folded: the next physical line continues this one
                    continue
                }
                try flush()
                currentLine = physicalLine
                continue
            }
            if !overLong {
                if current.count >= limits.maxLineBytes {
                    overLong = true
                    // Keep the name for the warning only.
                    current.removeSubrange(min(current.count, 64)...)
                } else {
                    current.append(b)
                }
            }
            i += 1
        }
        try flush()
    }

    /// `NAME;P=V;Q="a:b":value`. Returns nil for a line with no colon (ignored with a warning).
    static func parse(_ bytes: ArraySlice<UInt8>, line: Int) -> Property? {
        let text = String(decoding: bytes, as: UTF8.self)
        var name = ""
        var parameters: [String: String] = [:]
        var index = text.startIndex
        // Name: up to ';' or ':'.
        while index < text.endIndex, text[index] != ";", text[index] != ":" { index = text.index(after: index) }
        name = text[text.startIndex..<index].uppercased()
        guard !name.isEmpty, index < text.endIndex else { return nil }
        while index < text.endIndex, text[index] == ";" {
            index = text.index(after: index)
            let keyStart = index
            while index < text.endIndex, text[index] != "=", text[index] != ":", text[index] != ";" {
                index = text.index(after: index)
            }
            let key = text[keyStart..<index].uppercased()
            var value = ""
            if index < text.endIndex, text[index] == "=" {
                index = text.index(after: index)
                // Values: comma-separated, each plain or "quoted" (quoted ones may hold ; : ,).
                while index < text.endIndex {
                    if text[index] == "\"" {
                        index = text.index(after: index)
                        let start = index
                        while index < text.endIndex, text[index] != "\"" { index = text.index(after: index) }
                        value += text[start..<index]
                        if index < text.endIndex { index = text.index(after: index) }
                    } else {
                        let start = index
                        while index < text.endIndex, text[index] != ",", text[index] != ";", text[index] != ":" {
                            index = text.index(after: index)
                        }
                        value += text[start..<index]
                    }
                    if index < text.endIndex, text[index] == "," {
                        value += ","
                        index = text.index(after: index)
                    } else {
                        break
                    }
                }
            }
            if !key.isEmpty { parameters[key] = value }
        }
        guard index < text.endIndex, text[index] == ":" else { return nil }
        return Property(
            name: name, parameters: parameters, value: String(text[text.index(after: index)...]), line: line)
    }
}
