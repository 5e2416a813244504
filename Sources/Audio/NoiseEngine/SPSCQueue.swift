import Synchronization

/// A bounded single-producer single-consumer queue of plain values: the control thread pushes,
/// the render thread pops, and neither ever waits, locks or allocates after `init`.
///
/// The producer writes a slot and then publishes it with a releasing store of `tail`; the consumer
/// acquires `tail`, reads, and hands the slot back with a releasing store of `head`.
public final class SPSCQueue<Element: BitwiseCopyable>: @unchecked Sendable {
    let capacity: Int
    let slots: UnsafeMutablePointer<Element>
    let head = Atomic<Int>(0)  // next slot to read (consumer-owned)
    let tail = Atomic<Int>(0)  // next slot to write (producer-owned)

    /// `capacity` is rounded up to a power of two.
    public init(capacity: Int) {
        var c = 2
        while c < capacity { c <<= 1 }
        self.capacity = c
        slots = .allocate(capacity: c)
    }

    deinit { slots.deallocate() }

    /// Producer side. Returns false when full (the caller may retry later; nothing is lost silently).
    @discardableResult
    public func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        if t - head.load(ordering: .acquiring) >= capacity { return false }
        (slots + (t & (capacity - 1))).initialize(to: value)
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Consumer side.
    ///
    /// Real-time safety: two atomic loads and a copy; no allocation, lock or wait.
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        if h == tail.load(ordering: .acquiring) { return nil }
        let value = slots[h & (capacity - 1)]
        head.store(h + 1, ordering: .releasing)
        return value
    }
}
