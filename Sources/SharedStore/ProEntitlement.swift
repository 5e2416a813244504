import Foundation

/// The Pro entitlement, kept in the store (`pro.json`) and shared by the variables engine (custom
/// variables are Pro-gated) and the design library (more than 3 designs need Pro).
public struct ProEntitlement: Codable, Sendable, Equatable {
    public static let schemaVersion = 1
    public var schemaVersion: Int = ProEntitlement.schemaVersion
    public var unlocked: Bool
    public var updatedAt: Date

    public init(unlocked: Bool, updatedAt: Date) {
        self.unlocked = unlocked
        self.updatedAt = updatedAt
    }

    public static func document(_ root: StoreRoot) -> JSONDocument<ProEntitlement> {
        JSONDocument(root: root, url: root.entitlement, sizeLimit: 64 << 10)
    }

    /// True when Pro is unlocked in this store. A missing or unreadable file means free tier; an
    /// unreadable one is set aside, not overwritten, and `onSetAside` is told (by default a warning
    /// on standard error naming the file, as for every other store file).
    public static func isUnlocked(_ root: StoreRoot,
                                  onSetAside: (String, URL) -> Void = ProEntitlement.warnSetAside) -> Bool {
        switch (try? document(root).load()) ?? .missing {
        case .loaded(let e): return e.unlocked
        case .setAside(let reason, let url):
            onSetAside(reason, url)
            return false
        case .missing: return false
        }
    }

    /// `warning: <store>/pro.json could not be read (<reason>); it was moved to <url>` on standard error.
    public static func warnSetAside(_ reason: String, _ url: URL) {
        let original = url.deletingLastPathComponent().appendingPathComponent("pro.json").path
        FileHandle.standardError.write(Data("warning: \(original) could not be read (\(reason)); it was moved to \(url.path); Pro is locked until 'weaver pro unlock'\n".utf8))
    }

    public static func set(_ unlocked: Bool, root: StoreRoot, now: Date = Date()) throws {
        try document(root).update { _ in ProEntitlement(unlocked: unlocked, updatedAt: now) }
    }
}
