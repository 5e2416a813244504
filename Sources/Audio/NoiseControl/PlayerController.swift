import Foundation
import NoiseDSP
import NoiseEngine
import Synchronization

/// The control side of a running player: applies `ControlRequest`s to the live engine (as ramped
/// `EngineCommand`s, never touching the render thread directly), keeps the current mix, builds the
/// published `PlayerStatus` and feeds the Last Mix saver.
///
/// Runs on the control socket's thread and the publisher's thread; its state sits behind a mutex
/// that the render thread never takes.
public final class PlayerController: Sendable {
    /// Ramp for a slider moved over the socket: smooth, and still heard within the output latency.
    public static let controlRampSeconds = 0.05
    public static let pauseFadeSeconds = 0.3
    public static let resumeFadeSeconds = 0.5
    public static let stopFadeSeconds = 0.5

    struct State {
        var mix: Mix
        var presetID: String?
        var isPaused = false
        /// Muted: the engine's master is at 0 while `mix.masterVolume` keeps the level to go back to.
        var isMuted = false
        var output: PlayerStatus.Output
        var timerRequest: TimerRequest?
        /// The timer the latest request set (nil: off), told while the engine has not applied it yet.
        var requestedTimerEndsAt: Date?
        /// The running timer's fade-out (nil: no timer set through this controller).
        var timerFadeSeconds: Double?
        /// What the timer's end does (`then`); back to `.stop` when the timer is switched off.
        var timerEnd = TimerEnd.stop
    }

    /// The latest `timer` request (nil `seconds`: switched off), numbered so observers can tell a
    /// new one; known at once, while the engine reports a timer only after its next block.
    public struct TimerRequest: Equatable, Sendable {
        public var seconds: Double?
        public var serial: Int
    }

    public let player: LivePlayer
    let state: Mutex<State>
    let saver: LastMixSaver?
    public let presets: PresetLibrary
    /// Says why the end of the timer cannot `suspend` or `poweroff` here (logind does not answer),
    /// or nil when it can; asked before a `then` request is taken. nil: every action is taken.
    let timerEndProblem: (@Sendable (TimerEnd) -> String?)?
    let stopRequestedFlag = Atomic<Bool>(false)
    /// Set once the publisher exists (publishing needs the controller's snapshot first).
    let publisherBox = Mutex<StatusPublisher?>(nil)
    /// Told after every change, whoever made it (the MPRIS player listens here). Called on the
    /// thread that made the change, never the render thread: observers must only wake their own.
    let changeObservers = Mutex<[@Sendable () -> Void]>([])

    public init(
        player: LivePlayer, mix: Mix, presetID: String?, output: PlayerStatus.Output,
        saver: LastMixSaver?, presets: PresetLibrary = .standard(),
        timerEndProblem: (@Sendable (TimerEnd) -> String?)? = nil
    ) {
        self.player = player
        self.state = Mutex(State(mix: mix, presetID: presetID, output: output))
        self.saver = saver
        self.presets = presets
        self.timerEndProblem = timerEndProblem
    }

    /// What the end of the timer does now (the session acts on it when the timer has ended).
    public var timerEnd: TimerEnd { state.withLock { $0.timerEnd } }

    /// Records the timer a session starts with (`noise play --timer --fade --then`), which it
    /// gives the engine itself before the player starts.
    public func noteStartingTimer(seconds: Double, fadeSeconds: Double, then end: TimerEnd) {
        state.withLock {
            $0.timerFadeSeconds = min(fadeSeconds, seconds)
            $0.timerEnd = end
        }
    }

    /// Records the mix as the Last Mix, playing (call once the player really plays).
    public func saveLastMix() {
        let s = state.withLock { $0 }
        saver?.submit(mix: s.mix, presetID: s.presetID, wasPlaying: true)
    }

    public func attach(_ publisher: StatusPublisher) { publisherBox.withLock { $0 = publisher } }

    public func addChangeObserver(_ observer: @escaping @Sendable () -> Void) {
        changeObservers.withLock { $0.append(observer) }
    }

    /// True once a client asked the player to stop (`noise stop`).
    public var stopRequested: Bool { stopRequestedFlag.load(ordering: .relaxed) }

    public var mix: Mix { state.withLock { $0.mix } }
    /// Paused by a request (pause, toggle, MPRIS); the session gives logind's idle lock back then.
    public var isPaused: Bool { state.withLock { $0.isPaused } }
    public var presetID: String? { state.withLock { $0.presetID } }
    public var timerRequest: TimerRequest? { state.withLock { $0.timerRequest } }

    public func setOutput(_ output: PlayerStatus.Output) {
        state.withLock { $0.output = output }
        publish()
    }

    /// The status right now.
    public func status(state override: PlayerStatus.State? = nil, now: Date = Date()) -> PlayerStatus {
        let s = state.withLock { $0 }
        let engine = player.snapshot()
        var status = PlayerStatus(
            state: override ?? (s.isPaused ? .paused : .playing), mix: s.mix, presetID: s.presetID,
            output: s.output, updatedAt: now)
        if status.state != .stopped {
            // A timer request waits for the render thread's next block (a device write away, 85 ms at
            // most): until then the engine still reports the timer before it, so say the requested one.
            let remaining =
                engine.isTimerSettled || s.timerRequest == nil
                ? engine.timerRemainingSeconds : s.requestedTimerEndsAt.map { $0.timeIntervalSince(now) }
            // Whole seconds, rounded up (0.2 s left is "1 s left", not "0").
            status.timerRemainingSeconds = remaining.map { max(0, $0.rounded(.up)) }
            status.timerEndsAt = remaining.map { now.addingTimeInterval($0) }
            if remaining != nil {
                status.timerFadeSeconds = s.timerFadeSeconds ?? RenderPlan.defaultFadeSeconds
                status.timerThen = s.timerEnd
            }
        }
        status.muted = s.isMuted
        status.notch = player.masterFilter.notch.map {
            Mix.Notch(centreHz: $0.centreHz, widthOctaves: $0.widthOctaves, depthDb: $0.depthDb)
        }
        status.hearing = player.masterFilter.correction == nil ? nil : (player.hearingLabel ?? "on")
        if status.state != .stopped { status.scheduling = player.scheduling }
        status.levelDbfs = engine.rmsDbfs.isFinite ? (engine.rmsDbfs * 10).rounded() / 10 : nil
        status.underruns = engine.underruns
        return status
    }

    /// Applies one request; the reply carries the status after it. A change is recorded only once
    /// the engine accepted it, so the status never describes a sound that is not playing.
    public func handle(_ request: ControlRequest) -> ControlResponse {
        let busy = ControlResponse.error(
            "the player is busy (256 changes are waiting, e.g. while its output reconnects); try again")
        do {
            switch request {
            case let .setLayer(index, change):
                var mix = self.mix
                try mix.apply(change, toLayer: index)
                guard
                    player.send(
                        .setLayer(
                            index: index, settings: mix.layerSettings[index], rampSeconds: Self.controlRampSeconds))
                else { return busy }
                state.withLock { $0.mix.layers = mix.layers }
            case let .setMaster(volume):
                var mix = self.mix
                try mix.setMaster(volume)
                guard player.send(.setMaster(volume: Float(volume), rampSeconds: Self.controlRampSeconds)) else {
                    return busy
                }
                state.withLock {
                    $0.mix.masterVolume = volume
                    $0.isMuted = false
                }
            case let .adjustMaster(delta):
                // Relative to the level the user set (also while muted: a volume key unmutes).
                var mix = self.mix
                let volume = min(max(mix.masterVolume + delta, Mix.volumeRange.lowerBound), Mix.volumeRange.upperBound)
                try mix.setMaster((volume * 1000).rounded() / 1000)
                guard player.send(.setMaster(volume: Float(mix.masterVolume), rampSeconds: Self.controlRampSeconds))
                else { return busy }
                state.withLock {
                    $0.mix.masterVolume = mix.masterVolume
                    $0.isMuted = false
                }
            case let .notch(notch):
                let design = MasterFilterDesign(correction: player.masterFilter.correction, notch: notch?.settings)
                guard player.setMasterFilter(design) else { return busy }
                state.withLock { $0.mix.notch = notch }
            case let .hearing(label, centres, gains):
                let curve = centres.isEmpty ? nil : CorrectionCurve(centresHz: centres, gainsDb: gains)
                guard player.setMasterFilter(MasterFilterDesign(correction: curve, notch: player.masterFilter.notch))
                else { return busy }
                player.hearingLabel = curve == nil ? nil : label
            case let .mute(muted):
                let level = muted ? 0 : self.mix.masterVolume
                guard player.send(.setMaster(volume: Float(level), rampSeconds: Self.controlRampSeconds)) else {
                    return busy
                }
                state.withLock { $0.isMuted = muted }
            case .toggle:
                let paused = state.withLock { $0.isPaused }
                guard
                    player.send(
                        .fade(
                            position: paused ? 1 : 0, seconds: paused ? Self.resumeFadeSeconds : Self.pauseFadeSeconds))
                else { return busy }
                state.withLock { $0.isPaused = !paused }
            case let .preset(id, crossfadeSeconds):
                var (entry, mix) = try presets.load(id)
                try mix.validate()
                // The master is the user's: a preset switch keeps it (built-in presets are all
                // normalised at one master, so the loudness stays too; see docs/sound.md).
                mix.masterVolume = self.mix.masterVolume
                guard switchTo(mix, presetID: entry.id, rampSeconds: crossfadeSeconds) else { return busy }
            case .pause:
                guard player.send(.fade(position: 0, seconds: Self.pauseFadeSeconds)) else { return busy }
                state.withLock { $0.isPaused = true }
            case .resume:
                guard player.send(.fade(position: 1, seconds: Self.resumeFadeSeconds)) else { return busy }
                state.withLock { $0.isPaused = false }
            case .stop:
                stopRequestedFlag.store(true, ordering: .relaxed)
                player.stop(fadeSeconds: Self.stopFadeSeconds)
            case let .timer(seconds, fadeSeconds):
                let command: EngineCommand =
                    seconds.map {
                        .setTimer(seconds: $0, fadeSeconds: min(fadeSeconds ?? RenderPlan.defaultFadeSeconds, $0))
                    } ?? .cancelTimer
                let requestedAt = Date()
                guard player.send(command) else { return busy }
                state.withLock {
                    $0.timerRequest = TimerRequest(seconds: seconds, serial: ($0.timerRequest?.serial ?? 0) + 1)
                    $0.requestedTimerEndsAt = seconds.map { requestedAt.addingTimeInterval($0) }
                    $0.timerFadeSeconds = seconds.map { min(fadeSeconds ?? RenderPlan.defaultFadeSeconds, $0) }
                    if seconds == nil { $0.timerEnd = .stop }
                }
            case let .then(end):
                guard status().timerRemainingSeconds != nil else {
                    return .error("'then' needs a running sleep timer; set one first ('noise timer 30m')")
                }
                if end != .stop, let problem = timerEndProblem?(end) { return .error(problem) }
                state.withLock { $0.timerEnd = end }
            case .status, .subscribe:
                return .ok(status())
            case let .savePreset(name):
                state.withLock { $0.presetID = name }
            case let .forgetPreset(name):
                state.withLock { if $0.presetID == name { $0.presetID = nil } }
            }
        } catch {
            return .error("\(error)")
        }
        let s = state.withLock { $0 }
        saver?.submit(mix: s.mix, presetID: s.presetID, wasPlaying: true)
        publish()
        return .ok(status())
    }

    /// Morphs every layer and the master to `mix` over `rampSeconds` (a crossfade of settings: one
    /// machine, so no doubled level and no click).
    /// Returns false when the engine's queue had no room for all five changes.
    @discardableResult
    public func switchTo(_ mix: Mix, presetID: String?, rampSeconds: Double) -> Bool {
        let ramp = max(rampSeconds, Self.controlRampSeconds)
        var accepted = true
        for (i, settings) in mix.layerSettings.enumerated() {
            accepted = player.send(.setLayer(index: i, settings: settings, rampSeconds: ramp)) && accepted
        }
        let muted = state.withLock { $0.isMuted }
        accepted = player.send(.setMaster(volume: muted ? 0 : Float(mix.masterVolume), rampSeconds: ramp)) && accepted
        state.withLock {
            $0.mix = mix
            $0.presetID = presetID
        }
        return accepted
    }

    func notifyObservers() {
        for observer in changeObservers.withLock({ $0 }) { observer() }
    }

    func publish() {
        notifyObservers()
        publisherBox.withLock { $0 }?.publishNow()
    }

    /// Saves the Last Mix one last time: `wasPlaying` says whether a login should resume it.
    public func finish(wasPlaying: Bool) {
        let s = state.withLock { $0 }
        saver?.submit(mix: s.mix, presetID: s.presetID, wasPlaying: wasPlaying)
        saver?.close()
    }
}
