import AudioSinkBase
import NoiseDSP
import Synchronization
import SystemCalls

/// Live playback: a `NoiseMachine` rendered on a dedicated real-time thread into an `AudioSink`.
///
/// The control side (any one thread) sends `EngineCommand`s through a lock-free queue and reads the
/// engine's state from atomics; the render thread never allocates, locks, logs or touches files.
/// If the output fails, the render thread stops and reports `.outputLost`; the control side may
/// open a new sink and `start` again: the machine (and so the sound) carries on where it was.
public final class LivePlayer: @unchecked Sendable {
    public struct Options: Sendable {
        public var sampleRate: Int = 48000
        public var channelCount: Int = 2
        /// Frames per write: 1024 at 48 kHz is 21 ms, well inside a 150 ms device buffer. The
        /// command line sizes it from the latency (`blockFrames(latencySeconds:)`).
        public var blockFrames: Int = 1024
        public var fadeInSeconds: Double = 3
        /// SCHED_FIFO priority to ask for (1…99); 0 does not ask.
        public var realTimePriority: Int32 = 10

        public init() {}

        /// See `PlaybackBlock` (the sink sizes its buffer from the same rule).
        public static func blockFrames(latencySeconds: Double, sampleRate: Int) -> Int {
            PlaybackBlock.frames(latencySeconds: latencySeconds, sampleRate: sampleRate)
        }
    }

    public enum RunState: Int, Sendable {
        case idle = 0
        case running, finished, outputLost
    }

    /// A consistent-enough snapshot for status displays (each field is read atomically).
    public struct Snapshot: Sendable {
        public var state: RunState
        public var framesRendered: Int64
        public var peakDbfs: Double
        public var rmsDbfs: Double
        public var underruns: Int
        public var faderPosition: Float
        public var timerRemainingSeconds: Double?
        /// The sound server holds the output (corked for a call): nothing is rendered until it lets go.
        public var isHeld: Bool = false
        /// False while a timer command sent to the engine waits for the render thread (up to a block
        /// and a device write): `timerRemainingSeconds` still describes the timer before it.
        public var isTimerSettled: Bool = true
    }

    public let options: Options
    public let seed: UInt64
    /// Posted when the render thread ends (finished or output lost), so a waiter need not poll.
    public let ended: WakeSignal?
    let machine: NoiseMachine
    let commands = SPSCQueue<EngineCommand>(capacity: 256)
    let producerLock = Mutex(())
    /// NaN until `stop` is called; then the fade-out length.
    let stopFadeBits = Atomic<UInt64>(Double.nan.bitPattern)
    var timeline: PlaybackTimeline
    var sink: (any AudioSink)?
    var thread: RenderThread?

    // Render thread → control side.
    let runState = Atomic<Int>(RunState.idle.rawValue)
    let frames = Atomic<Int64>(0)
    let peakBits = Atomic<UInt32>(0)
    let meanSquareBits = Atomic<UInt32>(0)
    let underruns = Atomic<Int>(0)
    let faderBits = Atomic<UInt32>(0)
    let timerRemainingBits = Atomic<UInt64>(Double.nan.bitPattern)
    /// Timer commands pushed (counted under `producerLock`) and applied by the render thread (stored
    /// after `timerRemainingBits`), so a reader can tell a published timer that is already out of date.
    let timerCommandsSent = Atomic<Int>(0)
    let timerCommandsApplied = Atomic<Int>(0)
    /// The output is held by the sound server (corked for a call): nothing is being rendered.
    let held = Atomic<Bool>(false)
    /// Written by the render thread just before it publishes `.outputLost` (release/acquire on runState).
    private var outputFailure: AudioOutputError?
    /// 0: not yet known; > 0: the SCHED_FIFO priority granted; < 0: −errno of the refusal.
    private let schedulingResult = Atomic<Int>(0)
    /// The render thread's kernel id once it has started, else 0.
    private let renderThreadTID = Atomic<Int32>(0)
    /// What raised the render thread after its SCHED_FIFO request was refused (rtkit, a nice
    /// level), or why nothing could: set from the control side (`noteScheduling`), never read by
    /// the render thread.
    private let raisedScheduling = Mutex<(description: String, isRealTime: Bool)?>(nil)

    /// The master filter's next design, handed to the render thread without a lock: the control
    /// side fills `filterMailbox` while `filterMailboxFull` is false and then sets it; the render
    /// thread copies the sections into the machine and clears it.
    let filterMailbox: UnsafeMutablePointer<BiquadCoefficientsF>
    let filterMailboxFull = Atomic<Bool>(false)
    let filterRampSeconds = Atomic<UInt64>(0)
    /// What the master filter is set to (control side only).
    public private(set) var masterFilter: MasterFilterDesign
    /// How the hearing correction in use is said (`noise status`): "the profile of <device>".
    public var hearingLabel: String?

    /// Builds and pre-rolls the machine (allocates: call before real time starts).
    /// - Parameter hearing: the hearing correction on the master (the mix's notch comes with the mix).
    public init(
        mix: Mix, seed: UInt64, options: Options = Options(), ended: WakeSignal? = nil,
        hearing: CorrectionCurve? = nil
    ) {
        filterMailbox = .allocate(capacity: MasterFilter.capacity)
        filterMailbox.initialize(repeating: .identity, count: MasterFilter.capacity)
        masterFilter = MasterFilterDesign(correction: hearing, notch: mix.notch?.settings)
        self.options = options
        self.seed = seed
        self.ended = ended
        machine = NoiseMachine(
            spec: ProcessSpec(
                sampleRate: Double(options.sampleRate), maximumFrameCount: options.blockFrames,
                channelCount: options.channelCount),
            seed: seed, layers: mix.layerSettings, masterVolume: Float(mix.masterVolume),
            faderPosition: options.fadeInSeconds > 0 ? 0 : 1, masterFilter: masterFilter)
        machine.preroll()
        if options.fadeInSeconds > 0 { machine.fade(to: 1, seconds: options.fadeInSeconds) }
        timeline = PlaybackTimeline(sampleRate: Double(options.sampleRate))
    }

    /// Starts (or, after `.outputLost`, restarts) rendering into `sink`. A restart fades back in
    /// over `fadeInSeconds` to wherever the fader was heading (a paused player stays silent).
    public func start(sink: any AudioSink, fadeInSeconds: Double? = nil) throws {
        precondition(thread == nil, "start called while the render thread runs")
        if let fadeInSeconds {
            let target = machine.faderTarget
            machine.fade(to: 0, seconds: 0)
            machine.fade(to: target, seconds: fadeInSeconds)
        }
        self.sink = sink
        outputFailure = nil
        runState.store(RunState.running.rawValue, ordering: .releasing)
        // If the thread cannot start, nothing runs: say so instead of claiming "running".
        defer { if thread == nil { runState.store(RunState.idle.rawValue, ordering: .releasing) } }
        thread = try RenderThread(
            name: "noise-render", priority: options.realTimePriority,
            report: { [unowned self] r in
                self.renderThreadTID.store(r.threadID, ordering: .relaxed)
                self.schedulingResult.store(
                    r.realTimePriority.map { Int($0) } ?? -Int(r.refusal ?? EPERM), ordering: .releasing)
            },
            body: { [unowned self] in self.renderLoop(sink) })
    }

    /// Sends a control change; false if the queue is full (256 changes pending, e.g. while the
    /// output is gone and nothing renders). Safe from any number of control threads: they take
    /// turns on a lock the render thread never touches (it only pops).
    @discardableResult
    public func send(_ command: EngineCommand) -> Bool {
        producerLock.withLock { _ in
            guard commands.push(command) else { return false }
            switch command {
            case .setTimer, .cancelTimer: timerCommandsSent.add(1, ordering: .relaxed)
            default: break
            }
            return true
        }
    }

    deinit { filterMailbox.deallocate() }

    /// Moves the master filter (hearing correction, notch) to `design`, ramped over `rampSeconds`
    /// on the render thread. Designs the sections here (allocates; control side). False when the
    /// render thread did not take a previous change in time (see `setMasterFilter(sections:)`).
    @discardableResult
    public func setMasterFilter(_ design: MasterFilterDesign, rampSeconds: Double = MasterFilter.defaultRampSeconds)
        -> Bool
    {
        let sections = design.sections(sampleRate: Double(options.sampleRate))
        let done = setMasterFilter(sections: sections, rampSeconds: rampSeconds)
        if done { masterFilter = design }
        return done
    }

    /// Hands `sections` (at most `MasterFilter.capacity`) to the render thread. Waits, up to about a
    /// second, for it to take a previous change still in the mailbox; false when it did not
    /// (nothing renders, e.g. while the output is gone).
    @discardableResult
    public func setMasterFilter(sections: [BiquadCoefficientsF], rampSeconds: Double) -> Bool {
        producerLock.withLock { _ in
            var waited = 0
            while filterMailboxFull.load(ordering: .acquiring) {
                if state != .running || waited >= 1000 { return false }
                usleep(1000)
                waited += 1
            }
            let n = min(sections.count, MasterFilter.capacity)
            for i in 0..<MasterFilter.capacity { filterMailbox[i] = i < n ? sections[i] : .identity }
            filterRampSeconds.store(rampSeconds.bitPattern, ordering: .relaxed)
            filterMailboxFull.store(true, ordering: .releasing)
            return true
        }
    }

    /// Fades out over `fadeSeconds` and finishes. Sticky: later fades cannot undo it, and it does
    /// not travel through the queue, so it is never lost to a full one.
    public func stop(fadeSeconds: Double) {
        _ = stopFadeBits.compareExchange(
            expected: Double.nan.bitPattern, desired: max(0, fadeSeconds).bitPattern, ordering: .releasing)
    }

    /// Waits for the render thread to end (after `.finished` or `.outputLost`) and returns the sink
    /// it used, for the caller to drain and close.
    @discardableResult
    public func join() -> (any AudioSink)? {
        thread?.join()
        thread = nil
        let s = sink
        sink = nil
        return s
    }

    public var state: RunState { RunState(rawValue: runState.load(ordering: .acquiring)) ?? .idle }

    /// Why the output stopped, once `state` is `.outputLost`.
    public var failure: AudioOutputError? { state == .outputLost ? outputFailure : nil }

    /// What to do about the render thread's scheduling: nil with real-time priority (or before it
    /// started), else why it has none and how to allow it.
    public var schedulingAdvice: String? {
        if raisedScheduling.withLock({ $0?.isRealTime }) == true { return nil }
        let r = schedulingResult.load(ordering: .acquiring)
        return r < 0 ? RenderThread.SchedulingReport(refusal: Int32(-r)).advice : nil
    }

    /// What the render thread got: real-time or normal scheduling and why; nil until it has started.
    public var scheduling: String? {
        if let raised = raisedScheduling.withLock({ $0 }) { return raised.description }
        let r = schedulingResult.load(ordering: .acquiring)
        if r == 0 { return nil }
        return
            (r > 0
            ? RenderThread.SchedulingReport(realTimePriority: Int32(r))
            : RenderThread.SchedulingReport(refusal: Int32(-r))).description
    }

    /// Why the render thread's own SCHED_FIFO request was refused (errno's text), nil when it
    /// was granted or before the thread has started.
    public var schedulingRefusal: String? {
        let r = schedulingResult.load(ordering: .acquiring)
        return r < 0 ? SystemCallError.reason(Int32(-r)) : nil
    }

    /// The render thread's kernel thread id, 0 before it has started.
    public var renderThreadID: Int32 { renderThreadTID.load(ordering: .acquiring) }

    /// Records what the control side got for the render thread after the refusal (`noise play`
    /// asks rtkit, then for a nice level); `scheduling` says it from then on.
    public func noteScheduling(_ description: String, isRealTime: Bool) {
        raisedScheduling.withLock { $0 = (description, isRealTime) }
    }

    public func snapshot() -> Snapshot {
        let peak = Float(bitPattern: peakBits.load(ordering: .relaxed))
        let ms = Float(bitPattern: meanSquareBits.load(ordering: .relaxed))
        // Applied first (acquiring): the remaining time read after it is at least that recent.
        let applied = timerCommandsApplied.load(ordering: .acquiring)
        let remaining = Double(bitPattern: timerRemainingBits.load(ordering: .relaxed))
        let sent = timerCommandsSent.load(ordering: .relaxed)
        return Snapshot(
            state: state, framesRendered: frames.load(ordering: .relaxed),
            peakDbfs: peak > 0 ? 20 * log10(Double(peak)) : -.infinity,
            rmsDbfs: ms > 0 ? 10 * log10(Double(ms)) : -.infinity,
            underruns: underruns.load(ordering: .relaxed),
            faderPosition: Float(bitPattern: faderBits.load(ordering: .relaxed)),
            timerRemainingSeconds: remaining.isNaN ? nil : remaining,
            isHeld: held.load(ordering: .relaxed), isTimerSettled: applied >= sent)
    }

    /// The render thread's whole life: apply pending commands, render a block, write it, publish.
    ///
    /// Real-time safety: the buffer is allocated before the loop; inside it there is no allocation,
    /// lock, logging or file I/O; only the device write blocks.
    private func renderLoop(_ sink: any AudioSink) {
        let channels = options.channelCount
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: options.blockFrames * channels)
        defer { buffer.deallocate() }
        var stopping = false
        var timerCommands = 0
        while true {
            while let command = commands.pop() {
                switch command {
                case let .setLayer(index, settings, ramp): machine.setLayer(index, settings, rampSeconds: ramp)
                case let .setMaster(volume, ramp): machine.setMasterVolume(volume, rampSeconds: ramp)
                case let .fade(position, seconds): if !stopping { machine.fade(to: position, seconds: seconds) }
                case let .setTimer(seconds, fade):
                    timeline.setTimer(seconds: seconds, fadeSeconds: fade, machine: machine)
                    timerCommands += 1
                case .cancelTimer:
                    timeline.cancelTimer(machine: machine)
                    timerCommands += 1
                }
            }
            // Published before the block is written (a write waits up to a block for room), so a
            // changed timer is visible at once; again after the block with its time taken off.
            timerRemainingBits.store((timeline.remainingSeconds ?? .nan).bitPattern, ordering: .relaxed)
            timerCommandsApplied.store(timerCommands, ordering: .releasing)
            if filterMailboxFull.load(ordering: .acquiring) {
                machine.setMasterFilter(
                    filterMailbox, count: MasterFilter.capacity,
                    rampSeconds: Double(bitPattern: filterRampSeconds.load(ordering: .relaxed)))
                filterMailboxFull.store(false, ordering: .releasing)
            }
            if !stopping {
                let stopFade = Double(bitPattern: stopFadeBits.load(ordering: .acquiring))
                if !stopFade.isNaN {
                    stopping = true
                    machine.fade(to: 0, seconds: stopFade)
                }
            }
            if timeline.isFinished || (stopping && machine.isSilenced) {
                runState.store(RunState.finished.rawValue, ordering: .releasing)
                ended?.post()
                return
            }
            do {
                // Held by the server (a call corked us): render nothing, so the sound goes on where
                // it stopped; commands are still taken every 50 ms, and a stop ends it at once.
                if try sink.isHeld(waitingUpTo: 0.05) {
                    held.store(true, ordering: .relaxed)
                    if stopping {
                        runState.store(RunState.finished.rawValue, ordering: .releasing)
                        ended?.post()
                        return
                    }
                    continue
                }
                held.store(false, ordering: .relaxed)
                let n = timeline.nextBlockFrames(options.blockFrames)
                timeline.render(machine, into: buffer, frameCount: n)
                try sink.write(buffer, frameCount: n)
            } catch {
                outputFailure = error
                runState.store(RunState.outputLost.rawValue, ordering: .releasing)
                ended?.post()
                return
            }
            frames.store(timeline.framesRendered, ordering: .relaxed)
            peakBits.store(machine.lastBlockPeak.bitPattern, ordering: .relaxed)
            meanSquareBits.store(machine.lastBlockMeanSquare.bitPattern, ordering: .relaxed)
            underruns.store(sink.underrunCount, ordering: .relaxed)
            faderBits.store(machine.faderPosition.bitPattern, ordering: .relaxed)
            timerRemainingBits.store((timeline.remainingSeconds ?? .nan).bitPattern, ordering: .relaxed)
            timerCommandsApplied.store(timerCommands, ordering: .releasing)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
