import Foundation
import SharedStore
import SystemCalls

/// Records which design widgets show when none is chosen (`default-design.json`).
struct DefaultDesignRecord: Codable, Sendable {
    var schemaVersion = 1
    var id: UUID?
}

extension StoreRoot {
    public var defaultDesign: URL { url.appendingPathComponent("default-design.json") }
    var designIndex: URL { designs.appendingPathComponent(".index") }
}

/// The Library: one JSON file per design in `designs/<UUID>.json`, deleted designs in `trash/`,
/// the default in `default-design.json`. Every change runs under one `FileLock` ("designs") and
/// writes with `FileSystem.atomicWrite`, so several processes can edit at once without losing
/// anything; unreadable files are set aside, never overwritten.
public struct DesignLibrary: Sendable {
    /// The seed app's `maxFreeDesigns`.
    public static let maxFreeDesigns = 3

    public let root: StoreRoot
    /// Warnings met while reading (files set aside, findings in stored designs); the CLI prints them.
    public typealias Warn = @Sendable (String) -> Void
    let warn: Warn

    /// `warn` hears each message once per library value: listing reads every design and loading
    /// reads one again, which printed a stored design's findings twice per command.
    public init(root: StoreRoot, warn: @escaping Warn = { _ in }) {
        self.root = root
        let heard = HeardOnce()
        self.warn = { message in if heard.first(message) { warn(message) } }
    }

    var lock: FileLock { FileLock(root: root, name: "designs") }
    /// Pro from the store's entitlement; a pro.json set aside is told to `warn`.
    public var isPro: Bool {
        let entitlement = ProEntitlement.isUnlocked(root)
        entitlement.warnings.forEach(warn)
        return entitlement.isUnlocked
    }

    func fileURL(_ id: UUID) -> URL { root.designs.appendingPathComponent("\(id.uuidString).json") }

    // MARK: Listing

    /// The design files set aside as unreadable (`NAME.json.corrupt-…`, by `FileSystem.setAside`),
    /// by file name, oldest name first: shown by `weaver designs list` and the Library, so a design
    /// that could not be read does not just disappear (issue 41.15).
    public func setAsideFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.designs.path)) ?? []
        return names.filter { $0.contains(".json.corrupt-") }.sorted()
    }

    /// Every design, newest first.
    public func summaries() throws -> [DesignSummary] {
        if let rows = try readIndexIfCurrent() { return rows.sorted(by: DesignSummary.newestFirst) }
        // A read-only store (issue 41: `weaver render` failed taking designs.lock) is read as it
        // is, without the lock and without rewriting the index.
        return try lock.withLock({ try lockedRows() }, orReadOnly: { try currentRows() })
            .sorted(by: DesignSummary.newestFirst)
    }

    /// Designs whose name contains `text`, ignoring case and accents; newest first.
    public func search(_ text: String) throws -> [DesignSummary] {
        let key = DesignSummary.fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let all = try summaries()
        guard !key.isEmpty else { return all }
        return all.filter { $0.searchKey.contains(key) }
    }

    public var count: Int { get throws { try summaries().count } }

    /// IDs of the design files present, from the directory listing.
    func fileIDs() throws -> Set<UUID> { Set(try fileStamps().keys) }

    /// Each design file present with its stamp (one `stat` per file).
    func fileStamps() throws -> [UUID: FileStamp] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: root.designs.path)
        } catch {
            if !FileManager.default.fileExists(atPath: root.designs.path) { return [:] }
            throw DesignError("cannot list \(root.designs.path): \(error.localizedDescription)")
        }
        var stamps: [UUID: FileStamp] = [:]
        stamps.reserveCapacity(names.count)
        // fstatat on the open folder with the bare name: no URL or path building per file
        // (10,000 `URL.appendingPathComponent` calls cost more than the 10,000 stats).
        let dirFD = retryOnInterrupt { open(root.designs.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard dirFD >= 0 else {
            throw DesignError("cannot open \(root.designs.path): \(SystemCallError.reason(errno))")
        }
        defer { close(dirFD) }
        for n in names where n.utf8.count == 41 && n.hasSuffix(".json") {
            guard let id = UUID(uuidString: String(n.dropLast(5))), let stamp = FileStamp.at(dirFD, n) else { continue }
            stamps[id] = stamp
        }
        return stamps
    }

    func readIndexRows() -> [DesignSummary]? {
        guard let data = try? FileSystem.read(root.designIndex, limit: 256 << 20) else { return nil }
        return DesignIndex.decode(data)
    }

    /// The index rows when they match the design files exactly: the same IDs and, for each, the
    /// same inode, size and modification time (so a file edited or replaced by hand is noticed).
    func readIndexIfCurrent() throws -> [DesignSummary]? {
        guard let rows = readIndexRows() else { return nil }
        let stamps = try fileStamps()
        guard rows.count == stamps.count, rows.allSatisfy({ $0.fileStamp != nil && stamps[$0.id] == $0.fileStamp })
        else { return nil }
        return rows
    }

    /// Brings the index up to date with the files and rewrites it: rows whose file is unchanged
    /// are kept, changed or new files are read again. Call under the lock.
    @discardableResult
    func rebuildIndex() throws -> [DesignSummary] {
        let rows = try currentRows()
        try writeIndex(rows)
        return rows
    }

    /// The rows of the design files as they are now: the index's rows for files it still
    /// describes, the others read again. Writes nothing.
    func currentRows() throws -> [DesignSummary] {
        var previous: [UUID: DesignSummary] = [:]
        for r in readIndexRows() ?? [] { previous[r.id] = r }
        var rows: [DesignSummary] = []
        for (id, stamp) in try fileStamps() {
            if let old = previous[id], old.fileStamp == stamp {
                rows.append(old)
            } else if let loaded = try loadReporting(id) {
                var row = DesignSummary(loaded.spec)
                row.fileStamp = FileStamp.of(fileURL(id).path)
                row.repairs = loaded.findings.map(\.description)
                rows.append(row)
            }
        }
        return rows
    }

    func writeIndex(_ rows: [DesignSummary]) throws {
        try FileSystem.atomicWrite(DesignIndex.encode(rows), to: root.designIndex)
    }

    /// Current index rows under the lock (refreshed when stale).
    func lockedRows() throws -> [DesignSummary] {
        if let rows = try readIndexIfCurrent() { return rows }
        return try rebuildIndex()
    }

    /// The row for a design just written.
    func row(for spec: WidgetSpec) -> DesignSummary {
        var r = DesignSummary(spec)
        r.fileStamp = FileStamp.of(fileURL(spec.id).path)
        return r
    }

    // MARK: Reading

    /// Loads a design with the findings of its tolerant decoding. A file that is not JSON at all
    /// is set aside (`FileSystem.setAside`) and reported; nil when it is missing or was set aside.
    func loadIfReadable(_ id: UUID) throws -> WidgetSpec? { try loadReporting(id)?.spec }

    /// `loadIfReadable` with what the tolerant decoding repaired (the listing keeps it in the index).
    func loadReporting(_ id: UUID) throws -> (spec: WidgetSpec, findings: [Finding])? {
        let url = fileURL(id)
        let data: Data
        do {
            guard let d = try FileSystem.read(url, limit: 16 << 20) else { return nil }
            data = d
        } catch {
            try setAside(url, reason: "\(error)")
            return nil
        }
        do {
            var (spec, findings) = try WidgetSpec.decode(data, fallbackDate: Self.modificationDate(url))
            for f in findings { warn("\(url.path): \(f)") }
            // The file name is the design's identity in the library.
            spec.id = id
            return (spec, findings)
        } catch {
            try setAside(url, reason: "not a readable design: \(error)")
            return nil
        }
    }

    /// Moves an unreadable design out of the way and says so; in a store this process cannot
    /// write, leaves it and says that instead (reading must still work there).
    func setAside(_ url: URL, reason: String) throws {
        guard FileSystem.isWritable(url.deletingLastPathComponent()) else {
            warn("\(url.path) could not be read (\(reason)); left in place: the store cannot be written here")
            return
        }
        let to = try FileSystem.setAside(url)
        warn(SetAsideNotice.text(url, reason: reason, movedTo: to))
    }

    static func modificationDate(_ url: URL) -> Date {
        let d = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? nil
        return WidgetSpec.wholeSeconds(d ?? Date(timeIntervalSince1970: 0))
    }

    public func load(_ id: UUID) throws -> WidgetSpec {
        guard let spec = try loadIfReadable(id) else { throw DesignError("no design with ID \(id.uuidString)") }
        return spec
    }

    /// Finds a design by full ID, a unique ID prefix (4+ characters), or a unique name
    /// (case- and accent-insensitive).
    public func resolve(_ reference: String) throws -> DesignSummary {
        try Self.resolve(reference, in: summaries())
    }

    static func resolve(_ reference: String, in rows: [DesignSummary]) throws -> DesignSummary {
        let ref = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = UUID(uuidString: ref) {
            if let row = rows.first(where: { $0.id == id }) { return row }
            throw DesignError("no design with ID \(id.uuidString) (see 'weaver designs list')")
        }
        if ref.count >= 4, ref.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            let upper = ref.uppercased()
            let matches = rows.filter { $0.id.uuidString.hasPrefix(upper) }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw DesignError("ID prefix '\(ref)' matches \(matches.count) designs; give more characters")
            }
        }
        let key = DesignSummary.fold(ref)
        let byName = rows.filter { $0.searchKey == key }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 {
            throw DesignError(
                "\(byName.count) designs are named '\(ref)'; use an ID: "
                    + byName.map { $0.id.uuidString }.joined(separator: ", "))
        }
        if (1...3).contains(ref.count), ref.allSatisfy({ $0.isHexDigit }) {
            let upper = ref.uppercased()
            let starting = rows.filter { $0.id.uuidString.hasPrefix(upper) }
            let which =
                starting.isEmpty
                ? "no design's ID starts with it"
                : """
                \(starting.count) design\(starting.count == 1 ? "'s ID starts" : "s' IDs start") with it \
                (\(starting.prefix(3).map { "\($0.name) \($0.id.uuidString.prefix(8))" }.joined(separator: ", "))\
                \(starting.count > 3 ? ", …" : ""))
                """
            throw DesignError(
                """
                '\(ref)' is too short for an ID prefix: give at least 4 characters of the ID (\(which)), the full \
                ID, or the design's name
                """
            )
        }
        throw DesignError("no design matches '\(ref)' by ID or name (see 'weaver designs list')")
    }

    // MARK: Free tier

    /// How many more designs may be saved: nil means unlimited (Pro).
    public func freeSlotsLeft(currentCount: Int) -> Int? {
        isPro ? nil : max(0, Self.maxFreeDesigns - currentCount)
    }

    func checkCap(adding n: Int, currentCount: Int) throws {
        guard n > 0, let left = freeSlotsLeft(currentCount: currentCount), n > left else { return }
        throw DesignError(
            """
            the free tier keeps at most \(Self.maxFreeDesigns) designs; the library has \(currentCount), \
            so \(n == 1 ? "another cannot" : "\(n) more cannot") be added. \
            Delete one ('weaver designs delete ID') or unlock Pro ('weaver pro unlock') for unlimited designs.
            """)
    }

    // MARK: Writing

    /// Adds new designs (they must have IDs not in the library), all or nothing. The first design
    /// put in an empty library with no default becomes the default, as on iOS (so plain
    /// `weaver render` draws it rather than saying there is none); a default cleared while
    /// designs remain stays cleared.
    ///
    /// `prepare` runs under the library lock after the free-tier check and before any design is
    /// written: it may change the designs (an import renames images there) and returns the files
    /// it wrote, which are removed again if a later write fails.
    public func add(_ specs: [WidgetSpec], prepare: (inout [WidgetSpec]) throws -> [URL] = { _ in [] }) throws {
        try lock.withLock {
            var rows = try lockedRows()
            let wasEmpty = rows.isEmpty
            try checkCap(adding: specs.count, currentCount: rows.count)
            var specs = specs
            let existing = Set(rows.map(\.id))
            var seen = Set<UUID>()
            for s in specs where existing.contains(s.id) || !seen.insert(s.id).inserted {
                throw DesignError("a design with ID \(s.id.uuidString) already exists")
            }
            var written: [URL] = []
            do {
                written = try prepare(&specs)
                for s in specs {
                    let url = fileURL(s.id)
                    try FileSystem.atomicWrite(s.encoded(), to: url)
                    written.append(url)
                    rows.append(row(for: s))
                }
                try writeIndex(rows)
            } catch {
                // All or nothing: a failure part-way removes what this call wrote.
                for url in written { try? FileManager.default.removeItem(at: url) }
                throw error
            }
            // An empty library has no valid default, whatever the record says (it can name a
            // design in the trash).
            if wasEmpty, let first = specs.first {
                do {
                    try setDefaultUnlocked(first.id)
                } catch {
                    warn(
                        """
                        \(root.defaultDesign.path): could not record \(first.name) as the default design \
                        (\(error)); set it with 'weaver designs default \(first.id.uuidString)'
                        """
                    )
                }
            }
        }
    }

    /// The Editor's save: read, change, write with a new `updatedAt`, under the lock.
    @discardableResult
    public func update(_ id: UUID, now: Date, _ body: (inout WidgetSpec) throws -> Void) throws -> WidgetSpec {
        try lock.withLock {
            var rows = try lockedRows()
            guard let i = rows.firstIndex(where: { $0.id == id }) else {
                throw DesignError("no design with ID \(id.uuidString)")
            }
            var spec = try load(id)
            try body(&spec)
            spec.id = id
            spec.updatedAt = WidgetSpec.wholeSeconds(now)
            try FileSystem.atomicWrite(spec.encoded(), to: fileURL(id))
            rows[i] = row(for: spec)
            try writeIndex(rows)
            return spec
        }
    }

    public func duplicate(_ id: UUID, now: Date) throws -> WidgetSpec {
        var copy = try load(id)
        copy.id = UUID()
        copy.name = String((copy.name + " (Copy)").prefix(FieldLimits.maxNameCharacters))
        copy.updatedAt = WidgetSpec.wholeSeconds(now)
        try add([copy])
        return copy
    }

    /// Moves the design to `trash/`; `restore` brings it back. Returns true when it was the
    /// default design: the default is then cleared (a restored design is never made the default
    /// again by itself).
    @discardableResult
    public func delete(_ id: UUID) throws -> Bool {
        try lock.withLock {
            var rows = try lockedRows()
            guard let i = rows.firstIndex(where: { $0.id == id }) else {
                throw DesignError("no design with ID \(id.uuidString)")
            }
            // Read the record before the move: `defaultID()` checks that the file exists.
            let wasDefault = try recordedDefaultID() == id
            try FileSystem.makeDirectory(root.trash)
            var target = root.trash.appendingPathComponent("\(id.uuidString).json")
            var n = 2
            while FileManager.default.fileExists(atPath: target.path) {
                target = root.trash.appendingPathComponent("\(id.uuidString).\(n).json")
                n += 1
            }
            guard rename(fileURL(id).path, target.path) == 0 else {
                throw DesignError("cannot move \(fileURL(id).path) to the trash: \(SystemCallError.reason(errno))")
            }
            rows.remove(at: i)
            try writeIndex(rows)
            if wasDefault { try setDefaultUnlocked(nil) }
            return wasDefault
        }
    }

    /// Deletes every design in `trash/` for good; returns what was removed. Other files there
    /// (not `*.json`) are left alone.
    public func emptyTrash() throws -> [DesignSummary] {
        try lock.withLock {
            let gone = try trashed()
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.trash.path)) ?? []
            for n in names where n.hasSuffix(".json") && !n.hasPrefix(".") {
                let path = root.trash.appendingPathComponent(n).path
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw DesignError("cannot remove \(path): \(SystemCallError.reason(errno))")
                }
            }
            return gone
        }
    }

    /// Designs in the trash, newest deletion first.
    public func trashed() throws -> [DesignSummary] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.trash.path)) ?? []
        var rows: [DesignSummary] = []
        for n in names where n.hasSuffix(".json") && !n.hasPrefix(".") {
            let url = root.trash.appendingPathComponent(n)
            guard let data = try? FileSystem.read(url),
                let (spec, _) = try? WidgetSpec.decode(data, fallbackDate: Date(timeIntervalSince1970: 0))
            else { continue }
            var s = spec
            if let id = UUID(uuidString: String(n.prefix(36))) { s.id = id }
            rows.append(DesignSummary(s))
        }
        return rows.sorted(by: DesignSummary.newestFirst)
    }

    /// Moves a design back from the trash. It is not made the default, even when it was the
    /// default before it was deleted (a record left pointing at it by an older version is cleared).
    public func restore(_ reference: String) throws -> WidgetSpec {
        let row = try Self.resolve(reference, in: trashed())
        return try lock.withLock {
            var rows = try lockedRows()
            guard !rows.contains(where: { $0.id == row.id }) else {
                throw DesignError("a design with ID \(row.id.uuidString) is already in the library")
            }
            try checkCap(adding: 1, currentCount: rows.count)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.trash.path)) ?? []
            guard let name = names.filter({ $0.hasPrefix(row.id.uuidString) && $0.hasSuffix(".json") }).sorted().last
            else {
                throw DesignError("design \(row.id.uuidString) is no longer in the trash")
            }
            try FileSystem.makeDirectory(root.designs)
            let from = root.trash.appendingPathComponent(name)
            guard rename(from.path, fileURL(row.id).path) == 0 else {
                throw DesignError("cannot move \(from.path) back: \(SystemCallError.reason(errno))")
            }
            let spec = try load(row.id)
            rows.append(self.row(for: spec))
            try writeIndex(rows)
            if try recordedDefaultID() == row.id { try setDefaultUnlocked(nil) }
            return spec
        }
    }

    // MARK: Default

    var defaultDocument: JSONDocument<DefaultDesignRecord> {
        JSONDocument(root: root, url: root.defaultDesign, sizeLimit: 64 << 10)
    }

    /// The default design's ID, or nil when none is set (or it no longer exists).
    public func defaultID() throws -> UUID? {
        switch try defaultDocument.load() {
        case .loaded(let r):
            guard let id = r.id, FileManager.default.fileExists(atPath: fileURL(id).path) else { return nil }
            return id
        case .missing: return nil
        case .setAside(let reason, let at):
            warn(SetAsideNotice.text(root.defaultDesign, reason: reason, movedTo: at))
            return nil
        }
    }

    /// The ID the default record holds, whether or not that design still exists.
    func recordedDefaultID() throws -> UUID? {
        if case .loaded(let r) = try defaultDocument.load() { return r.id }
        return nil
    }

    public func setDefault(_ id: UUID?) throws {
        try lock.withLock {
            if let id, !(try lockedRows().contains { $0.id == id }) {
                throw DesignError("no design with ID \(id.uuidString)")
            }
            try setDefaultUnlocked(id)
        }
    }

    func setDefaultUnlocked(_ id: UUID?) throws {
        try defaultDocument.save(DefaultDesignRecord(id: id))
    }
}

/// Messages already passed on (see `DesignLibrary.init`).
private final class HeardOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: Set<String> = []

    /// True the first time `message` is seen.
    func first(_ message: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return messages.insert(message).inserted
    }
}
