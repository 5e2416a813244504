import Foundation
import Synchronization

/// Explore's catalogue pictures, kept once drawn: the page shows ~70 templates, sizes and remixes,
/// and drawing them all took most of a first visit. A picture is keyed by what it is (template,
/// family, remix or seed and variant); the appearance and the renderer are the running server's
/// (fixed for its life, and the cache dies with it). What the pictures show besides that (the
/// store's snapshots and variables, the minute) changes exactly when the home screen redraws:
/// `HomeScreenServer.refresh` empties the cache then (store files, the minute tick, a player's
/// exit, every write through the API).
///
/// The answer carries an ETag of the process and generation, so a browser revalidating a
/// picture it holds gets a 304 with no body.
final class ExplorePictureCache: Sendable {
    struct Key: Hashable {
        var template: String
        var family: String
        /// "" for the starter, "remix:ID" or "seed:S:K".
        var variant: String
    }

    /// Entries kept at most (the page asks for ~130 with the seeded remixes); other seeds asked
    /// for by hand could otherwise fill memory. Past it the cache starts again.
    static let maximumEntries = 512

    private struct State {
        var generation: UInt64 = 0
        var entries: [Key: [UInt8]] = [:]
    }
    private let state = Mutex(State())
    /// Tells this process's ETags from another's (a restarted server starts at generation 0 too).
    private let instance = UInt64.random(in: 0...UInt64.max)

    /// Forgets every picture: their inputs changed.
    func invalidate() {
        state.withLock {
            $0.generation &+= 1
            $0.entries.removeAll(keepingCapacity: true)
        }
    }

    /// The ETag a picture drawn now would carry.
    func etag(_ key: Key) -> String {
        let generation = state.withLock { $0.generation }
        var hasher = FNV1a()
        for part in [key.template, key.family, key.variant] { hasher.add(part) }
        return "\"\(String(instance, radix: 36))-\(generation)-\(String(hasher.value, radix: 36))\""
    }

    /// The kept picture, or `draw()`'s, kept unless the inputs changed while it was drawn.
    func picture(_ key: Key, draw: () throws -> [UInt8]) rethrows -> (bytes: [UInt8], wasCached: Bool) {
        let (kept, generation) = state.withLock { ($0.entries[key], $0.generation) }
        if let kept { return (kept, true) }
        let bytes = try draw()
        state.withLock {
            guard $0.generation == generation else { return }
            if $0.entries.count >= Self.maximumEntries { $0.entries.removeAll(keepingCapacity: true) }
            $0.entries[key] = bytes
        }
        return (bytes, false)
    }

    /// FNV-1a, 64-bit: a stable hash (Swift's `Hasher` is seeded per process).
    struct FNV1a {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ text: String) {
            for byte in text.utf8 + [0] {
                value ^= UInt64(byte)
                value = value &* 0x0000_0100_0000_01b3
            }
        }
    }
}
