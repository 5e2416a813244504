import NoiseControl
import NoiseEngine

/// The Noise page's night section as HTML (`Resources/Night/night.html`): the sleep timer with its
/// fade and end, `+15 min`, and the schedules. The choices come from the same limits the CLI
/// checks; the schedule rows and the timer's state are kept current by `night.js` from
/// `GET /api/night`.
enum NightSection {
    static let templates = HTMLTemplates(PackageResources.night_html, file: "Night/night.html")

    /// Timer lengths offered, in minutes (the mixer's list).
    static let timerMinutes = [15, 30, 45, 60, 90, 120, 240, 480]
    /// Fade-out lengths offered, in seconds; 30 s is the player's default.
    static let fadeSeconds: [Double] = [0, 30, 60, 120, 300, 600, 900, 1800]
    /// A schedule's fade-in, in seconds (10 s is `noise schedule add`'s default), all within
    /// `FadeLimits.fadeInSeconds`.
    static let scheduleFadeSeconds: [Double] = [10, 60, 300, 600, 1200, 1800]
    /// A schedule's timer, in seconds (0: none).
    static let scheduleTimerSeconds: [Double] = [0, 1800, 3600, 7200, 14400, 28800]

    static func html(_ state: NightState, presets: [MixerState.Preset]) -> HTML {
        let lengths = timerMinutes.map { m in
            Page.option("\(m * 60)", label(Double(m * 60)), selected: m == 30)
        }
        let fades = fadeSeconds.map { s in
            Page.option(number(s), s == 0 ? "no fade" : label(s), selected: s == 30)
        }
        let ends = TimerEnd.allCases.map { end in
            Page.option(end.rawValue, endName(end), selected: end == (state.timer?.then ?? .stop))
        }
        let presetOptions = presets.map { Page.option($0.id, $0.name, selected: $0.id == "sleep") }
        let scheduleFades = scheduleFadeSeconds.map { s in
            Page.option(number(s), label(s), selected: s == NightRequest.defaultScheduleFadeSeconds)
        }
        let scheduleTimers = scheduleTimerSeconds.map { s in
            Page.option(
                s == 0 ? "" : number(s), s == 0 ? "none (plays until stopped)" : label(s),
                selected: s == 0)
        }
        let hidden = templates.render("hidden")
        return templates.render(
            "night",
            [
                "lengths": lengths, "fades": fades, "ends": ends,
                "timerState": timerText(state),
                "systemd": state.systemd ?? "", "systemdHidden": state.systemd == nil ? hidden : .empty,
                "noneHidden": state.schedules.isEmpty ? .empty : hidden,
                "presets": presetOptions, "scheduleFades": scheduleFades, "scheduleTimers": scheduleTimers,
            ])
    }

    /// "No timer", "No player is running", or the running timer's summary.
    static func timerText(_ state: NightState) -> String {
        if let timer = state.timer { return timer.summary }
        return state.player == "none" ? "No player is running: start one to set a timer." : "No timer."
    }

    static func endName(_ end: TimerEnd) -> String {
        switch end {
        case .stop: "Stop the noise"
        case .suspend: "Suspend the computer"
        case .poweroff: "Power off the computer"
        }
    }

    static func number(_ v: Double) -> String { Page.number(v) }

    /// A choice's length as a person reads it: "30 s", "5 min", "1 h 30 min".
    static func label(_ seconds: Double) -> String {
        let s = Int(seconds)
        if s < 60 { return "\(s) s" }
        let minutes = s / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
    }
}
