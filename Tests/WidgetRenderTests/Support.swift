import Foundation
import NoiseControl
import NoiseEngine

#if canImport(FoundationXML)
    import FoundationXML
#endif

enum XMLCheck {
    static func isWellFormed(_ text: String) -> Bool {
        final class Delegate: NSObject, XMLParserDelegate {
            var failed = false
            func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failed = true }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let d = Delegate()
        parser.delegate = d
        return parser.parse() && !d.failed
    }
}

enum LastMixFixtures {
    static let lastMix = LastMix(
        mix: Mix(name: "Deep Focus", masterVolume: 0.6, layers: [Mix.Layer(enabled: true, volume: 0.55, colour: 2)]),
        presetID: "deep-focus", wasPlaying: false, resumeOnLaunch: true,
        updatedAt: Fixtures.now.addingTimeInterval(-3600))

    static func status(_ state: PlayerStatus.State, updatedAt: Date) -> PlayerStatus {
        var s = PlayerStatus(
            state: state, presetName: "Sleep", masterVolume: 0.5,
            layers: [Mix.Layer(enabled: true, volume: 0.8, colour: 2)],
            timerRemainingSeconds: 600, output: .init(backend: "null", device: "null"), updatedAt: updatedAt)
        s.pid = getpid()
        return s
    }
}
