import BoundedJSON
import Foundation
import NoiseControl
import NoiseEngine
import TestSupport
import Testing

@Suite struct LastMixStoreTests {
    @Test func roundTripsEveryField() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        let when = Date(timeIntervalSince1970: 1_767_225_600)
        let value = LastMix(mix: sleepMix, presetID: "sleep", wasPlaying: true, resumeOnLaunch: true, updatedAt: when)
        try store.save(value)
        let load = try store.load()
        #expect(load.lastMix == value)
        #expect(load.missingFields.isEmpty)
        #expect(load.repairs.isEmpty)
        #expect(load.setAsideAt == nil)
        #expect(fileMode(store.url.path) == 0o600)
    }

    /// A Last Mix of textures read back as plain noise before (the Noise page's board found it).
    @Test func texturesWithTheirDensityAndBrightnessRoundTrip() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        let mix = Mix(
            name: "Textures", masterVolume: 0.8,
            layers: [
                Mix.Layer(volume: 0.5, texture: .drops, densityPerSecond: 60),
                Mix.Layer(volume: 0.6, texture: .crackle, densityPerSecond: 6, brightness: 0.7),
                Mix.Layer(volume: 0.7, texture: .crackle), Mix.Layer(colour: 2),
            ])
        let value = LastMix(mix: mix, updatedAt: Date(timeIntervalSince1970: 1_767_225_600))
        try store.save(value)
        let load = try store.load()
        #expect(load.lastMix == value)
        #expect(load.repairs.isEmpty)
        // An unknown texture is repaired to noise, naming the choices; a stray brightness on drops is dropped.
        let text =
            #"{"schemaVersion":1,"mix":{"name":"M","masterVolume":0.5,"layers":[{"texture":"hail","eq":{}},"#
            + #"{"texture":"drops","brightness":0.5,"densityPerSecond":9999,"eq":{}}]},"wasPlaying":false,"#
            + #""resumeOnLaunch":false,"updatedAt":"2026-01-01T00:00:00Z"}"#
        try Data(text.utf8).write(to: store.url)
        let repaired = try store.load()
        let layers = try #require(repaired.lastMix?.mix.layers)
        #expect(layers[0].texture == nil && layers[1].texture == .drops)
        #expect(layers[1].brightness == nil && layers[1].densityPerSecond == nil)
        #expect(repaired.repairs.map(\.path) == ["mix.layers[0].texture", "mix.layers[1].densityPerSecond"])
        #expect(repaired.repairs.first?.problem.contains("noise, drops, crackle") == true, "\(repaired.repairs)")
    }

    @Test func missingFileIsNoLastMix() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let load = try LastMixStore(root: box.root).load()
        #expect(load.lastMix == nil)
        #expect(load.messages.isEmpty)
    }

    /// The seed app resets the whole mix when one field is missing; we default only that field.
    @Test func missingFieldsGetDefaultsAndTheRestIsKept() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        let text = """
            {"schemaVersion":1,"mix":{"name":"Mine","layers":[{"volume":0.3,"colour":1.7},{"enabled":false,\
            "colour":0.2,"eq":{"lowDb":4}}]},
             "wasPlaying":true}
            """
        try Data(text.utf8).write(to: store.url)
        let load = try store.load()
        let last = try #require(load.lastMix)
        #expect(last.mix.name == "Mine")
        #expect(last.mix.masterVolume == 0.7)
        #expect(last.mix.layers.count == 2)
        #expect(last.mix.layers[0] == Mix.Layer(enabled: true, volume: 0.3, colour: 1.7))
        #expect(last.mix.layers[1].enabled == false)
        #expect(last.mix.layers[1].volume == 0.8)
        #expect(last.mix.layers[1].eq == Mix.EQ(lowDb: 4, midDb: 0, highDb: 0))
        #expect(last.wasPlaying == true)
        #expect(last.resumeOnLaunch == false)
        #expect(last.presetID == nil)
        #expect(load.missingFields.contains("mix.masterVolume"))
        #expect(load.missingFields.contains("resumeOnLaunch"))
        // Missing fields are normal (older files): nothing is moved aside.
        #expect(load.setAsideAt == nil)
        #expect(FileManager.default.fileExists(atPath: store.url.path))
    }

    @Test func unusableFieldsAreRepairedAndTheOriginalIsKeptAside() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        let text = """
            {"schemaVersion":1,"mix":{"name":"Mine","masterVolume":"loud","layers":[{"volume":3,"colour":1.2,\
            "lowCutHz":900,"highCutHz":600},{"volume":0.5}]},
             "presetID":"../etc","wasPlaying":"yes","resumeOnLaunch":true,"updatedAt":"2026-01-01T00:00:00Z"}
            """
        let original = Data(text.utf8)
        try original.write(to: store.url)
        let load = try store.load()
        let last = try #require(load.lastMix)
        #expect(last.mix.masterVolume == 0.7)
        #expect(last.mix.layers[0].volume == 0.8)
        #expect(last.mix.layers[0].colour == 1.2)
        #expect(last.mix.layers[0].lowCutHz == nil)
        #expect(last.mix.layers[0].highCutHz == 600)
        #expect(last.mix.layers[1].volume == 0.5)
        #expect(last.presetID == nil)
        #expect(last.wasPlaying == false)
        #expect(last.resumeOnLaunch == true)
        let paths = Set(load.repairs.map(\.path))
        #expect(
            paths == ["mix.masterVolume", "mix.layers[0].volume", "mix.layers[0].lowCutHz", "presetID", "wasPlaying"])
        let aside = try #require(load.setAsideAt)
        #expect(try Data(contentsOf: aside) == original)
        #expect(aside.lastPathComponent.hasPrefix("last-mix.json.corrupt-"))
        #expect(load.messages.contains { $0.contains(aside.path) })
        #expect(load.messages.contains { $0.contains("mix.layers[0].volume: 3 is out of range 0…1") })
        // The repaired mix took the file's place and now reads cleanly.
        let again = try store.load()
        #expect(again.lastMix == last)
        #expect(again.repairs.isEmpty)
    }

    @Test(arguments: ["{\"mix\": {", "not json", "[1,2,3]x", String(repeating: "[", count: 100)])
    func unparseableFileIsSetAsideNeverOverwritten(_ text: String) throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: store.url)
        let load = try store.load()
        #expect(load.lastMix == nil)
        let aside = try #require(load.setAsideAt)
        #expect(try String(contentsOf: aside, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
        #expect(load.messages.first?.contains("could not be read") == true)
    }

    @Test func oversizedFileIsSetAside() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        try Data(repeating: 0x20, count: LastMixStore.maximumFileBytes + 1).write(to: store.url)
        let load = try store.load()
        #expect(load.lastMix == nil)
        #expect(load.setAsideAt != nil)
        #expect(load.setAsideReason?.contains("limit") == true)
    }

    /// Version 0 was a bare mix file in place of the Last Mix.
    @Test func migratesABareMixFile() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        try sleepMix.encodedJSON().write(to: store.url)
        let load = try store.load()
        #expect(load.lastMix?.mix == sleepMix)
        #expect(load.lastMix?.schemaVersion == 1)
        #expect(load.repairs.isEmpty)
        let (value, _) = try store.update { $0.wasPlaying = true }
        #expect(value.mix == sleepMix)
        let raw = try JSONValue.parse(try Data(contentsOf: store.url))
        #expect(raw["schemaVersion"] == .number(1))
        #expect(raw["mix"]?["name"] == .string("Sleep"))
    }

    @Test func newerSchemaIsReadButTheOriginalIsKept() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try FileManager.default.createDirectory(at: box.store, withIntermediateDirectories: true)
        var value = LastMix(mix: sleepMix, presetID: "sleep", wasPlaying: true, resumeOnLaunch: true)
        value.schemaVersion = 7
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        try e.encode(value).write(to: store.url)
        let load = try store.load()
        #expect(load.lastMix?.mix == sleepMix)
        #expect(load.setAsideAt != nil)
        #expect(load.repairs.first?.path == "schemaVersion")
    }

    @Test func updateStartsFromTheDefaultMixAndKeepsOtherFields() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try store.update { $0.resumeOnLaunch = true }
        try store.update { try $0.mix.apply(LayerChange([.volume: 0.25]), toLayer: 2) }
        let last = try #require(try store.load().lastMix)
        #expect(last.resumeOnLaunch)
        #expect(last.mix.layers.count == 3)
        #expect(last.mix.layers[2].volume == 0.25)
        #expect(last.mix.layers[2].enabled == false)
        #expect(last.mix.layers[0] == LastMix.defaultMix.layers[0])
    }

    @Test func aFailedEditWritesNothing() throws {
        let box = try Sandbox()
        defer { box.remove() }
        let store = LastMixStore(root: box.root)
        try store.save(LastMix(mix: sleepMix))
        let before = try Data(contentsOf: store.url)
        let error = #expect(throws: MixError.self) {
            try store.update { try $0.mix.apply(LayerChange(lowCutHz: .hz(1500), highCutHz: .hz(800)), toLayer: 1) }
        }
        #expect(error?.description == "layers[1].lowCutHz: 1500 Hz must be below highCutHz (800 Hz)")
        #expect(try Data(contentsOf: store.url) == before)
    }
}
