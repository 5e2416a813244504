import Foundation
import NoiseControl
import NoiseEngine
import Testing

/// A preset switch keeps the master the user set; movement changes reach the mix.
@Suite struct PresetSwitchTests {
    static let presets = PresetLibrary(folders: [
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Presets")
    ])

    func controller() throws -> PlayerController {
        let (_, sleep) = try Self.presets.load("sleep")
        let player = LivePlayer(mix: sleep, seed: 1)
        return PlayerController(
            player: player, mix: sleep, presetID: "sleep", output: .init(backend: "none", device: ""),
            saver: nil, presets: Self.presets)
    }

    @Test func presetSwitchKeepsTheUsersMaster() throws {
        let c = try controller()
        #expect(c.mix.masterVolume == Mix.referenceMasterVolume)  // first play: the preset's own
        guard case .ok = c.handle(.setMaster(volume: 0.55)) else {
            Issue.record("setMaster refused")
            return
        }
        guard case .ok(let status?) = c.handle(.preset(id: "rain", crossfadeSeconds: 1)) else {
            Issue.record("preset refused")
            return
        }
        let (_, rain) = try Self.presets.load("rain")
        #expect(status.mix.layers == rain.layers)
        #expect(status.mix.masterVolume == 0.55)
        #expect(c.presetID == "rain")
        // Built-in presets share the reference master, so at the user's master they stay level with each other.
        var a = rain, b = try Self.presets.load("sleep").mix
        a.masterVolume = 0.55
        b.masterVolume = 0.55
        #expect(abs(a.predictedLoudness().loudnessLufs - b.predictedLoudness().loudnessLufs) < 0.5)
    }

    @Test func movementChangesReachTheMix() throws {
        let c = try controller()
        let change = LayerChange([.movementPeriodSeconds: 12, .movementLevelDb: 4])
        guard case .ok(let status?) = c.handle(.setLayer(index: 0, change: change)) else {
            Issue.record("refused")
            return
        }
        #expect(status.mix.layers[0].movement == Mix.Movement(periodSeconds: 12, levelDb: 4, highCutOctaves: 0))
        guard case .ok(let still?) = c.handle(.setLayer(index: 0, change: LayerChange([.movementLevelDb: 0]))) else {
            Issue.record("refused")
            return
        }
        #expect(still.mix.layers[0].movement == nil)
        // Cut movement on a layer without a high cut is refused with the field named.
        var noCut = LayerChange(highCutHz: .off)
        noCut[.movementHighCutOctaves] = 1
        guard case .error(let message) = c.handle(.setLayer(index: 0, change: noCut)) else {
            Issue.record("accepted")
            return
        }
        #expect(message.contains("layers[0].movement.highCutOctaves"), "\(message)")
    }

    @Test func movementTravelsOverTheProtocol() throws {
        let request = ControlRequest.setLayer(
            index: 2,
            change: LayerChange([.movementPeriodSeconds: 8, .movementLevelDb: 6, .movementHighCutOctaves: 0.5]))
        #expect(try ControlRequest.decode(request.encoded()) == request)
    }
}
