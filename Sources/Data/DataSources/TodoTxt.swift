import Foundation
import SharedStore
import SizeLimits

/// One task line of a todo.txt file (the format of todotxt.org: `x ` done, `(A) ` priority,
/// completion and creation dates, `+project`, `@context`, `key:value` extensions such as
/// `due:2026-01-24`). Where it sits in the file is kept, so completing it changes only its bytes.
public struct TodoTxtItem: Sendable, Equatable {
    /// 1-based line number.
    public var line: Int
    /// The bytes of the line in the file, without its line end (`\n` or `\r\n`).
    public var byteRange: Range<Int>
    /// The line as written.
    public var text: String
    public var isDone: Bool
    /// `A`…`Z`: the `(A) ` prefix of an open task, or the `pri:A` a done task keeps.
    public var priority: Character?
    public var completionDate: String?
    public var creationDate: String?
    /// The description without the dates, the priority, `+project`, `@context` and `key:value`
    /// tokens; the whole description when nothing else is left.
    public var title: String
    public var projects: [String]
    public var contexts: [String]
    /// `due:YYYY-MM-DD`, when it is a real date.
    public var dueDate: String?
    /// Other `key:value` tokens, in order (`t:`, `rec:`, `pri:` and the like).
    public var extensions: [(key: String, value: String)]

    /// RFC 5545's scale (1 highest … 9 lowest; 0 none): A–D are 1–4 (what the Priority mode
    /// counts, as the app counts iCalendar's 1–4), E–H 5–8, the rest of the alphabet 9.
    public var priorityNumber: Int {
        guard let p = priority, let a = p.asciiValue else { return 0 }
        return min(9, Int(a) - 64)
    }

    public static func == (a: TodoTxtItem, b: TodoTxtItem) -> Bool {
        a.line == b.line && a.byteRange == b.byteRange && a.text == b.text && a.isDone == b.isDone
            && a.priority == b.priority
            && a.completionDate == b.completionDate && a.creationDate == b.creationDate && a.title == b.title
            && a.projects == b.projects && a.contexts == b.contexts && a.dueDate == b.dueDate
            && a.extensions.map(\.key) == b.extensions.map(\.key)
            && a.extensions.map(\.value) == b.extensions.map(\.value)
    }
}

/// Bounds on what an untrusted todo.txt file can make the reader do.
public struct TodoTxtLimits: Sendable, Equatable {
    public var maxFileBytes = 8 << 20
    /// Longer lines are skipped with a warning (and never completed from the widget).
    public var maxLineBytes = 16 << 10
    /// Task lines read; the rest are counted.
    public var maxItems = 20_000
    public init() {}
}

/// A todo.txt file read into items, with what was worked around.
public struct TodoTxtFile: Sendable {
    public var items: [TodoTxtItem]
    /// "line N: why", for lines skipped (too long, not UTF-8) and values ignored (a bad due date).
    public var warnings: [String]
    /// Task lines in the file, including ones past the item limit.
    public var lineCount: Int

    /// Reads `data` as todo.txt. Throws only for a file over the size limit or one that is not
    /// text (NUL bytes: a binary file given by mistake); blank lines are skipped.
    public static func parse(_ data: Data, limits: TodoTxtLimits = TodoTxtLimits()) throws -> TodoTxtFile {
        guard data.count <= limits.maxFileBytes else {
            throw DataSourceError(
                "the file is \(SizeLimit(bytes: limits.maxFileBytes).exceeded(by: data.count)) for a todo.txt file")
        }
        let bytes = [UInt8](data)
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            throw DataSourceError("line \(line): a NUL byte; this is not a todo.txt (text) file")
        }
        var items: [TodoTxtItem] = []
        var warnings: [String] = []
        var count = 0
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            var contentEnd = end
            if contentEnd > start && bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
            defer { start = end + 1 }
            let slice = bytes[start..<contentEnd]
            if slice.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            count += 1
            guard slice.count <= limits.maxLineBytes else {
                if warnings.count < 100 {
                    warnings.append(
                        "line \(lineNumber): \(slice.count) bytes, longer than \(limits.maxLineBytes); skipped")
                }
                continue
            }
            guard let text = String(validating: slice, as: UTF8.self) else {
                if warnings.count < 100 { warnings.append("line \(lineNumber): not UTF-8 text; skipped") }
                continue
            }
            guard items.count < limits.maxItems else { continue }
            items.append(parseLine(text, line: lineNumber, byteRange: start..<contentEnd, warnings: &warnings))
        }
        if count > limits.maxItems { warnings.append("\(count) tasks; only the first \(limits.maxItems) are read") }
        return TodoTxtFile(items: items, warnings: warnings, lineCount: count)
    }

    /// `YYYY-MM-DD` that names a real day.
    static func isDate(_ s: Substring) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 10, u[4] == 45, u[7] == 45 else { return false }
        func n(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r {
                guard u[i] >= 48 && u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let y = n(0..<4), let m = n(5..<7), let d = n(8..<10), (1...12).contains(m), d >= 1 else { return false }
        let days = [31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= days[m - 1]
    }

    static func parseLine(_ text: String, line: Int, byteRange: Range<Int>, warnings: inout [String]) -> TodoTxtItem {
        var rest = Substring(text)
        var item = TodoTxtItem(
            line: line, byteRange: byteRange, text: text, isDone: false, priority: nil, completionDate: nil,
            creationDate: nil, title: "", projects: [], contexts: [], dueDate: nil, extensions: [])
        func takeWord() -> Substring? {
            guard let space = rest.firstIndex(of: " ") else { return nil }
            return rest[..<space]
        }
        func drop(_ word: Substring) { rest = rest[word.endIndex...].drop { $0 == " " } }
        if rest.hasPrefix("x ") {
            item.isDone = true
            rest = rest.dropFirst(2).drop { $0 == " " }
            if let w = takeWord(), isDate(w) {
                item.completionDate = String(w)
                drop(w)
                if let c = takeWord(), isDate(c) {
                    item.creationDate = String(c)
                    drop(c)
                }
            }
        } else {
            let u = Array(rest.utf8.prefix(4))
            if u.count == 4, u[0] == 40, u[1] >= 65, u[1] <= 90, u[2] == 41, u[3] == 32 {
                item.priority = Character(Unicode.Scalar(u[1]))
                rest = rest.dropFirst(4).drop { $0 == " " }
            }
            if let c = takeWord(), isDate(c) {
                item.creationDate = String(c)
                drop(c)
            }
        }
        var words: [Substring] = []
        for word in rest.split(separator: " ", omittingEmptySubsequences: true) {
            if word.count > 1, word.first == "+" {
                item.projects.append(String(word.dropFirst()))
                continue
            }
            if word.count > 1, word.first == "@" {
                item.contexts.append(String(word.dropFirst()))
                continue
            }
            if let colon = word.firstIndex(of: ":"), colon != word.startIndex,
                word.index(after: colon) != word.endIndex,
                !word[word.index(after: colon)...].contains(":"), !word[word.index(after: colon)...].hasPrefix("//")
            {
                let key = String(word[..<colon]), value = String(word[word.index(after: colon)...])
                if key == "due" {
                    if isDate(Substring(value)) {
                        item.dueDate = value
                    } else {
                        if warnings.count < 100 {
                            warnings.append("line \(line): due:\(value.prefix(20)) is not a YYYY-MM-DD date; ignored")
                        }
                    }
                } else if key == "pri", item.isDone, value.count == 1, let c = value.first, c.isASCII, c.isUppercase {
                    item.priority = c
                } else {
                    item.extensions.append((key, value))
                }
                continue
            }
            words.append(word)
        }
        let title = words.joined(separator: " ")
        item.title = String((title.isEmpty ? rest.trimmingCharacters(in: .whitespaces) : title).prefix(500))
        return item
    }
}
