import Foundation
import NoiseControl
import NoiseEngine
import SharedStore
import Testing
import WidgetDesign
import WidgetInputs

@testable import WidgetRender

@Suite struct InputsTests {
    func root() throws -> StoreRoot {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ww-inputs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return StoreRoot(url: dir)
    }

    @Test func noiseStateReadsTheStatusFeedAndTreatsADeadPlayerAsStopped() throws {
        let r = try root()
        try LastMixStore(root: r).save(LastMixFixtures.lastMix)
        var live = LastMixFixtures.status(.playing, updatedAt: Fixtures.now.addingTimeInterval(-1))
        try StatusStore(root: r).write(live)
        let playing = NoiseWidgetState.load(from: r, now: Fixtures.now)
        #expect(playing.playback == .playing && playing.mixName == "Sleep" && playing.resumeOnLaunch)
        // The same status from a process that no longer exists: stopped, showing the Last Mix.
        live.pid = 999_999
        try StatusStore(root: r).write(live)
        let dead = NoiseWidgetState.load(from: r, now: Fixtures.now)
        #expect(dead.playback == .stopped && dead.mixName == "Deep Focus")
        // Nothing at all: the default mix, stopped.
        let empty = NoiseWidgetState.load(from: try root(), now: Fixtures.now)
        #expect(empty == .default)
    }

    /// A day's all-day event starts at midnight, before its meetings: Next Up still shows the next
    /// timed event (the seed's rule), and an all-day event, when it is all that is left, reads
    /// "All day" rather than "00:00–00:00". Read from the snapshot file as `weaver calendar` writes it.
    @Test func nextUpPrefersTimedEventsAndSaysAllDay() throws {
        let r = try root()
        try FileManager.default.createDirectory(at: r.snapshots, withIntermediateDirectories: true)
        func write(_ events: String) throws {
            try Data(#"{"schemaVersion":1,"access":"authorized","events":[\#(events)]}"#.utf8)
                .write(to: r.snapshots.appendingPathComponent("calendar.json"))
        }
        let holiday =
            #"{"title":"Bank holiday","start":"2026-01-24T00:00:00Z","end":"2026-01-25T00:00:00Z","isAllDay":true}"#
        try write(holiday + "," + #"{"title":"Stand-up","start":"2026-01-24T10:00:00Z","end":"2026-01-24T10:15:00Z"}"#)
        let renderer = WidgetRenderer()
        func nextUp() throws -> String {
            let cal = try #require(CalendarSnapshot.load(from: r))
            var inputs = Fixtures.inputs()
            inputs.calendar = cal
            inputs.context.timeZone = TimeZone(identifier: "UTC")!
            return renderer.text(
                renderer.layout(design: Fixtures.design("next-up"), family: .medium, scale: 2, inputs: inputs))
        }
        let timed = try nextUp()
        #expect(timed.contains("Stand-up") && !timed.contains("Bank holiday"), "\(timed)")
        #expect(timed.contains("10:00–10:15"), "\(timed)")
        try write(holiday)
        let allDay = try nextUp()
        #expect(allDay.contains("Bank holiday") && allDay.contains("All day") && !allDay.contains("00:00"), "\(allDay)")
    }
}
