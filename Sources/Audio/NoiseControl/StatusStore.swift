import Foundation
import SharedStore

/// What reading `status.json` found.
public enum StatusRead: Sendable {
    /// No player has ever published in this store.
    case missing
    case loaded(PlayerStatus)
    /// The file could not be read; it was moved to `setAsideAt`.
    case setAside(reason: String, setAsideAt: URL)
}

/// Reads and writes `status.json`. The player writes it atomically (readers always see a whole
/// document); readers poll it or watch it.
public struct StatusStore: Sendable {
    public let root: StoreRoot
    public var url: URL { root.status }
    let lock: FileLock
    public static let maximumFileBytes = 64 << 10

    public init(root: StoreRoot) {
        self.root = root
        lock = FileLock(root: root, name: "status.json")
    }

    public func write(_ status: PlayerStatus) throws {
        var s = status
        s.schemaVersion = PlayerStatus.currentSchemaVersion
        let data = try ControlJSON.encoder(pretty: true).encode(s) + Data("\n".utf8)
        // The lock only orders this write against a reader's set-aside (see `read`); it is held
        // for one rename, so a publisher never waits long.
        try lock.withLock { try FileSystem.atomicWrite(data, to: url) }
    }

    public func read() throws -> StatusRead {
        if case .good(let r) = try attempt() { return r }
        return try lock.withLock {
            switch try attempt() {
            case .good(let r): return r
            case .bad(let reason):
                return .setAside(reason: reason, setAsideAt: try FileSystem.setAside(url))
            }
        }
    }

    enum Attempt {
        case good(StatusRead)
        case bad(String)
    }

    func attempt() throws -> Attempt {
        let data: Data?
        do {
            data = try FileSystem.read(url, limit: Self.maximumFileBytes)
        } catch let e as StoreError where e.reason.contains("limit") {
            return .bad(e.reason)
        }
        guard let data else { return .good(.missing) }
        do {
            return .good(.loaded(try ControlJSON.decode(PlayerStatus.self, from: data)))
        } catch {
            return .bad(ControlJSON.describe(error))
        }
    }
}
