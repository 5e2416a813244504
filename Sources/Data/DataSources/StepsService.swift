import BoundedJSON
import CivilDates
import Foundation
import SharedStore
import SizeLimits
import Snapshots

public struct StepsService: Sendable {
    public var root: StoreRoot
    public static let stepsRange = 0...200_000
    public static let goalRange = 1...200_000
    public static let distanceRange: ClosedRange<Double> = 0...500_000
    public static let activeMinutesRange: ClosedRange<Double> = 0...1_440
    public static let maxFileBytes = 4 << 20
    public static let maxRows = 40_000
    /// Days kept in the history (ten years); older ones are dropped on import.
    public static let maxHistoryDays = 3_660

    public init(root: StoreRoot) { self.root = root }

    var document: JSONDocument<StepsFile> {
        JSONDocument(root: root, url: StepsFile.url(in: root), sizeLimit: SnapshotReader.maximumBytes)
    }

    /// The snapshot as `StepsFile.decodeTolerantly` keeps it: what the `__steps_*` keys read is
    /// never set aside (a strict decode moved a file with fractional steps out of the way).
    public func load() throws -> StepsFile? {
        if case .loaded(let f) = try document.load(decode: StepsFile.decodeTolerantly) { return f }
        return nil
    }

    // MARK: Parsing

    /// A bad row: the file, the line, the field and what is allowed.
    static func fail(_ file: String, _ line: Int, _ field: String?, _ message: String) -> DataSourceError {
        DataSourceError("\(file) line \(line)\(field.map { ", field '\($0)'" } ?? ""): \(message)")
    }

    /// A `yyyy-MM-dd` date of the years an import takes (1900…2999, the range its messages name);
    /// the day number.
    static func dayNumber(_ text: String) -> Int? {
        guard let day = CivilCalendar.dayNumber(text), (1900...2999).contains(Int(text.prefix(4)) ?? 0) else {
            return nil
        }
        return day
    }

    /// `date,steps[,distance_m,active_min]`, with or without a header line (a header may put the
    /// columns in any order). Blank lines and `#` comments are skipped; a field may be quoted.
    public static func parseCSV(_ data: Data, file: String) throws -> [StepsFile.Day] {
        guard data.count <= maxFileBytes else {
            throw DataSourceError("\(file): the file is \(SizeLimit(bytes: maxFileBytes).exceeded(by: data.count))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw DataSourceError("\(file): not UTF-8 text") }
        var columns = ["date": 0, "steps": 1, "distance_m": 2, "active_min": 3]
        var days: [StepsFile.Day] = []
        var seen: [Int: Int] = [:]
        var sawData = false
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated()
        {
            let lineNumber = index + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard line.utf8.count <= 1024 else {
                throw fail(file, lineNumber, nil, "the line is longer than 1024 bytes")
            }
            let fields = splitCSV(line)
            if !sawData && fields.first.map({ dayNumber($0) == nil && $0.lowercased().contains("date") }) == true {
                // Header: known names, in any order.
                columns = [:]
                for (i, f) in fields.enumerated() {
                    let name = f.lowercased().trimmingCharacters(in: .whitespaces)
                    let known = [
                        "date": "date", "day": "date", "steps": "steps", "step_count": "steps",
                        "distance_m": "distance_m",
                        "distance": "distance_m", "active_min": "active_min", "active_minutes": "active_min",
                    ]
                    guard let key = known[name] else {
                        throw fail(
                            file, lineNumber, f, "unknown column; the columns are date, steps, distance_m, active_min")
                    }
                    columns[key] = i
                }
                guard columns["date"] != nil, columns["steps"] != nil else {
                    throw fail(file, lineNumber, nil, "the header must name the 'date' and 'steps' columns")
                }
                sawData = true
                continue
            }
            sawData = true
            guard days.count < maxRows else { throw fail(file, lineNumber, nil, "more than \(maxRows) rows") }
            func field(_ name: String) -> String? {
                guard let i = columns[name], i < fields.count else { return nil }
                let v = fields[i].trimmingCharacters(in: .whitespaces)
                return v.isEmpty ? nil : v
            }
            guard let dateText = field("date") else {
                throw fail(file, lineNumber, "date", "missing; expected yyyy-MM-dd")
            }
            guard let day = dayNumber(dateText) else {
                throw fail(
                    file, lineNumber, "date", "'\(dateText.prefix(40))' is not a date yyyy-MM-dd between 1900 and 2999")
            }
            if let first = seen[day] { throw fail(file, lineNumber, "date", "\(dateText) is already on line \(first)") }
            seen[day] = lineNumber
            guard let stepsText = field("steps") else {
                throw fail(
                    file, lineNumber, "steps",
                    "missing; expected a whole number in \(stepsRange.lowerBound)…\(stepsRange.upperBound)")
            }
            guard let steps = Int(stepsText), stepsRange.contains(steps) else {
                throw fail(
                    file, lineNumber, "steps",
                    """
                    '\(stepsText.prefix(40))' is not a whole number in \
                    \(stepsRange.lowerBound)…\(stepsRange.upperBound)
                    """
                )
            }
            func number(_ name: String, _ range: ClosedRange<Double>) throws -> Double? {
                guard let t = field(name) else { return nil }
                guard let v = Double(t), v.isFinite, range.contains(v) else {
                    throw fail(
                        file, lineNumber, name,
                        """
                        '\(t.prefix(40))' is not a number in \
                        \(JSONValue.formatted(range.lowerBound))…\(JSONValue.formatted(range.upperBound))
                        """
                    )
                }
                return v
            }
            days.append(
                StepsFile.Day(
                    date: dateText, steps: steps, distanceMeters: try number("distance_m", distanceRange),
                    activeMinutes: try number("active_min", activeMinutesRange)))
        }
        guard !days.isEmpty else {
            throw DataSourceError("\(file): no rows (expected lines like 2026-01-24,8532,6120,45)")
        }
        return days
    }

    static func splitCSV(_ line: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false } else { current.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                out.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        out.append(current)
        return out
    }

    /// The snapshot's own JSON (`history` and `today` entries), or a bare array of days.
    public static func parseJSON(_ data: Data, file: String) throws -> (
        days: [StepsFile.Day], goalWeekday: Int?, goalWeekend: Int?
    ) {
        guard data.count <= maxFileBytes else {
            throw DataSourceError("\(file): the file is \(SizeLimit(bytes: maxFileBytes).exceeded(by: data.count))")
        }
        do {
            let root = try JSONReader.parse(data, document: file, maxDepth: 6)
            var entries: [JSONReader] = []
            var goals: (Int?, Int?) = (nil, nil)
            if case .array = root.value {
                entries = try root.array(maxCount: maxRows)
            } else {
                entries = try root.optional("history")?.array(maxCount: maxRows) ?? []
                if let t = try root.optional("today") { entries.append(t) }
                goals.0 = try root.optional("goalWeekday").map {
                    Int(try $0.number(in: Double(goalRange.lowerBound)...Double(goalRange.upperBound)))
                }
                goals.1 = try root.optional("goalWeekend").map {
                    Int(try $0.number(in: Double(goalRange.lowerBound)...Double(goalRange.upperBound)))
                }
            }
            var days: [StepsFile.Day] = []
            var seen: Set<Int> = []
            for e in entries {
                let dateField = try e.required("date")
                let date = try dateField.string(maxBytes: 10)
                guard let n = dayNumber(date) else { throw dateField.fail("'\(date)' is not a date yyyy-MM-dd") }
                guard seen.insert(n).inserted else { throw dateField.fail("\(date) appears twice") }
                let stepsField = try e.required("steps")
                let steps = try stepsField.number(in: Double(stepsRange.lowerBound)...Double(stepsRange.upperBound))
                guard steps == steps.rounded() else { throw stepsField.fail("\(steps) is not a whole number") }
                days.append(
                    StepsFile.Day(
                        date: date, steps: Int(steps),
                        distanceMeters: try e.optional("distanceMeters")?.number(in: distanceRange),
                        activeMinutes: try e.optional("activeMinutes")?.number(in: activeMinutesRange)))
            }
            guard !days.isEmpty else {
                throw DataSourceError(
                    "\(file): no days (expected \"history\": [{\"date\": \"2026-01-24\", \"steps\": 8532}])")
            }
            return (days, goals.0, goals.1)
        } catch let e as DecodeError {
            throw DataSourceError(e.description)
        }
    }

    // MARK: Import and goals

    public struct ImportReport: Sendable, Equatable {
        public var imported: Int
        public var replaced: Int
        public var dropped: Int
        public var firstDate: String
        public var lastDate: String
        public var today: StepsFile.Day?
    }

    /// Merges days into the history (an imported day replaces the stored one) and sets `today`
    /// when the import has the local date. Today's distance also goes to `activity.json`.
    public func importFile(_ url: URL, now: Date = Date(), timeZone: TimeZone = .current) throws -> ImportReport {
        guard let data = try FileSystem.read(url, limit: Self.maxFileBytes) else {
            throw DataSourceError("\(url.path): no such file")
        }
        let name = url.lastPathComponent
        let isJSON =
            url.pathExtension.lowercased() == "json"
            || data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }).map {
                $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[")
            } == true
        var goals: (Int?, Int?) = (nil, nil)
        let days: [StepsFile.Day]
        if isJSON {
            let parsed = try Self.parseJSON(data, file: name)
            days = parsed.days
            goals = (parsed.goalWeekday, parsed.goalWeekend)
        } else {
            days = try Self.parseCSV(data, file: name)
        }
        let todayText = Self.localDate(now, timeZone)
        var report = ImportReport(
            imported: days.count, replaced: 0, dropped: 0,
            firstDate: days.map(\.date).min() ?? "", lastDate: days.map(\.date).max() ?? "")
        try document.update(decode: StepsFile.decodeTolerantly) { current in
            var f = current ?? StepsFile()
            var byDate: [String: StepsFile.Day] = [:]
            for d in f.history ?? [] { byDate[d.date] = d }
            if let t = f.today { byDate[t.date] = byDate[t.date] ?? t }
            for d in days {
                if byDate[d.date] != nil { report.replaced += 1 }
                byDate[d.date] = d
            }
            var history = byDate.values.sorted { $0.date < $1.date }
            if history.count > Self.maxHistoryDays {
                report.dropped = history.count - Self.maxHistoryDays
                history.removeFirst(report.dropped)
            }
            f.history = history.map {
                var d = $0
                d.updatedAt = nil
                return d
            }
            if var t = byDate[todayText] {
                t.updatedAt = now
                f.today = t
            } else if f.today?.date != todayText {
                f.today = nil
            }
            if let g = goals.0 { f.goalWeekday = g }
            if let g = goals.1 { f.goalWeekend = g }
            f.schemaVersion = StepsFile.currentSchemaVersion
            f.access = "authorized"
            f.source = "import"
            f.importedAt = now
            report.today = f.today
            return f
        }
        if let t = report.today {
            let activity = ActivityFile(
                today: .init(
                    date: t.date, updatedAt: now, steps: t.steps, distanceMeters: t.distanceMeters,
                    activeMinutes: t.activeMinutes))
            let data = try JSONDocument<StepsFile>.encoder().encode(activity)
            try FileSystem.atomicWrite(data + Data("\n".utf8), to: SnapshotFile.activity.url(in: root))
        }
        return report
    }

    /// Sets the weekday goal and, when given, the weekend goal (Saturday and Sunday).
    @discardableResult
    public func setGoal(weekday: Int, weekend: Int?) throws -> StepsFile {
        for (name, v) in [("goal", weekday), ("--weekend", weekend ?? Self.goalRange.lowerBound)]
        where !Self.goalRange.contains(v) {
            throw DataSourceError(
                """
                '\(name)' must be a whole number of steps in \
                \(Self.goalRange.lowerBound)…\(Self.goalRange.upperBound); got \(v)
                """
            )
        }
        return try document.update(decode: StepsFile.decodeTolerantly) { current in
            var f = current ?? StepsFile()
            if current == nil { f.access = "authorized" }
            f.goalWeekday = weekday
            if let weekend { f.goalWeekend = weekend }
            return f
        }
    }

    static func localDate(_ date: Date, _ zone: TimeZone) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let c = CivilCalendar.date(daysSinceEpoch: days)
        return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }
}
