import Foundation
import TestSupport
import Testing

/// The Play Preset widget (issue 42 item 4): a design whose one button plays its preset, the
/// preset checked against the library when it is set, and a press that makes a real player on a
/// private PulseAudio play it: `weaver tap` with no player starts `noise play --preset`, and the
/// home screen's `POST /api/designs/ID/tap` switches the running player; the lock-screen families
/// press the same way.
@Suite(.serialized)
struct PlayPresetWidgetTests {
    @Test func aTapPlaysTheDesignsPresetAndSwitchesARunningPlayer() throws {
        let rig = try ServeRig()
        defer { rig.stop() }
        let made = try rig.weaver(["designs", "new", "--template", "play-preset", "--name", "Sea"])
        #expect(made.status == 0, "\(made.stderrText)")
        // The preset is checked against the presets `noise play` finds, and its form first.
        let unknown = try rig.weaver(["designs", "set", "Sea", "presetButton.preset=nope"])
        #expect(unknown.status != 0 && unknown.stderrText.contains("no preset named 'nope'"), "\(unknown.stderrText)")
        let bad = try rig.weaver(["designs", "set", "Sea", "preset=Ocean!"])
        #expect(bad.status != 0 && bad.stderrText.contains("is not a preset id"), "\(bad.stderrText)")
        let set = try rig.weaver(["designs", "set", "Sea", "presetButton.preset=ocean"])
        #expect(set.status == 0, "\(set.stderrText)")

        // The one renderer lays the button out over the whole widget, with its preset.
        let layout = try rig.weaver(["render", "Sea", "--family", "small", "--format", "json", "-o", "-"])
        #expect(layout.status == 0, "\(layout.stderrText)")
        #expect(layout.stdoutText.contains(#""kind": "playPreset""#), "\(layout.stdoutText)")
        #expect(layout.stdoutText.contains(#""preset": "ocean""#), "\(layout.stdoutText)")
        #expect(layout.stdoutText.contains("Ocean") && layout.stdoutText.contains("Tap to play"))

        // No player: the tap starts one playing the preset.
        let tap = try rig.weaver(["tap", "Sea", "--family", "small", "--at", "80,120"])
        #expect(tap.status == 0 && tap.stdoutText.contains("Playing Ocean"), "\(tap.stdoutText) \(tap.stderrText)")
        let playing = rig.waitForStatus(10) {
            $0["state"] as? String == "playing" && $0["presetID"] as? String == "ocean"
        }
        #expect(playing != nil, "\(rig.status() ?? [:])")
        let text = try rig.weaver(["render", "Sea", "--family", "small", "--format", "txt", "-o", "-"])
        #expect(text.stdoutText.contains("Playing"), "the widget says its preset plays: \(text.stdoutText)")

        // A running player is switched by the home screen's tap route.
        #expect(try rig.weaver(["designs", "set", "Sea", "presetButton.preset=rain"]).status == 0)
        try rig.startServer()
        let list = try rig.weaver(["designs", "list", "--json"])
        let designs = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        let id = try #require(designs.first { $0["name"] as? String == "Sea" }?["id"] as? String)
        let pressed = try rig.post(
            "/api/designs/\(id)/tap", #"{"family":"circular","x":38,"y":38}"#, token: try rig.token())
        #expect(pressed.status == 200 && pressed.text.contains("Playing Rain"), "\(pressed.status) \(pressed.text)")
        let pid = playing?["pid"] as? Int
        let rain = rig.waitForStatus(5) { $0["presetID"] as? String == "rain" && $0["state"] as? String == "playing" }
        #expect(rain != nil, "\(rig.status() ?? [:])")
        #expect(rain?["pid"] as? Int == pid, "the same player switched, not a second one")
        #expect(try rig.noise(["stop"]).status == 0)
    }
}
