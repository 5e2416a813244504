import AudioOutput
import Foundation
import NoiseControl
import NoiseEngine
import SharedStore

/// The browser's hearing calibration (Noise → Calibrate): one at a time per server, its steps
/// `HearingCalibration`'s and its sound `HearingProbe`'s, as in `noise hearing calibrate`. Every answer
/// is saved at once as the device's (unfinished) profile, so stopping, a closed tab or a restart
/// resumes where it was. A player running when it starts is paused, and resumed when it ends.
final class CalibrationDesk: @unchecked Sendable {
    struct Refusal: Error {
        var message: String
        var field: String?
        var isConflict = false
    }

    private struct Running {
        var calibration: HearingCalibration
        var probe: HearingProbe
        var device: String
        var gainDb: Double
        var resumePlayer: Bool
        var lastAnswer: Date
    }

    /// A calibration nobody answers stops (saved) after this long.
    static let idleSeconds = 300.0
    static let retestRange = 0...12

    let root: StoreRoot
    let client: ControlClient
    private let lock = NSLock()
    private var running: Running?
    private var message: String?
    private var watchdog: Task<Void, Never>?

    init(root: StoreRoot, client: ControlClient) {
        self.root = root
        self.client = client
    }

    var store: HearingProfileStore { HearingProfileStore(root: root) }

    // MARK: Devices

    struct Device {
        var name: String
        var description: String
    }

    /// The outputs a profile can be made for (PulseAudio sinks, else ALSA's default) and the one in use:
    /// the running player's, else the default.
    func devices() -> (list: [Device], inUse: String) {
        let sinks = (try? DeviceList.pulseSinks()) ?? []
        var list = sinks.map { Device(name: $0.name, description: $0.description) }
        if list.isEmpty { list = [Device(name: "default", description: "ALSA default")] }
        var inUse = sinks.first { $0.isDefault }?.name ?? list[0].name
        if let status = playerStatus(), list.contains(where: { $0.name == status.output.device }) {
            inUse = status.output.device
        }
        return (list, inUse)
    }

    private func playerStatus() -> PlayerStatus? {
        guard case .loaded(let status)? = try? StatusStore(root: root).read(), !status.isStale() else { return nil }
        return status
    }

    // MARK: Steps

    /// Starts (or resumes) a calibration of `device`.
    func start(device: String, level: Double, mode: HearingProfile.Mode, retest: Int, restart: Bool) throws(Refusal)
        -> String
    {
        lock.lock()
        defer { lock.unlock() }
        guard running == nil else {
            throw Refusal(message: "a calibration is already running: finish or stop it first", isConflict: true)
        }
        let known = devices().list
        guard known.contains(where: { $0.name == device }) else {
            throw Refusal(
                message: "'device' \(device) is not an output; allowed \(known.map(\.name).joined(separator: ", "))",
                field: "device")
        }
        let loaded: HearingProfileStore.Loaded
        do { loaded = try store.load(device: device) } catch {
            throw Refusal(message: "the stored profile of \(device) cannot be read: \(error)")
        }
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        var calibration: HearingCalibration
        var said: String
        if !restart, let p = loaded.profile, !p.complete {
            calibration = HearingCalibration(resuming: p, retestCount: retest, seed: seed)
            said = "Resuming the calibration of \(device): \(p.centresHz.count) bands done."
        } else {
            calibration = HearingCalibration(mode: mode, retestCount: retest, seed: seed)
            calibration.tinnitusHz = loaded.profile?.tinnitusHz
            said = "Calibrating \(device) (\(mode.rawValue) mode)."
        }
        for m in loaded.messages { said += " " + m }
        // The player's noise would mask the bands: pause it for the calibration.
        var resumePlayer = false
        if let status = playerStatus(), status.state == .playing, case .ok? = try? client.send(.pause) {
            resumePlayer = true
        }
        let selector = OutputSelector(
            backend: .auto, device: device == "default" ? nil : device, latencySeconds: 0.1,
            format: HearingProbe.format)
        let probe = HearingProbe(level: level, seed: seed)
        do {
            let sink = try selector.open()
            try probe.start(sink: sink)
        } catch {
            probe.stop()
            if resumePlayer { _ = try? client.send(.resume) }
            throw Refusal(message: "the output \(device) cannot be opened: \(error)", field: "device")
        }
        let step = calibration.next
        let gain = calibration.startingGainDb(step)
        probe.play(HearingProbe.cycle(for: step, mode: calibration.mode), gainDb: gain)
        running = Running(
            calibration: calibration, probe: probe, device: device, gainDb: gain, resumePlayer: resumePlayer,
            lastAnswer: Date())
        message = said
        startWatchdog()
        return said
    }

    /// Moves the sounding band to `gainDb` (dB re the reference, within `HearingCalibration.gainRange`).
    func setGain(_ gainDb: Double) throws(Refusal) {
        lock.lock()
        defer { lock.unlock() }
        guard var r = running else { throw Self.notRunning }
        r.gainDb = gainDb
        r.lastAnswer = Date()
        r.probe.setGain(gainDb)
        running = r
    }

    /// Takes `gainDb` as the answer to the current step (`band`, checked, so a late click cannot answer
    /// the next one), saves the profile and plays the next step; the last answer ends the calibration.
    func accept(gainDb: Double, centreHz: Double?) throws(Refusal) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard var r = running else { throw Self.notRunning }
        let step = r.calibration.next
        if let centreHz, case .band(let f, _) = step, f != centreHz {
            throw Refusal(message: "'centreHz' \(centreHz) is not the band playing (\(f) Hz)", field: "centreHz")
        }
        r.calibration.accept(step, gainDb: gainDb)
        let profile = r.calibration.profile(device: r.device)
        do { try store.save(profile, device: r.device) } catch {
            throw Refusal(message: "the profile cannot be saved: \(error)")
        }
        let next = r.calibration.next
        if next == .done {
            finish(r)
            var said = "Done: saved the profile of \(r.device)."
            if let s = profile.retestSpreadDb {
                said += String(
                    format: " Test-retest spread: %.1f dB (RMS over %d bands).", s, r.calibration.second.count)
            }
            message = said
            return said
        }
        r.gainDb = r.calibration.startingGainDb(next)
        r.lastAnswer = Date()
        r.probe.play(HearingProbe.cycle(for: next, mode: r.calibration.mode), gainDb: r.gainDb)
        running = r
        message = nil
        return "Saved."
    }

    /// Stops, keeping what was answered (the next start resumes it).
    func stop(reason: String = "Stopped") throws(Refusal) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let r = running else { throw Self.notRunning }
        finish(r)
        let said =
            "\(reason): \(r.calibration.first.count) bands of \(r.device) saved; Start resumes where you stopped."
        message = said
        return said
    }

    static let notRunning = Refusal(message: "no calibration is running: start one", isConflict: true)

    /// Ends the sound (the lock held) and resumes a player it paused.
    private func finish(_ r: Running) {
        running = nil
        watchdog?.cancel()
        watchdog = nil
        r.probe.stop()
        if r.resumePlayer { _ = try? client.send(.resume) }
    }

    private func startWatchdog() {
        watchdog?.cancel()
        watchdog = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                guard let self else { return }
                let idle = self.lock.withLock { self.running.map { Date().timeIntervalSince($0.lastAnswer) } }
                guard let idle else { return }
                if idle > Self.idleSeconds {
                    _ = try? self.stop(reason: "Stopped after \(Int(Self.idleSeconds / 60)) minutes without an answer")
                    return
                }
            }
        }
    }

    // MARK: State

    /// What the page shows: the step playing (if any), the devices and their profiles.
    func state() -> [String: Any] {
        let (list, inUse) = devices()
        let profiles = store.list()
        var o: [String: Any] = [:]
        lock.withLock {
            o["active"] = running != nil
            if let message { o["message"] = message }
            if let r = running {
                let step = r.calibration.next
                o["device"] = r.device
                o["mode"] = r.calibration.mode.rawValue
                o["gainDb"] = r.gainDb
                o["answered"] = r.calibration.first.count + r.calibration.second.count
                o["total"] = r.calibration.centresHz.count + r.calibration.retestCentresHz.count
                var s: [String: Any] = ["prompt": step.prompt(mode: r.calibration.mode)]
                switch step {
                case .referenceThreshold:
                    s["kind"] = "referenceThreshold"
                    s["centreHz"] = HearingCalibration.referenceHz
                case .band(let f, let pass):
                    s["kind"] = "band"
                    s["centreHz"] = f
                    s["pass"] = pass
                case .done: s["kind"] = "done"
                }
                o["step"] = s
            }
        }
        o["inUse"] = inUse
        o["devices"] = list.map { d -> [String: Any] in
            var e: [String: Any] = ["name": d.name, "description": d.description]
            if let p = profiles.first(where: { $0.device == d.name }), case .success(let profile) = p.profile {
                e["profile"] = Self.summary(profile)
            }
            return e
        }
        o["gainRange"] = [HearingCalibration.gainRange.lowerBound, HearingCalibration.gainRange.upperBound]
        o["stepDb"] = HearingCalibration.stepDb
        return o
    }

    static func summary(_ p: HearingProfile) -> [String: Any] {
        var o: [String: Any] = ["complete": p.complete, "bands": p.centresHz.count, "mode": p.mode.rawValue]
        if let s = p.retestSpreadDb { o["retestSpreadDb"] = (s * 10).rounded() / 10 }
        return o
    }
}
