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

    /// True when Pro is unlocked in this store. A missing or unreadable file means free tier
    /// (an unreadable one is set aside, not overwritten).
    public static func isUnlocked(_ root: StoreRoot) -> Bool {
        if case .loaded(let e) = (try? document(root).load()) ?? .missing { return e.unlocked }
        return false
    }

    public static func set(_ unlocked: Bool, root: StoreRoot, now: Date = Date()) throws {
        try document(root).update { _ in ProEntitlement(unlocked: unlocked, updatedAt: now) }
    }
}
