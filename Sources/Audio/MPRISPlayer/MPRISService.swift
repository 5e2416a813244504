import CSystemdBus
import Foundation
import NoiseControl
import NoiseEngine
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `noise play` as an MPRIS player: owns `org.mpris.MediaPlayer2.widgetweaver` (or
/// `….instance<pid>` when that is taken) on the session bus and serves `/org/mpris/MediaPlayer2`.
///
/// - All D-Bus work runs on one thread of its own ("MPRIS"): sd-bus objects are single-threaded,
///   and nothing here may ever run on the render thread.
/// - Commands go through `PlayerController.handle`, exactly like the control socket's, so the
///   status feed and the Last Mix follow them.
/// - Every change the controller publishes (from the socket, from MPRIS, a timer, a preset switch)
///   wakes the thread through a pipe; it compares the properties with what it last announced and
///   emits one PropertiesChanged with what differs.
/// - No bus: one info line and nothing else. The bus going away: one info line, playback goes on,
///   and the player rejoins the bus when it is back (another line).
public final class MPRISService: @unchecked Sendable {
    public static let busName = "org.mpris.MediaPlayer2.widgetweaver"
    /// Next/Previous switch presets with `noise preset`'s default crossfade.
    public static let crossfadeSeconds = 2.0

    let controller: PlayerController
    let presets: PresetLibrary
    let desktopEntry: String?
    let log: @Sendable (String) -> Void
    /// Cover art for a status: a file:// URL of a picture drawn for it (called on the bus thread).
    let artwork: (@Sendable (PlayerStatus) -> String?)?

    private let wakePipe = Mutex<(read: Int32, write: Int32)>((-1, -1))
    private let closing = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let nameBox = Mutex<String?>(nil)
    /// pthread_self() of the bus thread, 0 before it runs.
    private let busThread = Atomic<UInt>(0)

    // Touched only on the bus thread.
    private var bus: OpaquePointer?
    private var slot: OpaquePointer?
    private var announced: [String: BusValue] = [:]
    private var timer = SleepTimerTrack()
    private var timerRequestSerial = 0

    public init(
        controller: PlayerController, presets: PresetLibrary? = nil,
        desktopEntry: String? = DesktopEntry.installedID(),
        artwork: (@Sendable (PlayerStatus) -> String?)? = nil,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.artwork = artwork
        self.controller = controller
        self.presets = presets ?? controller.presets
        self.desktopEntry = desktopEntry
        self.log = log
    }

    /// The bus name owned, once owned (nil without a bus).
    public var ownedName: String? { nameBox.withLock { $0 } }

    public func start() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            wakePipe.withLock { $0 = (fds[0], fds[1]) }
        }
        controller.addChangeObserver { [weak self] in self?.changed() }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "MPRIS"
        thread.start()
    }

    /// Emits the final "Stopped", releases the name and ends the thread (waits at most 2 s: a
    /// bus that hangs never holds up the player's exit).
    public func stop() {
        closing.store(true, ordering: .releasing)
        wake()
        if finished.wait(timeout: .now() + 2) == .success {
            wakePipe.withLock { fds in
                close(fds.read)
                close(fds.write)
                fds = (-1, -1)
            }
        }
    }

    /// A change from the bus thread itself (an MPRIS command, inside sd_bus_process) is announced
    /// at once, before the controller goes on to write the status file; any other thread wakes it.
    func changed() {
        if busThread.load(ordering: .relaxed) == UInt(pthread_self()) {
            announceChanges()
            wake()  // and look again while the engine takes it up
        } else {
            wake()
        }
    }

    func wake() {
        wakePipe.withLock { fds in
            guard fds.write >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(fds.write, &byte, 1)
        }
    }

    // MARK: - The bus thread

    private func run() {
        busThread.store(UInt(pthread_self()), ordering: .relaxed)
        do {
            try connect()
        } catch {
            let what = bus == nil ? "no session bus (\(error))" : "on the session bus, but \(error)"
            log("MPRIS: \(what); playing without media keys and desktop media controls.")
            dropBus()
            return
        }
        // The session bus can restart under a running player (a logout of another session, a
        // dbus-broker restart): serve until it goes, then wait for it to come back and rejoin.
        while let code = serve() {
            log("MPRIS: lost the session bus (\(BusError("bus", code))); playing on, and rejoining when it is back.")
            dropBus()
            guard rejoin() else { return }
            log("MPRIS: back on the session bus as \(ownedName ?? Self.busName).")
        }
        // Closing: shells should see "Stopped" before the name goes away.
        if announced["PlaybackStatus"] != .string("Stopped") {
            try? emitPropertiesChanged(MPRISProperties.playerInterface, ["PlaybackStatus": .string("Stopped")])
        }
        if let slot { sd_bus_slot_unref(slot) }
        _ = sd_bus_flush(bus)
        sd_bus_flush_close_unref(bus)
        bus = nil
    }

    /// Serves the bus until closing (nil) or until the bus fails (its negative errno).
    private func serve() -> Int32? {
        announced = playerProperties()
        let wakeRead = wakePipe.withLock { $0.read }
        // A change the controller passed to the engine (a timer) shows in its snapshot only after
        // the render thread's next block (21 ms at 48 kHz): after each wake, look again every 10 ms
        // for 0.5 s.
        var settleUntil = 0.0
        while !closing.load(ordering: .acquiring) {
            let processed = sd_bus_process(bus, nil)
            if processed < 0 { return processed }
            if processed > 0 { continue }
            let events = sd_bus_get_events(bus)
            if events < 0 { return events }
            var fds = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(events), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let settling = settleUntil > Self.monotonicSeconds()
            var timeout = pollTimeoutMs()
            if settling { timeout = timeout < 0 ? 10 : min(timeout, 10) }
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { return -errno }
            if fds[1].revents != 0 {
                drainWakePipe(wakeRead)
                announceChanges()
                settleUntil = Self.monotonicSeconds() + 0.5
            } else if settling {
                announceChanges()
            }
        }
        return nil
    }

    /// Tries to connect again every `rejoinIntervalSeconds` until it works (true) or the player
    /// closes (false). Changes meanwhile only drain the wake pipe: a new connection announces
    /// nothing, shells read the properties afresh when the name appears.
    private func rejoin() -> Bool {
        let wakeRead = wakePipe.withLock { $0.read }
        while !closing.load(ordering: .acquiring) {
            var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, Int32(Self.rejoinIntervalSeconds * 1000)) > 0 { drainWakePipe(wakeRead) }
            if closing.load(ordering: .acquiring) { break }
            do {
                try connect()
                return true
            } catch {
                dropBus()
            }
        }
        return false
    }

    /// How often a player that lost the bus tries to reach it again: a connect to a missing socket
    /// costs microseconds, and media keys should work again within a second or so.
    static let rejoinIntervalSeconds = 1.0

    private func drainWakePipe(_ fd: Int32) {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(fd, &drain, drain.count) > 0 {}
    }

    private func dropBus() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
        if let bus { sd_bus_close_unref(bus) }
        bus = nil
        nameBox.withLock { $0 = nil }
    }

    private func connect() throws(BusError) {
        var b: OpaquePointer?
        try busCheck(sd_bus_open_user(&b), "cannot connect")
        bus = b
        var s: OpaquePointer?
        try busCheck(
            sd_bus_add_object(
                bus, &s, MPRISProperties.objectPath, mprisMethodHandler,
                Unmanaged.passUnretained(self).toOpaque()), "cannot export \(MPRISProperties.objectPath)")
        slot = s
        var name = Self.busName
        var r = sd_bus_request_name(bus, name, 0)
        if r == -EEXIST {
            name = "\(Self.busName).instance\(getpid())"
            r = sd_bus_request_name(bus, name, 0)
        }
        try busCheck(r, "cannot own \(name)")
        nameBox.withLock { $0 = name }
    }

    private func pollTimeoutMs() -> Int32 {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
        guard usec > nowUsec else { return 0 }
        return Int32(min((usec - nowUsec + 999) / 1000, 60_000))
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The Player properties now (without Position).
    private func playerProperties() -> [String: BusValue] {
        let status = controller.status()
        followTimer(remainingSeconds: status.timerRemainingSeconds)
        return MPRISProperties.player(
            status: status, stopping: controller.stopRequested, timer: timer,
            artURL: artwork?(status))
    }

    private func followTimer(remainingSeconds: Double?) {
        let now = Self.monotonicSeconds()
        if let request = controller.timerRequest, request.serial != timerRequestSerial {
            timerRequestSerial = request.serial
            timer.request(seconds: request.seconds, now: now)
        }
        timer.update(remainingSeconds: remainingSeconds, now: now)
    }

    private func positionMicroseconds() -> Int64 {
        followTimer(remainingSeconds: controller.status().timerRemainingSeconds)
        return Int64((timer.positionSeconds(now: Self.monotonicSeconds()) * 1_000_000).rounded())
    }

    private func announceChanges() {
        let now = playerProperties()
        let changed = now.filter { announced[$0.key] != $0.value }
        guard !changed.isEmpty else { return }
        do {
            try emitPropertiesChanged(MPRISProperties.playerInterface, changed)
            announced = now
        } catch {
            log("MPRIS: cannot announce a change: \(error)")
        }
    }

    /// `Seeked(x Position)` after a Seek: the timer's track restarted, so the position is where
    /// it now stands (0 right after the change).
    private func emitSeeked() throws(BusError) {
        guard let bus else { return }
        var m: OpaquePointer?
        try busCheck(
            sd_bus_message_new_signal(bus, &m, MPRISProperties.objectPath, MPRISProperties.playerInterface, "Seeked"),
            "new signal")
        defer { sd_bus_message_unref(m) }
        try BusWriter(message: m!).append(.int64(positionMicroseconds()))
        try busCheck(sd_bus_send(bus, m, nil), "send Seeked")
    }

    private func emitPropertiesChanged(_ interface: String, _ changed: [String: BusValue]) throws(BusError) {
        guard let bus else { return }
        var m: OpaquePointer?
        try busCheck(
            sd_bus_message_new_signal(
                bus, &m, MPRISProperties.objectPath, MPRISProperties.propertiesInterface,
                "PropertiesChanged"), "new signal")
        defer { sd_bus_message_unref(m) }
        let writer = BusWriter(message: m!)
        try writer.appendString(interface, type: "s")
        try writer.appendDictionary(changed)
        try writer.append(.strings([]))
        try busCheck(sd_bus_send(bus, m, nil), "send PropertiesChanged")
    }

    // MARK: - Method calls (on the bus thread, from sd_bus_process)

    struct MethodError: Error {
        var name: String
        var message: String
        static func invalidArgs(_ m: String) -> MethodError {
            .init(name: "org.freedesktop.DBus.Error.InvalidArgs", message: m)
        }
    }

    fileprivate func handle(_ call: OpaquePointer, error reply: UnsafeMutablePointer<sd_bus_error>) -> Int32 {
        guard sd_bus_message_is_method_call(call, nil, nil) > 0 else { return 0 }
        let interface = sd_bus_message_get_interface(call).map { String(cString: $0) } ?? ""
        let member = sd_bus_message_get_member(call).map { String(cString: $0) } ?? ""
        do {
            return try dispatch(call, interface: interface, member: member)
        } catch let e as MethodError {
            return sd_bus_error_set(reply, e.name, e.message)
        } catch {
            return sd_bus_error_set(reply, "org.freedesktop.DBus.Error.InvalidArgs", "\(error)")
        }
    }

    private func dispatch(_ call: OpaquePointer, interface: String, member: String) throws -> Int32 {
        let args = BusReader(message: call)
        switch (interface, member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            return try reply(call) { try $0.append(.string(MPRISIntrospection.xml)) }
        case (MPRISProperties.propertiesInterface, "Get"):
            let iface = try args.string(), name = try args.string()
            guard let value = try properties(of: iface)[name] else {
                throw MethodError(
                    name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(name) on \(iface)")
            }
            return try reply(call) { try $0.appendVariant(value) }
        case (MPRISProperties.propertiesInterface, "GetAll"):
            let all = try properties(of: try args.string())
            return try reply(call) { try $0.appendDictionary(all) }
        case (MPRISProperties.propertiesInterface, "Set"):
            let iface = try args.string(), name = try args.string()
            guard try properties(of: iface)[name] != nil else {
                throw MethodError(
                    name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(name) on \(iface)")
            }
            guard iface == MPRISProperties.playerInterface, name == "Volume" else {
                throw MethodError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(name) is read-only")
            }
            let volume = try args.variantDouble()
            guard volume.isFinite else {
                throw MethodError.invalidArgs("Volume must be a finite number, not \(volume)")
            }
            try command(.setMaster(volume: min(max(volume, 0), 1)))
            return try reply(call)
        case (MPRISProperties.rootInterface, "Raise"):
            return try reply(call)
        case (MPRISProperties.rootInterface, "Quit"), (MPRISProperties.playerInterface, "Stop"):
            if !controller.stopRequested { try command(.stop) }
            return try reply(call)
        case (MPRISProperties.playerInterface, "Play"):
            if isPaused { try command(.resume) }
            return try reply(call)
        case (MPRISProperties.playerInterface, "Pause"):
            if !isPaused { try command(.pause) }
            return try reply(call)
        case (MPRISProperties.playerInterface, "PlayPause"):
            try command(isPaused ? .resume : .pause)
            return try reply(call)
        case (MPRISProperties.playerInterface, "Next"):
            try switchPreset(by: 1)
            return try reply(call)
        case (MPRISProperties.playerInterface, "Previous"):
            try switchPreset(by: -1)
            return try reply(call)
        case (MPRISProperties.playerInterface, "Seek"):
            // The sleep timer's ±15 minutes from media controls (`playerctl position 900+`): Seek
            // moves the timer's end by Offset, as `noise timer +15m` / `-15m` do (`TimerChange`),
            // but kept within 1 s…24 h rather than refused: a media key must not fail.
            //
            // Why the end and not the spec's literal position (which would make +15 min end the
            // timer 15 minutes *sooner*): a listener only ever wants to move when the noise stops,
            // and "+" reading as "more" is what every sleep-timer control does. The timer shows
            // as a track (`mpris:length` its length, Position how far into it) that restarts at
            // every change, so after a Seek the client is told (Seeked) that the position is back
            // at 0 of a new length: nothing it shows jumps backwards. Without a timer CanSeek is
            // false and the spec says to ignore Seek.
            let offset = try args.int64()
            guard let remaining = controller.status().timerRemainingSeconds else { return try reply(call) }
            try command(
                TimerChange.request(
                    remainingSeconds: remaining, changeSeconds: Double(offset) / 1_000_000,
                    changeText: "Offset \(offset)", outOfRange: .clamp))
            let r = try reply(call)
            try? emitSeeked()
            return r
        case (MPRISProperties.playerInterface, "SetPosition"):
            // Positions name a point on a track; the timer's "track" restarts at every change, so
            // an absolute position means nothing lasting. Seek does the useful thing.
            return try reply(call)
        case (MPRISProperties.playerInterface, "OpenUri"):
            throw MethodError(
                name: "org.freedesktop.DBus.Error.NotSupported", message: "WidgetWeaver Noise plays presets, not URIs")
        default:
            return 0  // sd-bus answers UnknownMethod (and handles org.freedesktop.DBus.Peer itself)
        }
    }

    private var isPaused: Bool { controller.status().state == .paused }

    private func properties(of interface: String) throws -> [String: BusValue] {
        switch interface {
        case MPRISProperties.rootInterface:
            return MPRISProperties.root(desktopEntry: desktopEntry)
        case MPRISProperties.playerInterface:
            var p = playerProperties()
            p["Position"] = .int64(positionMicroseconds())
            return p
        default:
            throw MethodError(name: "org.freedesktop.DBus.Error.UnknownInterface", message: "no interface \(interface)")
        }
    }

    private func command(_ request: ControlRequest) throws {
        if case .error(let message) = controller.handle(request) {
            throw MethodError(name: "org.freedesktop.DBus.Error.Failed", message: message)
        }
    }

    /// Next (+1) / Previous (-1) in `noise presets` order, wrapping; from a custom mix Next goes to
    /// the first preset and Previous to the last. A preset file that does not load is skipped
    /// (`noise presets` leaves it out too).
    private func switchPreset(by step: Int) throws {
        let ids = presets.entries().map(\.id)
        guard !ids.isEmpty else {
            throw MethodError(name: "org.freedesktop.DBus.Error.Failed", message: "no presets found")
        }
        var index: Int
        if let current = controller.presetID, let i = ids.firstIndex(of: current) {
            index = i
        } else {
            index = step > 0 ? -1 : ids.count
        }
        var lastError: Error?
        for _ in 0..<ids.count {
            index = (index + step + ids.count) % ids.count
            do {
                return try command(.preset(id: ids[index], crossfadeSeconds: Self.crossfadeSeconds))
            } catch {
                lastError = error
            }
        }
        throw lastError ?? MethodError(name: "org.freedesktop.DBus.Error.Failed", message: "no preset loads")
    }

    private func reply(_ call: OpaquePointer, _ build: (BusWriter) throws -> Void = { _ in }) throws -> Int32 {
        var m: OpaquePointer?
        try busCheck(sd_bus_message_new_method_return(call, &m), "new method return")
        defer { sd_bus_message_unref(m) }
        try build(BusWriter(message: m!))
        try busCheck(sd_bus_send(nil, m, nil), "send reply")
        return 1
    }
}

/// sd-bus calls this for every message to `/org/mpris/MediaPlayer2`, on the bus thread.
private let mprisMethodHandler: sd_bus_message_handler_t = { message, userdata, error in
    guard let message, let userdata, let error else { return 0 }
    return Unmanaged<MPRISService>.fromOpaque(userdata).takeUnretainedValue().handle(message, error: error)
}
