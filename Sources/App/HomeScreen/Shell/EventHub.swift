import Foundation
import Synchronization

/// One Server-Sent Event.
public struct ServerEvent: Sendable, Equatable {
    public var name: String
    /// One line of JSON (SSE data must not contain a bare newline; JSONEncoder output has none).
    public var data: String

    /// The event as it goes on the wire.
    public var wire: String {
        var text = "event: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }
}

/// Fans events out to every open `/events` stream. A slow client never blocks the others: each
/// subscriber has a bounded buffer that keeps the newest events.
public final class EventHub: Sendable {
    /// More subscribers than this are refused (each holds a connection and a buffer).
    public static let maximumSubscribers = 64
    static let bufferedEventsPerSubscriber = 64

    private struct State {
        var nextID = 0
        var continuations: [Int: AsyncStream<ServerEvent>.Continuation] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    public var subscriberCount: Int { state.withLock { $0.continuations.count } }

    /// A stream of events from now on; nil when too many clients are subscribed. The stream ends
    /// when `finishAll()` is called; cancelling its consumer unsubscribes it.
    public func subscribe() -> AsyncStream<ServerEvent>? {
        let (stream, continuation) = AsyncStream<ServerEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.bufferedEventsPerSubscriber))
        let id: Int? = state.withLock { s in
            guard s.continuations.count < Self.maximumSubscribers else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    public func publish(_ event: ServerEvent) {
        let targets = state.withLock { Array($0.continuations.values) }
        for c in targets { c.yield(event) }
    }

    public func finishAll() {
        let targets = state.withLock { s -> [AsyncStream<ServerEvent>.Continuation] in
            defer { s.continuations.removeAll() }
            return Array(s.continuations.values)
        }
        for c in targets { c.finish() }
    }
}
