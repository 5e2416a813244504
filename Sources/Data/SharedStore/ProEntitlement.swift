import Foundation

/// The Pro entitlement, kept in the store (`pro.json`) and shared by the variables engine (custom
/// variables are Pro-gated) and the design library (more than 3 designs need Pro).
public struct ProEntitlement: Codable, Sendable, Equatable {
    public static let schemaVersion = 1
    public var schemaVersion: Int = ProEntitlement.schemaVersion
    public var unlocked: Bool
    public var updatedAt: Date

    public static func document(_ root: StoreRoot) -> JSONDocument<ProEntitlement> {
        JSONDocument(root: root, url: root.entitlement, sizeLimit: 64 << 10)
    }

    /// Whether Pro is unlocked in this store, and what the caller should tell the user. A missing
    /// or unreadable file means free tier; an unreadable one is set aside, not overwritten, and
    /// `warnings` says so (naming the file and where it went). A library has no business writing
    /// to standard error: the home screen would print it into its log; the caller decides.
    public static func isUnlocked(_ root: StoreRoot) -> (isUnlocked: Bool, warnings: [String]) {
        switch (try? document(root).load()) ?? .missing {
        case .loaded(let e): return (e.unlocked, [])
        case .setAside(let reason, let url):
            return (
                false,
                [
                    SetAsideNotice.text(root.entitlement, reason: reason, movedTo: url)
                        + "; Pro is locked until 'weaver pro unlock'"
                ]
            )
        case .missing: return (false, [])
        }
    }

    public static func set(_ unlocked: Bool, root: StoreRoot, now: Date = Date()) throws {
        try document(root).update { _ in ProEntitlement(unlocked: unlocked, updatedAt: now) }
    }
}
