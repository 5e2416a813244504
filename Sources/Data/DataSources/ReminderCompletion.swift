import CivilDates
import Foundation
import ICalendar
import SharedStore
import Snapshots
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Completes one reminder in its file, as a tap on the widget's row asks: only the item's own
/// lines change, every other byte stays; the write is atomic and keeps the file's mode; a
/// symbolic link's target is written (the link stays a link). Refused, with nothing written,
/// when the snapshot is stale or its last refresh failed, when the source is an address, or
/// when the file's bytes no longer hash to what the snapshot was made from (an edit since then
/// would otherwise be lost).
public struct ReminderCompletion: Sendable {
    public var service: RemindersService

    public init(service: RemindersService) { self.service = service }

    public struct Outcome: Sendable, Equatable {
        public var message: String
        /// The file written (the link's target for a symbolic link).
        public var writtenPath: String
        /// What `undo` needs to put the file back.
        public var undo: Undo
    }

    /// A completion as `undo` takes it back: the file written, its bytes from before and the hash of
    /// the bytes written.
    public struct Undo: Sendable, Equatable {
        /// The reminder's title, for messages.
        public var title: String
        var sourceID: String
        var path: String
        var before: Data
        var writtenSHA256: String
    }

    /// - Parameters:
    ///   - itemID: the item's `SOURCE:LINE` id (the row's `reminderID`).
    ///   - now: the completion time written (todo.txt: its local date; iCalendar: UTC).
    public func complete(_ itemID: String, now: Date = Date(), timeZone: TimeZone = .current) throws -> Outcome {
        let lock = FileLock(root: service.root, name: "reminders-complete")
        return try lock.withLock { try completeLocked(itemID, now: now, timeZone: timeZone) }
    }

    /// Writes back the file's bytes from before `completion`, only while the file still holds exactly
    /// what the completion wrote; otherwise throws, writing nothing (an edit made since, or a later
    /// completion, would be lost). The snapshot follows the file, as after a completion.
    /// - Returns: what was done, for the user.
    public func undo(_ completion: Undo, now: Date = Date(), timeZone: TimeZone = .current) throws -> String {
        let lock = FileLock(root: service.root, name: "reminders-complete")
        return try lock.withLock {
            let url = URL(fileURLWithPath: completion.path)
            let current = try FileSystem.read(url, limit: fileLimit)
            guard let current, SHA256.hex(current) == completion.writtenSHA256 else {
                let what = current == nil ? "no longer exists" : "changed since it was completed"
                throw DataSourceError(
                    """
                    '\(completion.title)' was not reopened: \(completion.path) \(what), and nothing was written (so \
                    no edit is lost)
                    """
                )
            }
            try Self.write(completion.before, to: completion.path)
            // The file is back from here on: a snapshot that cannot follow it is said, not thrown (a
            // throw would read "Not undone" for an Undo that was done).
            if var snapshot = try? loadSnapshot(), let source = snapshot.source(completion.sourceID) {
                do {
                    try follow(&snapshot, source: source, data: completion.before, now: now, timeZone: timeZone)
                } catch {
                    return """
                        Reopened '\(completion.title)'; the widget shows it after 'weaver reminders refresh' \
                        (the snapshot was not updated: \(error))
                        """
                }
            }
            return "Reopened '\(completion.title)'."
        }
    }

    /// The largest reminders file read (todo.txt or iCalendar).
    var fileLimit: Int { max(service.limits.maxFileBytes, service.todoLimits.maxFileBytes) }

    /// Replaces the file at `path` atomically, keeping its mode.
    static func write(_ data: Data, to path: String) throws {
        var st = stat()
        let mode: mode_t = stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0o600
        try FileSystem.atomicWrite(data, to: URL(fileURLWithPath: path), mode: mode)
    }

    func loadSnapshot() throws -> RemindersSnapshot {
        if let problem = SnapshotReader.problem(.reminders, in: service.root) {
            throw DataSourceError(
                """
                \(RemindersService.snapshotURL(in: service.root).path) could not be read (\(problem)); run 'weaver \
                reminders refresh'
                """
            )
        }
        guard let s = RemindersSnapshot.load(from: service.root) else {
            throw DataSourceError("no reminders snapshot yet; run 'weaver reminders refresh' first")
        }
        return s
    }

    func completeLocked(_ itemID: String, now: Date, timeZone: TimeZone) throws -> Outcome {
        var snapshot = try loadSnapshot()
        guard let item = snapshot.items.first(where: { $0.id == itemID }) else {
            throw DataSourceError("no reminder '\(itemID.prefix(80))' in the snapshot; run 'weaver reminders refresh'")
        }
        if let why = snapshot.completionBlocked(item, at: now) {
            throw DataSourceError("'\(item.title)' was not completed: \(why)")
        }
        let source = snapshot.source(item.source)!
        guard let line = Int(itemID.split(separator: ":").last ?? ""), line >= 1 else {
            throw DataSourceError("'\(itemID.prefix(80))' is not a reminder id (SOURCE:LINE)")
        }
        let target = try Self.resolvedPath(source.location)
        guard let data = try FileSystem.read(URL(fileURLWithPath: target), limit: fileLimit) else {
            throw DataSourceError("'\(item.title)' was not completed: \(source.location) no longer exists")
        }
        guard SHA256.hex(data) == source.contentSHA256 else {
            throw DataSourceError(
                """
                '\(item.title)' was not completed: \(source.location) changed since the last refresh, and nothing \
                was written (so no edit is lost); run 'weaver reminders refresh' and try again
                """
            )
        }
        let edited: (data: Data, message: String)
        switch source.kind {
        case .todoTxt:
            edited = try Self.completeTodoTxt(
                data, line: line, title: item.title, now: now, timeZone: timeZone, limits: service.todoLimits)
        case .iCalendar:
            edited = try Self.completeTask(
                data, line: line, uid: item.uid, now: now, timeZone: timeZone, limits: service.limits)
        }
        try Self.write(edited.data, to: target)
        try follow(&snapshot, source: source, data: edited.data, now: now, timeZone: timeZone)
        let undo = Undo(
            title: item.title, sourceID: source.id, path: target, before: data,
            writtenSHA256: SHA256.hex(edited.data))
        return Outcome(message: edited.message, writtenPath: target, undo: undo)
    }

    /// The snapshot follows the file: this source's items and hash are read again from the bytes
    /// written, so the next press is checked against them.
    func follow(
        _ snapshot: inout RemindersSnapshot, source: RemindersSnapshot.Source, data: Data, now: Date,
        timeZone: TimeZone
    ) throws {
        let entry = ReminderSources.Entry(
            id: source.id, name: source.name, kind: source.kind, source: source.location, addedAt: now)
        if let reading = try? service.read(
            data, kind: source.kind, sourceID: source.id, sourceName: source.name,
            label: source.location, timeZone: TimeZone(identifier: snapshot.timeZone) ?? timeZone)
        {
            let others = snapshot.items.filter { $0.source != source.id }
            // Keep the snapshot's order for the other sources; this one's items replace its own.
            let position = snapshot.items.firstIndex { $0.source == source.id } ?? others.count
            var merged = others
            merged.insert(contentsOf: reading.items, at: min(position, merged.count))
            snapshot.items = RemindersService.capped(merged)
            if let i = snapshot.sources.firstIndex(where: { $0.id == entry.id }) {
                snapshot.sources[i].contentSHA256 = SHA256.hex(data)
                snapshot.sources[i].itemCount = reading.itemCount
            }
            try service.write(snapshot)
        }
    }

    /// The file a path names after following symbolic links (the link's target is what is
    /// written; replacing the link itself by a file would cut it from its target).
    static func resolvedPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw DataSourceError("\(path): \(SystemCallError.reason(errno))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: - todo.txt

    /// `x DATE ` goes in front; a priority `(A) ` becomes `pri:A` at the end (the format's
    /// convention, so un-completing can restore it); nothing else on the line changes.
    static func completeTodoTxt(
        _ data: Data, line: Int, title: String, now: Date, timeZone: TimeZone, limits: TodoTxtLimits
    ) throws -> (Data, String) {
        let file = try TodoTxtFile.parse(data, limits: limits)
        guard let item = file.items.first(where: { $0.line == line }) else {
            throw DataSourceError("line \(line) of the todo.txt file is not a task")
        }
        guard !item.isDone else { throw DataSourceError("'\(item.title)' is already done") }
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        let p = c.dateComponents([.year, .month, .day], from: now)
        let today = String(format: "%04d-%02d-%02d", p.year ?? 0, p.month ?? 0, p.day ?? 0)
        var text = Substring(item.text)
        var suffix = ""
        if let pri = item.priority, text.hasPrefix("(\(pri)) ") {
            text = text.dropFirst(4)
            suffix = " pri:\(pri)"
        }
        let newLine = "x \(today) " + text + suffix
        var bytes = [UInt8](data)
        bytes.replaceSubrange(item.byteRange, with: Array(newLine.utf8))
        return (Data(bytes), "Completed '\(item.title)' (line \(line)).")
    }

    // MARK: - iCalendar

    /// A physical line: where it starts, where its text ends, where the next line starts.
    struct PhysicalLine {
        var start: Int
        var textEnd: Int
        var next: Int
    }

    /// Lines split as the iCalendar parser counts them (CRLF, LF or a bare CR end a line).
    static func physicalLines(_ b: [UInt8]) -> [PhysicalLine] {
        var lines: [PhysicalLine] = []
        var i = 0
        var start = 0
        while i < b.count {
            if b[i] == 13 || b[i] == 10 {
                let end = i
                i += (b[i] == 13 && i + 1 < b.count && b[i + 1] == 10) ? 2 : 1
                lines.append(PhysicalLine(start: start, textEnd: end, next: i))
                start = i
            } else {
                i += 1
            }
        }
        if start < b.count { lines.append(PhysicalLine(start: start, textEnd: b.count, next: b.count)) }
        return lines
    }

    /// STATUS:COMPLETED, COMPLETED:<now, UTC> and PERCENT-COMPLETE:100 replace the task's own
    /// lines for those properties (in place) or go before its END:VTODO; a repeating task's
    /// DTSTART and DUE move to the next instance instead (`TaskItem.advance`) and the task stays
    /// open. Every other byte is kept.
    static func completeTask(
        _ data: Data, line: Int, uid: String?, now: Date, timeZone: TimeZone, limits: ICalendarLimits
    ) throws -> (Data, String) {
        let b = [UInt8](data)
        let lines = physicalLines(b)
        // The parser skips a byte-order mark; line numbers are the same either way.
        func text(_ l: PhysicalLine) -> String {
            var s = l.start
            if s == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { s = 3 }
            return String(decoding: b[s..<max(s, l.textEnd)], as: UTF8.self)
        }
        guard line <= lines.count,
            text(lines[line - 1]).trimmingCharacters(in: .whitespaces).uppercased() == "BEGIN:VTODO"
        else {
            throw DataSourceError("line \(line) does not begin a task (BEGIN:VTODO)")
        }
        // The task's own properties: name → (first physical line, last physical line), at its depth.
        var spans: [(name: String, first: Int, last: Int, text: String)] = []
        var depth = 0
        var endLine: Int?
        var index = line  // 0-based index of the line after BEGIN
        while index < lines.count {
            let t = text(lines[index])
            if t.first == " " || t.first == "\t" {
                if depth == 0, !spans.isEmpty, spans[spans.count - 1].last == index - 1 {
                    spans[spans.count - 1].last = index
                    spans[spans.count - 1].text += t.dropFirst()
                }
                index += 1
                continue
            }
            let upper = t.uppercased()
            if upper.hasPrefix("BEGIN:") {
                depth += 1
            } else if upper.hasPrefix("END:") {
                if depth == 0 {
                    guard upper.trimmingCharacters(in: .whitespaces) == "END:VTODO" else {
                        throw DataSourceError(
                            "the task at line \(line) ends with \(t.prefix(40)), not END:VTODO; not changed")
                    }
                    endLine = index
                    break
                }
                depth -= 1
            } else if depth == 0 {
                let name = String(upper.prefix { $0 != ";" && $0 != ":" })
                spans.append((name, index, index, t))
            }
            index += 1
        }
        guard let endLine else { throw DataSourceError("the task at line \(line) has no END:VTODO; not changed") }
        if let uid, !uid.hasPrefix("line-") {
            let fileUID = spans.first { $0.name == "UID" }.map {
                value(of: $0.text).trimmingCharacters(in: .whitespaces)
            }
            guard fileUID == uid else {
                throw DataSourceError("the task at line \(line) is not '\(uid.prefix(60))'; not changed")
            }
        }
        // New lines end as the task's BEGIN line does (CRLF as RFC 5545 says, or the file's LF).
        let eol = Array(b[lines[line - 1].textEnd..<lines[line - 1].next])
        let title = spans.first { $0.name == "SUMMARY" }.map { Property.unescapeText(value(of: $0.text)) } ?? "the task"

        // A repeating task moves on to its next due date (as Thunderbird and tasks.org do).
        let doc = try ICalendarDocument.parse(data, limits: limits)
        let task = TaskReader(limits: limits, localZone: timeZone).tasks(in: doc).tasks.first { $0.line == line }
        var replacements: [(first: Int, last: Int, text: String?)] = []
        var appended: [String] = []
        var message: String
        if let task, let advance = task.advance {
            // Only this instance is done: DTSTART and DUE move on together (RFC 5545's recurrence
            // set), so every later instance keeps its length; a rule with COUNT counts what is left.
            func replace(_ name: String, _ v: DateValue?) {
                guard let v, let span = spans.first(where: { $0.name == name }) else { return }
                replacements.append((span.first, span.last, String(span.text[..<valueStart(span.text)]) + format(v)))
            }
            replace("DTSTART", advance.start)
            replace("DUE", advance.due)
            for rewrite in advance.rules {
                guard let span = spans.first(where: { $0.name == "RRULE" && $0.first + 1 == rewrite.line }) else {
                    continue
                }
                replacements.append(
                    (span.first, span.last, String(span.text[..<valueStart(span.text)]) + rewrite.value))
            }
            if let next = task.nextDue ?? advance.due {
                message = "Completed '\(title)'; it repeats, next due \(format(next))."
            } else {
                message = "Completed '\(title)'; it repeats, next on \(advance.start.map(format) ?? "its next date")."
            }
        } else {
            let stamp = format(.utc(CivilTime.fromLocalSeconds(Int(now.timeIntervalSince1970.rounded(.down)))))
            let wanted: [(String, String)] = [
                ("STATUS", "STATUS:COMPLETED"), ("COMPLETED", "COMPLETED:\(stamp)"),
                ("PERCENT-COMPLETE", "PERCENT-COMPLETE:100"),
            ]
            for (name, newText) in wanted {
                let existing = spans.filter { $0.name == name }
                if let first = existing.first {
                    replacements.append((first.first, first.last, newText))
                    for extra in existing.dropFirst() { replacements.append((extra.first, extra.last, nil)) }
                } else {
                    appended.append(newText)
                }
            }
            message = "Completed '\(title)' (line \(line))."
        }
        // Rebuild: untouched lines byte for byte, replaced properties as one line each.
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 128)
        var cursor = 0
        for r in replacements.sorted(by: { $0.first < $1.first }) {
            out += b[cursor..<lines[r.first].start]
            if let t = r.text { out += Array(t.utf8) + b[lines[r.last].textEnd..<lines[r.last].next] }
            cursor = lines[r.last].next
        }
        out += b[cursor..<lines[endLine].start]
        for t in appended { out += Array(t.utf8) + eol }
        out += b[lines[endLine].start...]
        return (Data(out), message)
    }

    /// Where a content line's value starts: after the first ':' outside a quoted parameter.
    static func valueStart(_ line: String) -> String.Index {
        var quoted = false
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == "\"" { quoted.toggle() } else if c == ":" && !quoted { return line.index(after: i) }
            i = line.index(after: i)
        }
        return line.endIndex
    }

    static func value(of line: String) -> String { String(line[valueStart(line)...]) }

    static func format(_ v: DateValue) -> String {
        let l = v.local
        let day = String(format: "%04d%02d%02d", l.year, l.month, l.day)
        switch v {
        case .date: return day
        case .utc: return day + String(format: "T%02d%02d%02dZ", l.hour, l.minute, l.second)
        case .zoned, .floating: return day + String(format: "T%02d%02d%02d", l.hour, l.minute, l.second)
        }
    }
}
