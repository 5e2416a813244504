import BoundedJSON
import Foundation
import NoiseControl
import TestSupport
import Testing

/// What `noise status` shows a person and a bar: every key on a fresh store, the Last Mix when
/// stopped, and human lines when following.
@Suite struct StatusCommandTests {
    static let contractKeys: Set<String> = [
        "schemaVersion", "state", "presetName", "presetID", "masterVolume", "layers", "timerEndsAt",
        "timerRemainingSeconds", "timerFadeSeconds", "timerThen", "output", "levelDbfs", "underruns", "muted", "notch",
        "hearing", "scheduling", "pid", "updatedAt", "stale",
    ]

    /// 16 (5): `--json` printed `null` on a fresh store and after a corrupt file was set aside.
    @Test func jsonOnAFreshStoreIsTheStoppedObjectWithEveryKey() throws {
        let box = try Sandbox()
        defer { box.remove() }
        func check(_ label: String) throws {
            let r = try box.noise(["status", "--json"])
            #expect(r.status == 0, "\(label): \(r.stderrText)")
            guard case .object(let o) = try JSONValue.parse(r.stdout) else {
                Issue.record("\(label): not an object: \(r.stdoutText)")
                return
            }
            #expect(Set(o.keys) == Self.contractKeys, "\(label)")
            #expect(o["state"] == .string("stopped") && o["stale"] == .bool(false), "\(label)")
            #expect(
                o["output"] == .object(["backend": .string("none"), "device": .string(""), "lost": .bool(false)]),
                "\(label)")
        }
        try check("fresh store")
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        try Data("{\"state\": ".utf8).write(to: box.root.status)
        try check("after a corrupt status.json")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: box.store.path).contains {
                $0.hasPrefix("status.json.corrupt-")
            })
    }

    /// 16 (6): after `noise preset X` with no player, status showed the mix that last played. It says
    /// "Last Mix", not "Last played": the mix may have been set and never played.
    @Test func withNoPlayerStatusShowsTheLastMixStopped() throws {
        let box = try Sandbox()
        defer { box.remove() }
        var played = FakePlayer().status()
        played.state = .stopped
        try StatusStore(root: box.root).write(played)
        #expect(try box.noise(["preset", "rain"]).status == 0)
        var r = try box.noise(["status"])
        #expect(r.stdoutText.hasPrefix("Stopped. Last Mix: Rain (preset rain), master 90%."), "\(r.stdoutText)")
        r = try box.noise(["status", "--json"])
        let doc = try JSONValue.parse(r.stdout)
        #expect(doc["presetID"] == .string("rain") && doc["state"] == .string("stopped"))
        #expect(doc["layers"]?.arrayCount == 1)  // rain: one statistical texture (bed, taps, rings)
    }

    /// 16 (8): `--follow --format human` printed JSON lines.
    @Test func followHumanPrintsHumanLines() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let p = try ChildProcess(
            Products.url("noise").path, ["status", "--follow", "--format", "human"], environment: box.environment)
        defer {
            p.signal(SIGKILL)
            p.wait()
        }
        var s = FakePlayer().status()
        #expect(eventually { String(decoding: p.stdout, as: UTF8.self).contains("\n") })
        try StatusStore(root: box.root).write(s)
        s.state = .paused
        #expect(
            eventually {
                String(decoding: p.stdout, as: UTF8.self).contains("Playing Sleep (preset sleep), master 70%.\n")
            })
        try StatusStore(root: box.root).write(s)
        #expect(
            eventually {
                String(decoding: p.stdout, as: UTF8.self).contains("Paused: Sleep (preset sleep), master 70%.\n")
            })
        let text = String(decoding: p.stdout, as: UTF8.self)
        #expect(text.hasPrefix("Stopped. No player has run with this store yet.\n"), "\(text)")
        #expect(!text.contains("{"))
    }
}
