import Foundation
import NoiseControl
import NoiseEngine
import TestSupport
import Testing

@Suite struct ProtocolTests {
    static let requests: [ControlRequest] = [
        .setLayer(
            index: 0,
            change: LayerChange(
                [.volume: 0.5, .colour: 1.2, .eqLowDb: -3, .eqMidDb: 0.5, .eqHighDb: 12], enabled: true,
                lowCutHz: .off, highCutHz: .hz(8000))),
        .setLayer(index: 3, change: LayerChange(enabled: false)),
        .setMaster(volume: 0.7), .preset(id: "deep-focus", crossfadeSeconds: 3), .pause, .resume, .stop,
        .timer(seconds: 1800, fadeSeconds: 60), .timer(seconds: nil, fadeSeconds: nil), .status, .subscribe,
        .savePreset(name: "my_mix-2"),
        .forgetPreset(name: "my_mix-2"), .then(.suspend), .then(.poweroff), .then(.stop),
    ]

    @Test(arguments: requests)
    func requestsRoundTrip(_ request: ControlRequest) throws {
        let line = request.encoded()
        #expect(!line.contains(0x0A))
        #expect(try ControlRequest.decode(line) == request)
    }

    @Test(arguments: [
        ("{\"command\":\"setLayer\",\"layer\":4,\"change\":{\"volume\":1}}", "'layer' 4 is out of range; allowed 0…3"),
        (
            "{\"command\":\"setLayer\",\"layer\":0,\"change\":{\"volume\":1.5}}",
            "'change.volume' 1.5 is out of range; allowed 0…1"
        ),
        (
            "{\"command\":\"setLayer\",\"layer\":0,\"change\":{\"lowCutHz\":5}}",
            "'change.lowCutHz' 5 Hz is out of range; allowed 0 (off) or 10…2000 Hz"
        ),
        (
            "{\"command\":\"setLayer\",\"layer\":0,\"change\":{\"eqMidDb\":-13}}",
            "'change.eqMidDb' -13 is out of range; allowed -12…12"
        ),
        ("{\"command\":\"setLayer\",\"layer\":0,\"change\":{}}", "'change' has no fields"),
        ("{\"command\":\"setLayer\",\"layer\":0.5,\"change\":{\"volume\":1}}", "'layer' must be a whole number"),
        (
            "{\"command\":\"setLayer\",\"layer\":0,\"change\":{\"volume\":true}}",
            "'change.volume' must be a number, found boolean"
        ),
        ("{\"command\":\"setMaster\",\"volume\":0.5,\"extra\":1}", "'extra' is not a known field"),
        ("{\"command\":\"setMaster\"}", "'volume' is missing"),
        ("{\"command\":\"preset\",\"id\":\"../x\"}", "'id' must be a preset id (a-z, 0-9, '-', '_', at most 64)"),
        (
            "{\"command\":\"timer\",\"seconds\":10,\"fadeSeconds\":20}",
            "'fadeSeconds' must not be longer than 'seconds'"
        ),
        ("{\"command\":\"explode\"}", "unknown command 'explode'"),
        (
            "{\"command\":\"then\",\"action\":\"hibernate\"}",
            "'action' hibernate is not an action; allowed stop, suspend or poweroff"
        ),
        ("{\"command\":\"then\"}", "'action' is missing"),
        ("[1,2]", "a request must be a JSON object, found array"),
        ("{\"command\":\"pause\",\"command\":\"stop\"}", "duplicate key"),
        ("{\"command\": 3}", "'command' is missing or not a string"),
    ])
    func badRequestsAreRefusedWithReasons(_ text: String, _ expected: String) {
        #expect {
            _ = try ControlRequest.decode(Data(text.utf8))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    /// `1e400` reaches the reader as infinity: the socket says it is too large, with the range,
    /// where it used to say "'change.volume' must be a number, found number".
    @Test(arguments: [
        (
            #"{"command":"setLayer","layer":0,"change":{"volume":1e400}}"#,
            "'change.volume' is too large a number (beyond ±1.8e308); allowed 0…1"
        ),
        (
            #"{"command":"setLayer","layer":-1e400,"change":{"volume":1}}"#,
            "'layer' is too large a number (beyond ±1.8e308); allowed 0…3"
        ),
        (
            #"{"command":"setLayer","layer":0,"change":{"lowCutHz":1e400}}"#,
            "'change.lowCutHz' is too large a number (beyond ±1.8e308); allowed 0 (off) or 10…2000 Hz"
        ),
        (#"{"command":"setMaster","volume":1e400}"#, "'volume' is too large a number (beyond ±1.8e308); allowed 0…1"),
    ])
    func numbersTooLargeForADoubleAreSaidToBeTooLarge(_ text: String, _ expected: String) {
        #expect {
            _ = try ControlRequest.decode(Data(text.utf8))
        } throws: { error in
            "\(error)" == expected
        }
    }

    @Test func deepNestingIsRefusedWithoutRecursingFar() {
        let text =
            "{\"command\":\"status\",\"x\":" + String(repeating: "[", count: 10_000)
            + String(repeating: "]", count: 10_000) + "}"
        #expect(throws: ProtocolError.self) { _ = try ControlRequest.decode(Data(text.utf8)) }
    }

    @Test func oversizedRequestIsRefused() {
        let text = "{\"command\":\"status\",\"pad\":\"" + String(repeating: "a", count: 70_000) + "\"}"
        #expect { _ = try ControlRequest.decode(Data(text.utf8)) } throws: { "\($0)".contains("the limit is 65536") }
    }

    @Test func responsesRoundTrip() throws {
        let status = FakePlayer().status()
        let decoded = try ControlResponse.decode(ControlResponse.ok(status).encoded())
        guard case .ok(let s?) = decoded else {
            Issue.record("expected a status")
            return
        }
        #expect(s.layers == status.layers)
        #expect(s.presetID == "sleep")
        #expect(try ControlResponse.decode(ControlResponse.error("nope").encoded()) == .error("nope"))
        #expect(try ControlResponse.decode(ControlResponse.ok(nil).encoded()) == .ok(nil))
    }

    @Test func layerChangesAddMissingLayersSwitchedOff() throws {
        var mix = Mix(name: "One", layers: [Mix.Layer()])
        try mix.apply(LayerChange([.colour: 2]), toLayer: 2)
        #expect(mix.layers.count == 3)
        #expect(mix.layers[1].enabled == false)
        #expect(mix.layers[2].enabled == false && mix.layers[2].colour == 2)
        #expect(throws: MixError.self) { try mix.apply(LayerChange([.volume: 1]), toLayer: 4) }
        #expect(throws: MixError.self) { try mix.setMaster(1.01) }
    }
}

extension ControlRequest: CustomTestStringConvertible {
    public var testDescription: String { String(decoding: encoded(), as: UTF8.self) }
}
