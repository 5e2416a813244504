import Foundation
import TestSupport
import Testing

/// Explore's pictures are drawn once and kept until what they show changes: every picture the
/// page asks for, fetched twice in a row (the second pass all from the cache, faster, the same
/// bytes), then a store change (a reminders list added by `weaver reminders`) redraws them.
@Suite(.serialized)
struct ExploreCacheTests {
    static func pictures(_ page: String) -> [String] {
        page.matches(of: /src="(\/api\/explore\/[^"]+)"/).map { $0.1.replacingOccurrences(of: "&amp;", with: "&") }
    }

    static func header(_ reply: RawHTTP.Reply, _ name: String) -> String? {
        reply.headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    @Test func aSecondVisitIsServedFromTheCacheUntilTheStoreChanges() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        try rig.startServer()
        let paths = Self.pictures(try RawHTTP.send(port: rig.port, path: "/explore").text)
        #expect(paths.count >= 100, "\(paths.count) pictures")

        func pass() throws -> (seconds: Double, hits: Int, bodies: [String: [UInt8]]) {
            let start = Date()
            var hits = 0
            var bodies: [String: [UInt8]] = [:]
            for p in paths {
                let r = try RawHTTP.send(port: rig.port, path: p)
                #expect(r.status == 200, "\(p): \(r.text.prefix(200))")
                if Self.header(r, "X-WidgetWeaver-Cache") == "hit" { hits += 1 }
                bodies[p] = r.body
            }
            return (Date().timeIntervalSince(start), hits, bodies)
        }
        // The minute tick empties the cache: start just after one so both passes fall in one minute.
        // The clock, not a state of the server, is what the passes must avoid: 40 s clear of a minute.
        MinuteBoundary.waitUntilNoneWithin(39.5)
        let first = try pass()
        let again = try pass()
        print(
            """
            Explore pictures: \(paths.count) requests, first visit \(String(format: "%.2f", first.seconds)) s, \
            second \(String(format: "%.2f", again.seconds)) s
            """
        )
        #expect(again.hits == paths.count, "\(again.hits) of \(paths.count) from the cache")
        #expect(again.bodies == first.bodies)
        #expect(again.seconds < first.seconds, "first \(first.seconds) s, second \(again.seconds) s")

        // A browser holding a picture revalidates it: 304 with no body while nothing changed.
        let one = try #require(paths.first { $0.contains("/reminders.svg?family=medium") } ?? paths.first)
        let held = try RawHTTP.send(port: rig.port, path: one)
        let etag = try #require(Self.header(held, "ETag"))
        let revalidated = try RawHTTP.send(port: rig.port, path: one, headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)

        // The store changes under the server (the CLI, not the API): the watcher empties the cache.
        let todo = rig.store.deletingLastPathComponent().appendingPathComponent("todo.txt")
        try Data(TodoFixture.text().utf8).write(to: todo)
        #expect(try rig.weaver(["reminders", "add", todo.path]).status == 0)
        #expect(try rig.weaver(["reminders", "refresh", "--quiet"]).status == 0)
        let path = "/api/explore/reminders.svg?family=medium"
        #expect(first.bodies[path] != nil)
        let redrawn = eventually(10) {
            guard let r = try? RawHTTP.send(port: rig.port, path: path) else { return false }
            return Self.header(r, "X-WidgetWeaver-Cache") == "miss" && r.body != first.bodies[path]
        }
        #expect(redrawn, "the Reminders picture still shows the old store")
        let stale = try RawHTTP.send(port: rig.port, path: one, headers: [("If-None-Match", etag)])
        #expect(stale.status == 200, "an old ETag still matched")
    }
}
