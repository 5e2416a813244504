import DataSources
import Foundation
import LoginEntryFiles
import NoiseControl
import NoiseEngine
import PlayerStartup
import SharedStore
import TemplateLanguage
import WidgetDataKeys
import WidgetDesign
import WidgetRender

/// Performs widget button presses against the shared store and the running player, the way the
/// matching commands do (`weaver vars increment/set-now`, `noise pause/resume/stop/set`,
/// `noise autostart enable/disable`), so a button and a command never disagree.
public struct WidgetActionPerformer: Sendable {
    public static let layerRange = 1...4

    /// The shared store.
    public var store: StoreRoot
    /// The store folder to hand on to a player or login entry, when the user chose one explicitly.
    public var storeDirectory: String?
    /// Environment for the control socket's place, the XDG config folder and a started player.
    public var environment: [String: String]
    /// The `noise` program that plays (found beside this program or on $PATH when nil).
    public var noiseExecutable: URL?
    /// The clock and time zone of "Set variable to Now".
    public var now: @Sendable () -> Date
    public var timeZone: TimeZone
    /// nil: systemd when it runs the session, else XDG autostart.
    public var autostartMethod: Autostart.Method?
    /// How long a started player may take to answer.
    public var playerStartTimeoutSeconds: Double
    /// Pro for the action bar: nil follows the store's entitlement (`weaver pro unlock`); true
    /// unlocks it for these presses only, as `weaver tap --pro` (whose layout, drawn with
    /// `isPro: true`, is the one that showed the bar).
    public var isPro: Bool?

    /// Opens a link `OpenURLPolicy` accepted: `xdg-open LINK` on the desktop (`LinkOpener.xdgOpen`),
    /// started without a shell. The home screen passes the link to the browser instead.
    public var openLink: @Sendable (String) throws -> Void = {
        try LinkOpener.xdgOpen($0, environment: ProcessInfo.processInfo.environment)
    }

    public init(
        store: StoreRoot, storeDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        noiseExecutable: URL? = nil, now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current, autostartMethod: Autostart.Method? = nil,
        playerStartTimeoutSeconds: Double = 10, isPro: Bool? = nil
    ) {
        self.store = store
        self.storeDirectory = storeDirectory
        self.environment = environment
        self.noiseExecutable = noiseExecutable
        self.now = now
        self.timeZone = timeZone
        self.autostartMethod = autostartMethod
        self.playerStartTimeoutSeconds = playerStartTimeoutSeconds
        self.isPro = isPro
    }

    var client: ControlClient { ControlClient(socketPath: ControlPaths.socketURL(environment: environment)) }

    /// Performs `action`. Throws `WidgetActionError` (or a store error) saying why nothing was done.
    /// - Parameter title: the button's title as drawn (the laid-out action's `title`), so that a
    ///   message names the button the user pressed; nil: an action-bar button is named by the
    ///   title a blank one shows ("+1", "Done").
    public func perform(_ action: WidgetAction, title: String? = nil) throws -> WidgetActionOutcome {
        let shown = title ?? ActionArea.untitledActionBarTitle(for: action.kind)
        switch action {
        case .incrementVariable(let key, let amount): return try increment(key, amount, title: shown)
        case .setVariableToNow(let key, let format): return try setNow(key, format, title: shown)
        case .resetVariable(let key, let value): return try reset(key, to: value, title: shown)
        case .openURL(let link): return try open(link, title: shown)
        case .togglePlayPause: return try togglePlayPause()
        case .stop: return try stop()
        case .toggleLayer(let layer): return try toggleLayer(layer)
        case .toggleResumeOnLaunch: return try toggleResumeOnLaunch()
        case .completeReminder(let id): return try completeReminder(id)
        case .adjustTimer(let minutes): return try adjustTimer(minutes)
        case .playPreset(let id): return try playPreset(id)
        }
    }

    // MARK: - Action bar (Pro, as in the seed app, which draws the bar only with Pro)

    private func requirePro(title: String) throws {
        if isPro == true { return }
        // Unlocked gives no warnings: only a pro.json set aside (which locks) does, so it goes
        // into the refusal.
        let entitlement = isPro == false ? (isUnlocked: false, warnings: []) : ProEntitlement.isUnlocked(store)
        guard entitlement.isUnlocked else {
            let why = entitlement.warnings.map { " (\($0))" }.joined()
            throw WidgetActionError(
                """
                the '\(title)' button needs Pro: action-bar buttons write custom variables, a Pro feature; run \
                'weaver pro unlock' first\(why)
                """
            )
        }
    }

    private func increment(_ key: String, _ amount: Int, title: String) throws -> WidgetActionOutcome {
        try requirePro(title: title)
        guard FieldLimits.incrementAmount.contains(amount) else {
            throw WidgetActionError("the increment \(amount) is out of range; allowed -99…99")
        }
        // The seed's rule: an amount of 0 would do nothing, so it counts as 1.
        let step = amount == 0 ? 1 : amount
        var warnings: [String] = []
        let value: String
        do {
            value = try VariableStore(root: store).increment(key, by: Double(step)) { reason, url in
                warnings.append(SetAsideNotice.text(store.variables, reason: reason, movedTo: url))
            }
        } catch let e as VariableStoreError {
            throw WidgetActionError(e.description)
        }
        let canonical = KeyCanonicaliser.canonical(key)
        return WidgetActionOutcome(
            message: "\(canonical) is now \(value) (\(step > 0 ? "+" : "")\(step)).", warnings: warnings)
    }

    private func setNow(_ key: String, _ format: WidgetNowFormatToken, title: String) throws -> WidgetActionOutcome {
        try requirePro(title: title)
        var warnings: [String] = []
        let value: String
        do {
            value = try VariableStore(root: store).setNow(
                key, format: NowFormat(format), now: now(), timeZone: timeZone
            ) { reason, url in
                warnings.append(SetAsideNotice.text(store.variables, reason: reason, movedTo: url))
            }
        } catch let e as VariableStoreError {
            throw WidgetActionError(e.description)
        }
        return WidgetActionOutcome(message: "\(KeyCanonicaliser.canonical(key)) set to \(value).", warnings: warnings)
    }

    private func reset(_ key: String, to value: String, title: String) throws -> WidgetActionOutcome {
        try requirePro(title: title)
        guard value.count <= FieldLimits.maxResetValueCharacters else {
            throw WidgetActionError("the reset value is longer than \(FieldLimits.maxResetValueCharacters) characters")
        }
        var warnings: [String] = []
        let canonical: String
        do {
            // `set` returns the canonical key; the value is stored as given (validated there).
            canonical = try VariableStore(root: store).set(key, to: value) { reason, url in
                warnings.append("the variables file could not be read (\(reason)); it was moved to \(url.path)")
            }
        } catch let e as VariableStoreError {
            throw WidgetActionError(e.description)
        }
        return WidgetActionOutcome(message: "\(canonical) reset to \(value).", warnings: warnings)
    }

    /// Opening a link writes no variable, so it needs no Pro; the link is checked again here (a
    /// laid-out button may come from anywhere) before anything is started.
    private func open(_ link: String, title: String) throws -> WidgetActionOutcome {
        let checked: String
        do {
            checked = try OpenURLPolicy.check(link)
        } catch let e as DesignError {
            throw WidgetActionError("the '\(title)' button's link was not opened: \(e.message)")
        }
        try openLink(checked)
        return WidgetActionOutcome(message: "Opened \(checked).")
    }

    // MARK: - Reminders widget

    /// As the app's complete intent: the item's lines in its file, checked against the snapshot
    /// (`ReminderCompletion`); refused when the snapshot is stale, the last refresh failed, the
    /// source is an address, or the file changed since the snapshot.
    private func completeReminder(_ id: String) throws -> WidgetActionOutcome {
        guard !id.isEmpty else { throw WidgetActionError("the row names no reminder") }
        do {
            let out = try ReminderCompletion(service: RemindersService(root: store)).complete(
                id, now: now(), timeZone: timeZone)
            return WidgetActionOutcome(message: out.message, undo: WidgetActionUndo(completion: out.undo))
        } catch let e as DataSourceError {
            throw WidgetActionError(e.description)
        }
    }

    /// Takes a press back: a completed reminder's file gets its bytes from before, only while it still
    /// holds what the completion wrote (`ReminderCompletion.undo`); otherwise throws, writing nothing.
    public func undo(_ press: WidgetActionUndo) throws -> WidgetActionOutcome {
        do {
            let message = try ReminderCompletion(service: RemindersService(root: store)).undo(
                press.completion, now: now(), timeZone: timeZone)
            return WidgetActionOutcome(message: message)
        } catch let e as DataSourceError {
            throw WidgetActionError(e.description)
        }
    }

    // MARK: - Noise widget

    /// nil when no player listens on the socket.
    private func send(_ request: ControlRequest) throws -> PlayerStatus?? {
        do {
            switch try client.send(request) {
            case .ok(let status): return .some(status)
            case .error(let message): throw WidgetActionError("the player refused the request: \(message)")
            }
        } catch ControlError.notRunning {
            return nil
        }
    }

    private static func name(_ status: PlayerStatus?) -> String { status?.presetName ?? "the mix" }

    private func togglePlayPause() throws -> WidgetActionOutcome {
        guard let reply = try send(.status) else { return try startLastMix() }
        let current = reply
        if current?.state == .playing {
            let after = try send(.pause) ?? nil
            return WidgetActionOutcome(message: "Paused \(Self.name(after ?? current)).")
        }
        guard let after = try send(.resume) else { return try startLastMix() }
        return WidgetActionOutcome(message: "Resumed \(Self.name(after ?? current)).")
    }

    /// No player: start one with the Last Mix, as `noise resume` does (it is `noise resume`, detached).
    /// With no Last Mix yet the widget shows a mix all the same (`NoiseWidgetState.stoppedMix`: in
    /// a fresh store the default mix, "Pink" at master 70 %); that mix is saved as the Last Mix
    /// first, so the same `noise resume` plays what the button was drawn over.
    private func startLastMix() throws -> WidgetActionOutcome {
        let lastMixStore = LastMixStore(root: store)
        let load = try lastMixStore.load()
        let last: LastMix
        // What the first Last Mix was made from, when this press made it.
        var firstSource: String?
        if let existing = load.lastMix {
            last = existing
        } else {
            // A stopped (or stale) status describes the mix the widget shows; a fresh store has none.
            var status: PlayerStatus?
            if case .loaded(let s)? = try? StatusStore(root: store).read() { status = s }
            let shown = LastMix(
                mix: NoiseWidgetState.stoppedMix(status: status, lastMix: nil),
                presetID: status?.presetID, updatedAt: now())
            let stored = try lastMixStore.saveIfMissing(shown)
            last = stored.value
            if stored.saved { firstSource = status == nil ? "the default mix" : "the mix the last player left" }
        }
        do { try last.mix.validate() } catch { throw WidgetActionError("the Last Mix cannot be played: \(error)") }
        let noise = try noiseExecutable ?? DetachedPlayer.locateNoise(environment: environment)
        let launcher = DetachedPlayer(
            noise: noise, storeDirectory: storeDirectory, environment: environment,
            timeoutSeconds: playerStartTimeoutSeconds)
        let started: (pid: pid_t, status: PlayerStatus?)
        do { started = try launcher.start() } catch let e as DetachedPlayer.Failure {
            throw WidgetActionError(e.description)
        }
        let label = started.status?.presetName ?? last.mix.name
        guard let firstSource else {
            return WidgetActionOutcome(
                message: "Started \(label) from the Last Mix (player pid \(started.pid)).", warnings: load.messages)
        }
        let master = Int((last.mix.masterVolume * 100).rounded())
        return WidgetActionOutcome(
            message:
                """
                No Last Mix yet: started \(firstSource), \(label) at master \(master)% (player pid \
                \(started.pid)); it is the Last Mix now.
                """,
            warnings: load.messages)
    }

    private func stop() throws -> WidgetActionOutcome {
        let current = (try? send(.status)) ?? nil
        guard try send(.stop) != nil else {
            // Nothing to stop is not a failure (as `noise stop`).
            return WidgetActionOutcome(message: "No player is running.")
        }
        return WidgetActionOutcome(message: "Stopped \(Self.name(current ?? nil)).")
    }

    /// A Play Preset button: the running player crossfades to the preset (as `noise preset ID`)
    /// and plays if it was paused; with none, `noise play --preset ID` starts one, detached. An
    /// unknown preset is refused before anything starts, in the library's words.
    private func playPreset(_ id: String) throws -> WidgetActionOutcome {
        let presets = PresetLibrary.standard(environment: environment)
        let name: String
        do { name = try presets.load(id).mix.name } catch {
            throw WidgetActionError("the preset button cannot play: \(error.message)")
        }
        if try send(.preset(id: id, crossfadeSeconds: 2)) != nil {
            _ = try send(.resume)
            return WidgetActionOutcome(message: "Playing \(name) (switched the running player).")
        }
        let noise = try noiseExecutable ?? DetachedPlayer.locateNoise(environment: environment)
        let launcher = DetachedPlayer(
            noise: noise, storeDirectory: storeDirectory, environment: environment,
            timeoutSeconds: playerStartTimeoutSeconds)
        let started: (pid: pid_t, status: PlayerStatus?)
        do { started = try launcher.start(["play", "--preset", id]) } catch let e as DetachedPlayer.Failure {
            throw WidgetActionError(e.description)
        }
        return WidgetActionOutcome(message: "Playing \(name) (player pid \(started.pid)).")
    }

    /// As `noise timer +15m` / `-15m`: the same request, refused in the same words.
    private func adjustTimer(_ minutes: Int) throws -> WidgetActionOutcome {
        guard minutes != 0, abs(minutes) <= 24 * 60 else {
            throw WidgetActionError("the timer change \(minutes) min is out of range; allowed -1440…1440, not 0")
        }
        let changeText = (minutes > 0 ? "+" : "-") + "\(abs(minutes))m"
        guard case .some(let status) = try send(.status) else {
            throw WidgetActionError("no player is running; start one first ('noise resume' or 'noise play')")
        }
        let request: ControlRequest
        do {
            request = try TimerChange.request(
                remainingSeconds: status?.timerRemainingSeconds, changeSeconds: Double(minutes) * 60,
                changeText: changeText)
        } catch { throw WidgetActionError(error.description) }
        guard case .some(let reply) = try send(request) else {
            throw WidgetActionError("no player is running; start one first ('noise resume' or 'noise play')")
        }
        let left = reply?.timerRemainingSeconds ?? 0
        return WidgetActionOutcome(message: "Timer \(changeText): stops in \(StatusFormatter.duration(left)).")
    }

    private func toggleLayer(_ layer: Int) throws -> WidgetActionOutcome {
        guard Self.layerRange.contains(layer) else {
            throw WidgetActionError("layer \(layer) is out of range; allowed 1…4")
        }
        let index = layer - 1
        if let reply = try send(.status) {
            let layers = reply?.layers ?? []
            let wasOn = index < layers.count && layers[index].enabled
            if try send(.setLayer(index: index, change: LayerChange(enabled: !wasOn))) != nil {
                return WidgetActionOutcome(message: "Layer \(layer) \(wasOn ? "off" : "on").")
            }
            // The player stopped between the two requests: change the Last Mix instead.
        }
        var turnedOn = false
        let (_, load) = try LastMixStore(root: store).update(now: now()) { last in
            let wasOn = index < last.mix.layers.count && last.mix.layers[index].enabled
            turnedOn = !wasOn
            try last.mix.apply(LayerChange(enabled: !wasOn), toLayer: index)
        }
        var warnings = load.messages
        if load.lastMix == nil { warnings.append("there was no Last Mix; started from the default mix") }
        return WidgetActionOutcome(
            message: "Layer \(layer) \(turnedOn ? "on" : "off") in the Last Mix (no player is running).",
            warnings: warnings)
    }

    private func toggleResumeOnLaunch() throws -> WidgetActionOutcome {
        let noise = try noiseExecutable ?? DetachedPlayer.locateNoise(environment: environment)
        let autostart = Autostart(
            target: LoginEntryTarget(
                configHome: LoginEntries.configHome(environment: environment), executable: noise,
                storeDirectory: storeDirectory))
        let switcher = ResumeAtLogin(autostart: autostart, store: LastMixStore(root: store), environment: environment)
        let (isOn, load) = try switcher.isOn()
        if isOn {
            let change = try switcher.disable()
            return WidgetActionOutcome(message: "Resume at login is off.", warnings: change.messages)
        }
        let change = try switcher.enable(method: autostartMethod)
        let entry = change.files.first.map { " (\($0.path))" } ?? ""
        return WidgetActionOutcome(message: "Resume at login is on\(entry).", warnings: load.messages + change.messages)
    }
}
