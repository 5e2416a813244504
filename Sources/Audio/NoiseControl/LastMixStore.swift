import BoundedJSON
import Foundation
import SharedStore

#if canImport(Glibc)
    import Glibc
#endif

/// The result of reading `last-mix.json`.
public struct LastMixLoad: Sendable {
    /// The Last Mix, nil when there is none (never saved, or unreadable and set aside).
    public var lastMix: LastMix?
    /// Fields absent from the file that got their defaults (normal for files from older versions).
    public var missingFields: [String] = []
    /// Fields present but unusable, each replaced by its default; the rest of the mix is kept.
    public var repairs: [FieldRepair] = []
    /// Where the original file went when it was unreadable or needed repairs (never overwritten).
    public var setAsideAt: URL?
    public var setAsideReason: String?

    /// Lines to show the user: what was wrong, what was used instead, where the original went.
    public var messages: [String] {
        var out: [String] = []
        if let setAsideAt, let setAsideReason {
            if lastMix == nil {
                out.append("the Last Mix: " + SetAsideNotice.text(reason: setAsideReason, movedTo: setAsideAt))
            } else {
                out.append(
                    "the Last Mix had fields that could not be used; the original was kept at \(setAsideAt.path)")
            }
        }
        out += repairs.map { "Last Mix \($0)" }
        return out
    }
}

/// Reads and writes the Last Mix. Every write is atomic; read-modify-write runs under the
/// document's advisory lock so concurrent `noise set` runs and a player lose nothing.
public struct LastMixStore: Sendable {
    public let root: StoreRoot
    public var url: URL { root.lastMix }
    let lock: FileLock

    public static let maximumFileBytes = 256 << 10

    public init(root: StoreRoot) {
        self.root = root
        lock = FileLock(root: root, name: "last-mix.json")
    }

    /// Reads the Last Mix, tolerant per field. A file that cannot be parsed at all is moved aside
    /// (nothing to keep); one with unusable fields is moved aside and replaced by the repaired mix.
    public func load() throws -> LastMixLoad {
        // A reader that finds a bad file takes the lock and looks again before moving anything, so
        // it never moves aside a good file a writer renamed into place meanwhile.
        let first = try readOnce()
        guard first.needsSetAside else { return first.result }
        return try lock.withLock { try repairLocked() }
    }

    public func save(_ lastMix: LastMix) throws {
        var value = lastMix
        value.schemaVersion = LastMix.currentSchemaVersion
        let data = try ControlJSON.encoder(pretty: true).encode(value)
        try FileSystem.atomicWrite(data + Data("\n".utf8), to: url)
    }

    /// Read-modify-write under the lock. With no Last Mix yet, `body` starts from the default mix.
    /// Returns the value written and what loading found (set-aside files, repairs).
    @discardableResult
    public func update(now: Date = Date(), _ body: (inout LastMix) throws -> Void) throws -> (
        value: LastMix, load: LastMixLoad
    ) {
        try lock.withLock {
            sweepTemporaries()
            let loaded = try repairLocked()
            var value = loaded.lastMix ?? LastMix(mix: LastMix.defaultMix, updatedAt: now)
            try body(&value)
            value.updatedAt = now
            try save(value)
            return (value, loaded)
        }
    }

    /// Saves `lastMix` only when there is no Last Mix yet, deciding under the lock, so one that a
    /// player or `noise set` wrote meanwhile is kept. Returns the Last Mix now stored, whether it
    /// is `lastMix`, and what loading found (set-aside files, repairs).
    public func saveIfMissing(_ lastMix: LastMix) throws -> (value: LastMix, saved: Bool, load: LastMixLoad) {
        try lock.withLock {
            sweepTemporaries()
            let loaded = try repairLocked()
            if let existing = loaded.lastMix { return (existing, false, loaded) }
            try save(lastMix)
            return (lastMix, true, loaded)
        }
    }

    /// Removes temporary files that writers killed mid-write left behind (their names carry the
    /// writer's pid; only files of processes that no longer exist are removed). Runs under the lock.
    func sweepTemporaries() {
        let dir = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            if let pid = Int32(pidText), pid != getpid(), !PlayerStatus.processIsAlive(pid) {
                unlink(dir.appendingPathComponent(name).path)
            }
        }
    }

    // MARK: - Reading

    struct Attempt {
        var result: LastMixLoad
        var needsSetAside: Bool
        var reason: String?
    }

    func readOnce() throws -> Attempt {
        let data: Data?
        do {
            data = try FileSystem.read(url, limit: Self.maximumFileBytes)
        } catch let e as StoreError where e.reason.contains("limit") {
            return Attempt(result: LastMixLoad(), needsSetAside: true, reason: e.reason)
        }
        guard let data else { return Attempt(result: LastMixLoad(), needsSetAside: false) }
        let root: JSONValue
        do {
            root = try JSONValue.parse(data, limits: ControlJSON.limits)
        } catch {
            return Attempt(result: LastMixLoad(), needsSetAside: true, reason: "\(error)")
        }
        let (value, missing, repairs) = LastMix.tolerant(root)
        let result = LastMixLoad(lastMix: value, missingFields: missing, repairs: repairs)
        return Attempt(result: result, needsSetAside: !repairs.isEmpty, reason: repairs.first.map { "\($0)" })
    }

    /// Called with the lock held.
    func repairLocked() throws -> LastMixLoad {
        let attempt = try readOnce()
        guard attempt.needsSetAside else { return attempt.result }
        var result = attempt.result
        result.setAsideAt = try FileSystem.setAside(url)
        result.setAsideReason = attempt.reason
        if let repaired = result.lastMix { try save(repaired) }
        return result
    }
}
