import BoundedJSON
import CivilDates
import Foundation
import LoginEntryFiles
import SharedStore
import Testing

@Suite struct SharedStoreTests {
    func root() throws -> StoreRoot {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString.prefix(8))")
        return StoreRoot(url: url)
    }

    @Test func rootFollowsOverrideThenEnvironmentThenXDG() {
        #expect(StoreRoot.resolve(override: "/a", environment: ["WIDGETWEAVER_HOME": "/b"]).url.path == "/a")
        #expect(StoreRoot.resolve(environment: ["WIDGETWEAVER_HOME": "/b", "XDG_STATE_HOME": "/c"]).url.path == "/b")
        #expect(StoreRoot.resolve(environment: ["XDG_STATE_HOME": "/c", "HOME": "/h"]).url.path == "/c/widgetweaver")
        #expect(
            StoreRoot.resolve(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]).url.path
                == "/h/.local/state/widgetweaver")
    }

    /// Every login entry of both tools resolves what it points at here: `--store` first, then
    /// `$WIDGETWEAVER_HOME` (absolute, standardized), else no `--store` at all; entries under
    /// `$XDG_CONFIG_HOME`.
    @Test func loginEntryTargetNamesTheStoreTheCommandChose() {
        let exe = URL(fileURLWithPath: "/opt/ww/noise")
        let env = ["WIDGETWEAVER_HOME": "/b/./store/", "XDG_CONFIG_HOME": "/cfg", "HOME": "/h"]
        let chosen = LoginEntryTarget.resolve(executable: exe, storePath: "/a/../s", environment: env)
        #expect(chosen.storeDirectory == "/s" && chosen.configHome.path == "/cfg")
        #expect(chosen.command(["resume"]) == ["/opt/ww/noise", "resume", "--store", "/s"])
        let fromHome = LoginEntryTarget.resolve(executable: exe, storePath: nil, environment: env)
        #expect(fromHome.storeDirectory == "/b/store")
        let plain = LoginEntryTarget.resolve(executable: exe, storePath: "", environment: ["HOME": "/h"])
        #expect(plain.storeDirectory == nil && plain.configHome.path == "/h/.config")
        #expect(plain.command(["desktop"]) == ["/opt/ww/noise", "desktop"])
        #expect(plain.unitURL("u.service").path == "/h/.config/systemd/user/u.service")
        #expect(
            plain.wantsLinkURL("u.timer", wantedBy: "timers.target").path
                == "/h/.config/systemd/user/timers.target.wants/u.timer")
        #expect(plain.autostartURL("d.desktop").path == "/h/.config/autostart/d.desktop")
    }

    @Test func atomicWriteReplacesWholeFilesAndLeavesNoTemporaries() throws {
        let r = try root()
        try FileSystem.atomicWrite(Data("one".utf8), to: r.status)
        try FileSystem.atomicWrite(Data("two".utf8), to: r.status)
        #expect(try FileSystem.read(r.status) == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: r.url.path) == ["status.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: r.status.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func readRefusesOversizedFiles() throws {
        let r = try root()
        try FileSystem.atomicWrite(Data(count: 2000), to: r.status)
        #expect(throws: StoreError.self) { try FileSystem.read(r.status, limit: 1000) }
    }

    /// Issue 28 item 24: the library returns what to tell the user; it writes nothing to stderr.
    @Test func anUnreadableEntitlementIsReturnedAsAWarning() throws {
        let r = try root()
        let fresh = ProEntitlement.isUnlocked(r)
        #expect(!fresh.isUnlocked && fresh.warnings.isEmpty)
        try FileSystem.atomicWrite(Data("{\"unlocked\": yes".utf8), to: r.entitlement)
        let locked = ProEntitlement.isUnlocked(r)
        #expect(!locked.isUnlocked)
        #expect(locked.warnings.count == 1)
        #expect(
            locked.warnings.first?.hasPrefix("\(r.entitlement.path) could not be read (") == true, "\(locked.warnings)")
        #expect(locked.warnings.first?.hasSuffix("; Pro is locked until 'weaver pro unlock'") == true)
        #expect(ProEntitlement.isUnlocked(r).warnings.isEmpty, "told once: the file is out of the way")
        try ProEntitlement.set(true, root: r)
        #expect(ProEntitlement.isUnlocked(r).isUnlocked && ProEntitlement.isUnlocked(r).warnings.isEmpty)
        let moved = r.url.appendingPathComponent("pro.json.corrupt-20260124T093000Z")
        #expect(
            SetAsideNotice.text(reason: "invalid JSON", movedTo: moved)
                == "\(r.entitlement.path) could not be read (invalid JSON); it was moved to \(moved.path)")
    }

    @Test func corruptDocumentIsSetAsideNeverOverwritten() throws {
        let r = try root()
        try FileSystem.atomicWrite(Data("{not json".utf8), to: r.entitlement)
        let doc = ProEntitlement.document(r)
        guard case .setAside(let reason, let at) = try doc.load() else {
            Issue.record("expected set-aside")
            return
        }
        #expect(!reason.isEmpty)
        #expect(at.lastPathComponent.hasPrefix("pro.json.corrupt-"))
        #expect(try FileSystem.read(at) == Data("{not json".utf8))
        #expect(!FileManager.default.fileExists(atPath: r.entitlement.path))
    }

    @Test func lockedUpdatesFromManyThreadsLoseNothing() async throws {
        struct Counter: Codable { var value: Int }
        let r = try root()
        let doc = JSONDocument<Counter>(root: r, url: r.url.appendingPathComponent("counter.json"))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<25 { _ = try? doc.update { Counter(value: ($0?.value ?? 0) + 1) } } }
            }
        }
        guard case .loaded(let c) = try doc.load() else {
            Issue.record("not loaded")
            return
        }
        #expect(c.value == 200)
    }

    @Test func strictParserRefusesDuplicatesAndDepth() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(#"{"a":1,"a":2}"#.utf8)) }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(deep.utf8)) }
        do {
            _ = try JSONValue.parse(Data("{\n  \"a\": tru\n}".utf8))
        } catch let e as JSONParseError {
            #expect(e.line == 2)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct CivilCalendarTests {
    @Test func knownDatesAndRoundTrips() {
        #expect(CivilCalendar.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11017)
        #expect(CivilCalendar.daysSinceEpoch(year: 1969, month: 12, day: 31) == -1)
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let d = CivilCalendar.date(daysSinceEpoch: days)
            #expect(CivilCalendar.daysSinceEpoch(year: d.year, month: d.month, day: d.day) == days)
        }
        let newYear = CivilCalendar.date(daysSinceEpoch: 19_723)
        #expect(newYear.year == 2024 && newYear.month == 1 && newYear.day == 1)
    }

    /// The one `yyyy-MM-dd` reader of the template clock and the steps snapshot.
    @Test func dayStampsMustBeRealDates() {
        #expect(CivilCalendar.dayNumber("1970-01-02") == 1)
        #expect(CivilCalendar.dayNumber("2024-02-29") != nil && CivilCalendar.dayNumber("2026-02-29") == nil)
        for bad in ["2026-1-24", "2026-13-01", "26-01-24", "2026-01-24T00:00", "2026/01/24", "２026-01-24"] {
            #expect(CivilCalendar.dayNumber(bad) == nil, "\(bad)")
        }
    }
}
