import Foundation
import Synchronization

/// The home screen's Undo offers (issue 41.5): a press that can be taken back (a completed reminder)
/// is kept here under a random token the page's notice posts to `/api/undo/TOKEN`. Each offer is
/// used once, and lasts as long as the page shows it plus a grace for a slow request; the bytes an
/// Undo puts back are held only that long, and only for the newest few offers.
public final class UndoOffers: Sendable {
    /// How long the page shows the notice with its Undo button (the desktop widget's bar shows as long).
    public static let shownSeconds = 8.0
    /// Past `shownSeconds`: a press on Undo just before the notice went still reaches the server.
    static let graceSeconds = 5.0
    /// Offers kept at once (several tabs, quick presses); the oldest goes first.
    static let maximumCount = 8

    private struct Offer {
        var undo: TapOutcome.Undo
        var expires: Date
    }
    private let offers = Mutex<[(token: String, offer: Offer)]>([])

    public init() {}

    /// Keeps `undo` and returns the token that takes it.
    public func offer(_ undo: @escaping TapOutcome.Undo, now: Date = Date()) -> String {
        let token = AccessPolicy.newToken()
        offers.withLock { list in
            list.removeAll { $0.offer.expires <= now }
            let expires = now.addingTimeInterval(Self.shownSeconds + Self.graceSeconds)
            list.append((token, Offer(undo: undo, expires: expires)))
            if list.count > Self.maximumCount { list.removeFirst(list.count - Self.maximumCount) }
        }
        return token
    }

    /// The offer under `token`, removed (an Undo is used once); nil when there is none or it expired.
    public func take(_ token: String, now: Date = Date()) -> TapOutcome.Undo? {
        offers.withLock { list in
            guard let i = list.firstIndex(where: { $0.token == token }) else { return nil }
            let offer = list.remove(at: i).offer
            return offer.expires > now ? offer.undo : nil
        }
    }
}
