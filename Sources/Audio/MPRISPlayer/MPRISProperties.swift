import Foundation
import NoiseControl

/// The properties of `/org/mpris/MediaPlayer2`, computed from the player's status. Pure: the bus
/// thread compares one result with the next to know what PropertiesChanged must carry.
enum MPRISProperties {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let identity = "WidgetWeaver Noise"
    static let artist = "WidgetWeaver"

    static func root(desktopEntry: String?) -> [String: BusValue] {
        var p: [String: BusValue] = [
            "Identity": .string(identity),
            "CanQuit": .boolean(true),
            "CanRaise": .boolean(false),
            "CanSetFullscreen": .boolean(false),
            "Fullscreen": .boolean(false),
            "HasTrackList": .boolean(false),
            "SupportedUriSchemes": .strings([]),
            "SupportedMimeTypes": .strings([]),
        ]
        if let desktopEntry { p["DesktopEntry"] = .string(desktopEntry) }
        return p
    }

    /// Every Player property except Position (MPRIS never signals Position; clients ask for it).
    static func player(status: PlayerStatus, stopping: Bool, timer: SleepTimerTrack, artURL: String? = nil) -> [String:
        BusValue]
    {
        [
            "PlaybackStatus": .string(playbackStatus(status.state, stopping: stopping)),
            "Metadata": .dictionary(metadata(status: status, timer: timer, artURL: artURL)),
            "Volume": .double(status.masterVolume),
            "Rate": .double(1),
            "MinimumRate": .double(1),
            "MaximumRate": .double(1),
            "CanGoNext": .boolean(true),
            "CanGoPrevious": .boolean(true),
            "CanPlay": .boolean(true),
            "CanPause": .boolean(true),
            // Seek moves the sleep timer's end (see `MPRISService`'s Seek): only while one runs.
            "CanSeek": .boolean(timer.lengthSeconds != nil),
            "CanControl": .boolean(true),
        ]
    }

    static func playbackStatus(_ state: PlayerStatus.State, stopping: Bool) -> String {
        if stopping { return "Stopped" }
        switch state {
        case .playing: return "Playing"
        case .paused: return "Paused"
        case .stopped: return "Stopped"
        }
    }

    static func metadata(status: PlayerStatus, timer: SleepTimerTrack, artURL: String? = nil) -> [String: BusValue] {
        var m: [String: BusValue] = [
            "mpris:trackid": .objectPath(trackID(presetID: status.presetID)),
            "xesam:title": .string(status.presetName ?? "Custom"),
            "xesam:artist": .strings([artist]),
        ]
        // A picture of the mix drawn by the widget renderer (the Noise Machine widget), a file:// URL
        // to a file that exists; absent when none could be drawn.
        if let artURL { m["mpris:artUrl"] = .string(artURL) }
        if let length = timer.lengthSeconds {
            m["mpris:length"] = .int64(Int64((length * 1_000_000).rounded()))
        }
        return m
    }

    /// An object path naming the mix: `/org/widgetweaver/noise/preset/<id>` with every byte outside
    /// [A-Za-z0-9] written as `_xx` (object path elements allow only [A-Za-z0-9_]).
    static func trackID(presetID: String?) -> String {
        guard let presetID, !presetID.isEmpty else { return "/org/widgetweaver/noise/mix/custom" }
        var element = ""
        for byte in presetID.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                element.append(Character(Unicode.Scalar(byte)))
            default:
                element += "_" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return "/org/widgetweaver/noise/preset/\(element)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Follows the sleep timer, to give shells a length (`mpris:length`) and a position (time
/// elapsed). A `timer` request is taken at once (`request`); otherwise the engine's remaining time
/// is followed (`update`): a timer seen there first (set at start) is measured from when it is
/// first seen, and an end that moves by more than `jumpSeconds` is a new timer. After a request
/// the engine's report is ignored until it agrees (it takes a block or two) or `trustSeconds` pass.
struct SleepTimerTrack: Equatable {
    static let jumpSeconds = 1.0
    static let trustSeconds = 1.0
    private(set) var lengthSeconds: Double?
    private(set) var endsAt: Double = 0
    /// The requested end (nil: switched off) and until when the request outranks the engine.
    private var pending: (end: Double?, until: Double)?

    static func == (a: Self, b: Self) -> Bool { a.lengthSeconds == b.lengthSeconds && a.endsAt == b.endsAt }

    /// `now` in seconds on a monotonic clock.
    mutating func request(seconds: Double?, now: Double) {
        lengthSeconds = seconds
        endsAt = now + (seconds ?? 0)
        pending = (seconds.map { now + $0 }, now + Self.trustSeconds)
    }

    mutating func update(remainingSeconds: Double?, now: Double) {
        if let p = pending {
            let agrees =
                switch (p.end, remainingSeconds) {
                case (nil, nil): true
                case let (end?, remaining?): abs(now + remaining - end) < Self.jumpSeconds
                default: false
                }
            if agrees || now > p.until { pending = nil }
            if agrees || now <= p.until { return }
        }
        guard let remaining = remainingSeconds else {
            lengthSeconds = nil
            return
        }
        let end = now + remaining
        if lengthSeconds == nil || abs(end - endsAt) > Self.jumpSeconds {
            // Seen a few ms after it was set: a timer of whole seconds reads as whole seconds.
            let whole = remaining.rounded(.up)
            lengthSeconds = whole - remaining < 0.3 ? whole : remaining
            endsAt = end
        }
    }

    /// Time elapsed on the timer, 0 without one.
    func positionSeconds(now: Double) -> Double {
        guard let lengthSeconds else { return 0 }
        return min(max(lengthSeconds - (endsAt - now), 0), lengthSeconds)
    }
}
