import Foundation
import LoginEntryFiles
import NoiseControl
import NoiseEngine
import PlayerStartup

/// The night as the Noise page shows it (`GET /api/night`).
struct NightState: Encodable, Equatable {
    struct Timer: Encodable, Equatable {
        var remainingSeconds: Double
        var fadeSeconds: Double?
        var then: TimerEnd?
        /// "29m 59s left, fading out over 5m 00s, then suspend".
        var summary: String
    }

    struct Schedule: Encodable, Equatable {
        var id: String
        var time: String
        var preset: String
        var fadeSeconds: Double
        var timerSeconds: Double?
        var enabled: Bool
        /// "23:00 daily: sleep, fade in 10 min, timer 8 h; next Wed 2026-11-25 23:00:00 UTC".
        var summary: String
    }

    /// `playing`, `paused`, or `none` when no player answers.
    var player: String
    var timer: Timer?
    var schedules: [Schedule]
    /// Unit files with our prefix that do not read back (left as they are, as `list` says).
    var unreadable: [String]
    /// What a schedule lacks here (no systemd user session), in the CLI's words; nil when nothing.
    var systemd: String?
}

/// What the night's routes do, through the CLI's own paths: the control socket's `timer` and
/// `then` requests (`TimerChange` for `+15 min`) and `ScheduleBook` for the schedules.
struct Night {
    let mixer: Mixer

    static let noPlayer = "no player is running; start one first ('noise resume' or 'noise play')"

    var book: ScheduleBook {
        get throws {
            let noise: URL
            do { noise = try DetachedPlayer.locateNoise() } catch {
                throw HTTPError(.internalServerError, "\(error)")
            }
            return ScheduleBook(
                files: PlayScheduleFiles(noise: noise, storeDirectory: mixer.storeDirectory), presets: mixer.presets)
        }
    }

    /// The player's status now, nil when none answers.
    func status() -> PlayerStatus? {
        if case .ok(let status?)? = try? mixer.client.send(.status) { return status }
        return nil
    }

    func state(now: Date = Date()) -> NightState {
        let status = status()
        var timer: NightState.Timer?
        if let status, let left = status.timerRemainingSeconds {
            timer = NightState.Timer(
                remainingSeconds: left, fadeSeconds: status.timerFadeSeconds, then: status.timerThen,
                summary: Self.timerSummary(status))
        }
        let files = (try? book)?.files
        let found = files?.list() ?? (schedules: [], unreadable: [])
        return NightState(
            player: status.map { $0.state == .paused ? "paused" : "playing" } ?? "none", timer: timer,
            schedules: found.schedules.map { s in
                NightState.Schedule(
                    id: s.id, time: s.timeText, preset: s.presetID, fadeSeconds: s.fadeSeconds,
                    timerSeconds: s.timerSeconds, enabled: s.isEnabled, summary: Self.summary(s, now: now))
            },
            unreadable: found.unreadable.map(\.path), systemd: UserSystemd.sessionProblem())
    }

    static func timerSummary(_ s: PlayerStatus) -> String {
        var text = "\(StatusFormatter.duration(s.timerRemainingSeconds ?? 0)) left"
        if let fade = s.timerFadeSeconds { text += ", fading out over \(StatusFormatter.duration(fade))" }
        if let end = s.timerThen, end != .stop { text += ", then \(end.rawValue)" }
        return text
    }

    static func summary(_ s: PlaySchedule, now: Date) -> String {
        let timer = s.timerSeconds.map { ", timer \(NightSection.label($0))" } ?? ""
        let next = s.isEnabled ? "next \(ScheduleBook.systemdTime(s.nextRun(after: now)))" : "disabled"
        return
            "\(s.timeText) daily: \(s.presetID), fade in \(NightSection.label(s.fadeSeconds))\(timer); \(next)"
    }

    /// Sends the request to the running player; a refusal is the player's words (422).
    @discardableResult
    func send(_ request: ControlRequest) throws -> PlayerStatus? {
        do {
            switch try mixer.client.send(request) {
            case .ok(let status): return status
            case .error(let message):
                throw HTTPError(.unprocessableContent, "the player refused the request: \(message)")
            }
        } catch ControlError.notRunning {
            throw HTTPError(.conflict, Self.noPlayer)
        }
    }

    func setTimer(_ t: NightRequest.Timer) throws -> String {
        guard let seconds = t.seconds else {
            try send(.timer(seconds: nil, fadeSeconds: nil))
            return "Timer off."
        }
        var after = try send(.timer(seconds: seconds, fadeSeconds: t.fadeSeconds))
        if let end = t.then {
            do {
                after = try send(.then(end)) ?? after
            } catch let e as HTTPError {
                // The timer above is set; say so with the refusal.
                throw HTTPError(e.status, "the timer is set, but its end is not: \(e.message)", field: "then")
            }
        }
        return "Timer set: " + (after.map(Self.timerSummary) ?? "\(StatusFormatter.duration(seconds)) left") + "."
    }

    /// As `noise timer +15m`: the same request (`TimerChange`), keeping the running fade.
    func addToTimer(seconds: Double) throws -> String {
        guard let status = status() else { throw HTTPError(.conflict, Self.noPlayer) }
        let changeText = "+" + StatusFormatter.duration(seconds).replacingOccurrences(of: " ", with: "")
        let request: ControlRequest
        do {
            request = try TimerChange.request(
                remainingSeconds: status.timerRemainingSeconds, changeSeconds: seconds, changeText: changeText,
                fadeSeconds: status.timerFadeSeconds.map { min($0, (status.timerRemainingSeconds ?? 0) + seconds) })
        } catch {
            throw HTTPError(.unprocessableContent, error.description)
        }
        let after = try send(request)
        return "Timer \(changeText): " + (after.map(Self.timerSummary) ?? "set") + "."
    }

    func addSchedule(_ s: PlaySchedule, withoutSystemdSession: Bool) throws -> (message: String, warnings: [String]) {
        let added: ScheduleBook.Added
        do {
            added = try book.add(s, withoutSystemdSession: withoutSystemdSession)
        } catch ScheduleBook.Refusal.preset(let message) {
            throw HTTPError(.badRequest, "'preset': \(message)", field: "preset")
        } catch ScheduleBook.Refusal.noSystemdSession(let message) {
            throw HTTPError(.conflict, message, field: "withoutSystemdSession")
        }
        let timer = s.timerSeconds.map { ", stopping after \(StatusFormatter.duration($0))" } ?? ""
        return (
            "Scheduled \(s.id): preset \(s.presetID) every day at \(s.timeText), fading in over "
                + "\(StatusFormatter.duration(s.fadeSeconds))\(timer).",
            added.warnings + added.notes
        )
    }

    func removeSchedule(_ id: String) throws -> String {
        do {
            let removed = try book.remove(id)
            return "Removed \(removed.removed.map(\.id).joined(separator: ", "))."
        } catch let refusal as ScheduleBook.Refusal {
            throw HTTPError(.notFound, refusal.description)
        }
    }

    func setScheduleEnabled(_ id: String, _ enabled: Bool) throws -> String {
        do {
            let result = try book.setEnabled(id, enabled)
            return "\(enabled ? "Enabled" : "Disabled") \(result.changed.map(\.id).joined(separator: ", "))."
        } catch let refusal as ScheduleBook.Refusal {
            throw HTTPError(.notFound, refusal.description)
        }
    }
}
