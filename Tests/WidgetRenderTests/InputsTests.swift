import Foundation
import NoiseControl
import NoiseEngine
import SharedStore
import Testing
import WidgetDesign
@testable import WidgetRender

@Suite struct InputsTests {
    func root() throws -> StoreRoot {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ww-inputs-\(UUID().uuidString.prefix(8))")
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
}
