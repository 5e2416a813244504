import Foundation

/// The occurrences an expansion keeps: all of them, or only the soonest `limit` (by start, end,
/// title) in a bounded max-heap, so memory follows what is kept rather than what a calendar
/// could produce (5,000 daily events make 1.8 million occurrences in a year).
struct SoonestOccurrences {
    let limit: Int?
    private(set) var items: [Occurrence] = []

    init(limit: Int?) {
        self.limit = limit.map { max(1, $0) }
        if let l = self.limit { items.reserveCapacity(min(l, 65_536)) }
    }

    static func precedes(_ a: Occurrence, _ b: Occurrence) -> Bool {
        (a.start, a.end, a.title) < (b.start, b.end, b.title)
    }

    /// When full, the start (seconds since the epoch) after which nothing more can be kept:
    /// an expansion stepping in order may stop once its instances start later than this.
    var cutoffSeconds: Int? {
        guard let limit, items.count >= limit else { return nil }
        return Int(items[0].start.timeIntervalSince1970.rounded(.up))
    }

    mutating func add(_ o: Occurrence) {
        guard let limit else {
            items.append(o)
            return
        }
        if items.count < limit {
            items.append(o)
            siftUp(items.count - 1)
        } else if Self.precedes(o, items[0]) {
            items[0] = o
            siftDown(0)
        }
    }

    /// What was kept, sorted by start, end and title.
    func sorted() -> [Occurrence] { items.sorted(by: Self.precedes) }

    // A max-heap: the latest kept occurrence at the root, to be replaced by a sooner one.
    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(items[parent], items[child]) else { return }
            items.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < items.count && Self.precedes(items[largest], items[left]) { largest = left }
            if right < items.count && Self.precedes(items[largest], items[right]) { largest = right }
            guard largest != parent else { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}
