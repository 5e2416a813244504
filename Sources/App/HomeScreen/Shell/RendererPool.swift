import Foundation
import WidgetRender

/// A few renderers for the Editor's drafts, so the six pictures of one edit are drawn on every
/// core instead of one after another. A `WidgetRenderer` is one-per-thread: each is lent to one
/// caller at a time, under `lock`. Renderers are made on first use and kept.
final class RendererPool: @unchecked Sendable {
    let capacity: Int
    private let lock = NSLock()
    private var idle: [WidgetRenderer] = []
    private let available: DispatchSemaphore

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        available = DispatchSemaphore(value: self.capacity)
    }

    func with<T>(_ body: (WidgetRenderer) throws -> T) rethrows -> T {
        available.wait()
        defer { available.signal() }
        let lent = lock.withLock { idle.popLast() } ?? WidgetRenderer()
        defer { lock.withLock { idle.append(lent) } }
        return try body(lent)
    }
}
