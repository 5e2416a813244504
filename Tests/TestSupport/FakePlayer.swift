import Foundation
import NoiseControl
import NoiseEngine
import Synchronization

/// The mix `FakePlayer` starts with: two layers, master 70 %.
public let sleepMix = Mix(
    name: "Sleep", description: "test", masterVolume: 0.7,
    layers: [
        Mix.Layer(
            enabled: true, volume: 0.8, colour: 1.8, lowCutHz: 20, highCutHz: 6000,
            eq: Mix.EQ(lowDb: 2, midDb: -3, highDb: -8)),
        Mix.Layer(enabled: true, volume: 0.45, colour: 1.0, lowCutHz: 200, highCutHz: 4000),
    ])

/// Stands in for the live player: keeps a mix and transport state in memory and answers the
/// control protocol the way the engine will.
public final class FakePlayer: Sendable {
    public struct State {
        public var mix = sleepMix
        public var presetID: String? = "sleep"
        public var state = PlayerStatus.State.playing
        public var timerEndsAt: Date?
        public var fadeSeconds: Double?
        public var savedPresets: [String] = []
        public var muted = false
        public var requests: [ControlRequest] = []
    }

    public let state = Mutex(State())

    public init() {}

    public func status() -> PlayerStatus {
        state.withLock { s in
            var st = PlayerStatus(
                state: s.state, mix: s.mix, presetID: s.presetID,
                output: .init(backend: "null", device: "test"))
            st.levelDbfs = -23.5
            st.underruns = 2
            st.muted = s.muted
            st.timerEndsAt = s.timerEndsAt
            st.timerRemainingSeconds = s.timerEndsAt.map { $0.timeIntervalSinceNow }
            return st
        }
    }

    public var handler: @Sendable (ControlRequest) -> ControlResponse {
        { [self] request in handle(request) }
    }

    public func handle(_ request: ControlRequest) -> ControlResponse {
        let result: String? = state.withLock { s in
            s.requests.append(request)
            switch request {
            case .setLayer(let index, let change):
                do { try s.mix.apply(change, toLayer: index) } catch { return "\(error)" }
            case .setMaster(let v):
                do { try s.mix.setMaster(v) } catch { return "\(error)" }
            case .preset(let id, _): s.presetID = id
            case .pause: s.state = .paused
            case .resume: s.state = .playing
            case .stop: s.state = .stopped
            case .timer(let seconds, let fade):
                s.timerEndsAt = seconds.map { Date().addingTimeInterval($0) }
                s.fadeSeconds = fade
            case .savePreset(let name):
                s.savedPresets.append(name)
                s.presetID = name
            case .forgetPreset(let name): if s.presetID == name { s.presetID = nil }
            case .toggle: s.state = s.state == .paused ? .playing : .paused
            case .adjustMaster(let d):
                do { try s.mix.setMaster(min(max(s.mix.masterVolume + d, 0), 1)) } catch { return "\(error)" }
                s.muted = false
            case .mute(let m): s.muted = m
            case .notch(let n): s.mix.notch = n
            case .then: if s.timerEndsAt == nil { return "'then' needs a running sleep timer" }
            case .status, .subscribe, .hearing: break
            }
            return nil
        }
        if let result { return .error(result) }
        return .ok(status())
    }
}

extension FakePlayer {
    /// A control server on `box`'s socket answering as this player, started; the caller stops it.
    public func served(in box: Sandbox) throws -> ControlServer {
        let server = ControlServer(socketPath: box.socket, handler: handler)
        try server.start()
        return server
    }
}
