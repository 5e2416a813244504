import Foundation
import NoiseControl
import NoiseEngine
import Testing

@testable import MPRISPlayer

@Suite struct MPRISPropertiesTests {
    @Test func trackIDsAreValidObjectPaths() {
        #expect(MPRISProperties.trackID(presetID: "sleep") == "/org/widgetweaver/noise/preset/sleep")
        #expect(MPRISProperties.trackID(presetID: "deep-focus") == "/org/widgetweaver/noise/preset/deep_2dfocus")
        #expect(MPRISProperties.trackID(presetID: "my_mix") == "/org/widgetweaver/noise/preset/my_5fmix")
        #expect(MPRISProperties.trackID(presetID: nil) == "/org/widgetweaver/noise/mix/custom")
        for id in ["a-b", "x_y", "ünï", "9"] {
            let path = MPRISProperties.trackID(presetID: id)
            #expect(
                path.split(separator: "/").allSatisfy {
                    $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                }, "\(path)")
        }
    }

    @Test func metadataAndStatusFollowThePlayer() {
        var status = PlayerStatus(
            state: .paused, presetName: "Rain", presetID: "rain", masterVolume: 0.4, layers: [],
            output: .init(backend: "pulse", device: ""))
        var timer = SleepTimerTrack()
        var p = MPRISProperties.player(status: status, stopping: false, timer: timer)
        #expect(p["PlaybackStatus"] == .string("Paused"))
        #expect(p["Volume"] == .double(0.4))
        guard case .dictionary(let m)? = p["Metadata"] else {
            Issue.record("no metadata")
            return
        }
        #expect(m["xesam:title"] == .string("Rain") && m["xesam:artist"] == .strings(["WidgetWeaver"]))
        #expect(m["mpris:length"] == nil && m["mpris:artUrl"] == nil)
        status.state = .playing
        timer.request(seconds: 1800, now: 100)
        p = MPRISProperties.player(status: status, stopping: true, timer: timer)
        #expect(p["PlaybackStatus"] == .string("Stopped"))
        guard case .dictionary(let m2)? = p["Metadata"] else {
            Issue.record("no metadata")
            return
        }
        #expect(m2["mpris:length"] == .int64(1_800_000_000))
        #expect(MPRISProperties.root(desktopEntry: nil)["DesktopEntry"] == nil)
        #expect(
            MPRISProperties.root(desktopEntry: "widgetweaver-noise")["DesktopEntry"] == .string("widgetweaver-noise"))
    }

    @Test func sleepTimerTrack() {
        var t = SleepTimerTrack()
        // Set at start: first seen 0.05 s later, read as the whole 60 s.
        t.update(remainingSeconds: 59.95, now: 10)
        #expect(t.lengthSeconds == 60)
        t.update(remainingSeconds: 49.95, now: 20)
        #expect(t.lengthSeconds == 60)
        #expect(abs(t.positionSeconds(now: 20) - 10.05) < 1e-9)
        // A request outranks the engine's stale report until the engine agrees.
        t.request(seconds: 300, now: 21)
        t.update(remainingSeconds: 48.9, now: 21.05)
        #expect(t.lengthSeconds == 300)
        t.update(remainingSeconds: 299.9, now: 21.1)
        #expect(t.lengthSeconds == 300)
        t.request(seconds: nil, now: 22)
        t.update(remainingSeconds: 298.9, now: 22.02)
        #expect(t.lengthSeconds == nil)
        t.update(remainingSeconds: nil, now: 22.05)
        #expect(t.lengthSeconds == nil && t.positionSeconds(now: 23) == 0)
        // An engine that never agrees is followed again after a second.
        t.request(seconds: 100, now: 30)
        t.update(remainingSeconds: nil, now: 31.5)
        #expect(t.lengthSeconds == nil)
    }

    @Test func desktopEntryIsFoundWhereShellsLook() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mpris-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let apps = dir.appendingPathComponent("b/applications")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let env = ["HOME": dir.path, "XDG_DATA_DIRS": "\(dir.path)/a:\(dir.path)/b"]
        #expect(DesktopEntry.installedID(environment: env) == nil)
        try Data("[Desktop Entry]\n".utf8).write(to: apps.appendingPathComponent("widgetweaver-noise.desktop"))
        #expect(DesktopEntry.installedID(environment: env) == "widgetweaver-noise")
        #expect(
            DesktopEntry.searchFolders(environment: ["HOME": "/h"]) == [
                "/h/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications",
            ])
    }
}
