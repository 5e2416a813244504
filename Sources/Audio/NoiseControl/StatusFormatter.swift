import BoundedJSON
import CivilDates
import FieldTable
import Foundation
import NoiseEngine

/// Renders a player status for people and status bars. A nil status means no player has ever
/// published in this store; a stale one (see `PlayerStatus.isStale`) is shown as stopped.
public enum StatusFormatter {
    public enum Format: String, CaseIterable, Sendable {
        case human, json, waybar, i3blocks
    }

    public static func render(
        _ status: PlayerStatus?, format: Format, now: Date = Date(),
        isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive
    ) -> String {
        switch format {
        case .human: human(status, now: now, isProcessAlive: isProcessAlive)
        case .json: json(status, now: now, pretty: true, isProcessAlive: isProcessAlive)
        case .waybar: waybar(status, now: now, isProcessAlive: isProcessAlive)
        case .i3blocks: i3blocks(status, now: now, isProcessAlive: isProcessAlive)
        }
    }

    /// "Sleep", or "Custom mix" when the player has no preset name.
    public static func title(_ s: PlayerStatus) -> String {
        let name = (s.presetName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? (s.presetID ?? "Custom mix") : name
    }

    public static func human(
        _ status: PlayerStatus?, now: Date = Date(),
        isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive
    ) -> String {
        guard let status else { return "Stopped. No player has run with this store yet." }
        let stale = status.isStale(now: now, isProcessAlive: isProcessAlive)
        var lines: [String] = []
        let preset = status.presetID.map { " (preset \($0))" } ?? ""
        switch (stale, status.state) {
        case (true, _):
            lines.append(
                """
                Stopped: the player (pid \(status.pid)) is gone; its last report, \
                \(ago(status.updatedAt, now: now)), said \(status.state.rawValue) \(title(status))\(preset).
                """
            )
        case (false, .playing) where status.output.lost:
            lines.append(
                """
                Playing \(title(status))\(preset), but the output is lost (\(status.output.backend) \
                \(status.output.device)); the player is retrying and nothing is heard until it reconnects.
                """
            )
        case (false, .playing):
            lines.append(
                """
                Playing \(title(status))\(preset), master \
                \(percent(status.masterVolume))\(status.muted ? ", muted" : "").
                """
            )
        case (false, .paused):
            lines.append(
                """
                Paused: \(title(status))\(preset), master \
                \(percent(status.masterVolume))\(status.muted ? ", muted" : "").
                """
            )
        case (false, .stopped):
            lines.append("Stopped. Last Mix: \(title(status))\(preset), master \(percent(status.masterVolume)).")
        }
        if !stale, let remaining = status.timerRemainingSeconds {
            let ends = status.timerEndsAt.map { " (ends \(clock($0)))" } ?? ""
            let fade = status.timerFadeSeconds.map { ", fading out over \(duration($0))" } ?? ""
            let then = status.timerThen.flatMap { $0 == .stop ? nil : ", then \($0.rawValue)" } ?? ""
            lines.append("Timer: \(duration(remaining)) left\(ends)\(fade)\(then).")
        }
        for (i, l) in status.layers.enumerated() { lines.append("Layer \(i + 1): \(layer(l))") }
        if let n = status.notch {
            lines.append(
                String(
                    format: "Notch: %.0f Hz, %g octave%@ wide, %.0f dB deep.", n.centreHz, n.widthOctaves,
                    n.widthOctaves == 1 ? "" : "s", n.depthDb))
        }
        if let h = status.hearing { lines.append("Hearing correction: \(h).") }
        if !stale && status.state != .stopped {
            var out =
                """
                Output: \(status.output.backend) \
                \(status.output.device)\(status.output.lost ? " (lost, retrying)" : "")
                """
            if let level = status.levelDbfs { out += ", level \(String(format: "%.1f", level)) dBFS" }
            out += ", \(status.underruns) underrun\(status.underruns == 1 ? "" : "s")."
            lines.append(out)
            if let s = status.scheduling { lines.append("Render thread: \(s).") }
        }
        return lines.joined(separator: "\n")
    }

    /// The status document plus `"stale"`, pretty or on one line.
    public static func json(
        _ status: PlayerStatus?, now: Date = Date(), pretty: Bool,
        isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive
    ) -> String {
        let status = status ?? neverPlayed
        guard let data = try? ControlJSON.encoder(pretty: false).encode(status),
            case .object(var object)? = try? JSONValue.parse(data, limits: ControlJSON.limits)
        else { return "null" }
        object["stale"] = .bool(status.isStale(now: now, isProcessAlive: isProcessAlive))
        let out = pretty ? JSONValue.object(object).prettyPrinted() : CompactJSON.data(.object(object))
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// What `--json` shows for a store where no player has run: the stopped status of the default
    /// mix, with every key (pid 0, `updatedAt` the Unix epoch: never).
    public static var neverPlayed: PlayerStatus {
        var s = PlayerStatus(
            state: .stopped, mix: LastMix.defaultMix, presetID: nil,
            output: .init(backend: "none", device: ""), updatedAt: Date(timeIntervalSince1970: 0))
        s.presetName = nil
        s.pid = 0
        return s
    }

    /// Waybar's custom-module JSON (`return-type: json`): one line.
    public static func waybar(
        _ status: PlayerStatus?, now: Date = Date(),
        isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive
    ) -> String {
        let v = BarView(status, now: now, isProcessAlive: isProcessAlive)
        let object: JSONValue = .object([
            "text": .string(v.text), "tooltip": .string(v.tooltip),
            "class": .string(v.cssClass), "percentage": .number(Double(v.percentage)),
        ])
        return String(decoding: CompactJSON.data(object), as: UTF8.self)
    }

    /// i3blocks' three lines: full text, short text, colour.
    public static func i3blocks(
        _ status: PlayerStatus?, now: Date = Date(),
        isProcessAlive: (Int32) -> Bool = PlayerStatus.processIsAlive
    ) -> String {
        let v = BarView(status, now: now, isProcessAlive: isProcessAlive)
        return "\(v.text)\n\(v.shortText)\n\(v.colour)"
    }

    /// What a status bar shows, shared by the waybar and i3blocks formats.
    struct BarView {
        var text: String
        var shortText: String
        var tooltip: String
        var cssClass: String
        var percentage: Int
        var colour: String

        init(_ status: PlayerStatus?, now: Date, isProcessAlive: (Int32) -> Bool) {
            guard let status else {
                (text, shortText, tooltip, cssClass, percentage, colour) = (
                    "♪ off", "♪", "No player has run yet", "stopped", 0, "#888888"
                )
                return
            }
            let state = status.isStale(now: now, isProcessAlive: isProcessAlive) ? .stopped : status.state
            let name = title(status)
            percentage = Int((status.masterVolume * 100).rounded())
            // One class: the state, or what matters more while playing ("lost": no sound is
            // coming out; "muted": silent on purpose).
            cssClass = state.rawValue
            switch state {
            case .playing where status.output.lost:
                cssClass = "lost"
                (text, shortText, colour) = ("♪ \(name) (no output)", "♪ !", "#bf616a")
            case .playing where status.muted:
                cssClass = "muted"
                (text, shortText, colour) = ("🔇 \(name) \(percentage)%", "🔇 \(percentage)%", "#888888")
            case .playing:
                (text, shortText, colour) = ("♪ \(name) \(percentage)%", "♪ \(percentage)%", "#a3be8c")
            case .paused:
                (text, shortText, colour) = ("⏸ \(name) \(percentage)%", "⏸ \(percentage)%", "#ebcb8b")
            case .stopped:
                (text, shortText, colour) = ("♪ off", "♪", "#888888")
            }
            var tip = [
                "\(state.rawValue.capitalized): \(name), master \(percentage)%"
                    + (status.muted && state != .stopped ? " (muted)" : "")
            ]
            if state == .playing && status.output.lost {
                tip.append("Output lost (\(status.output.backend) \(status.output.device)): retrying")
            }
            if state != .stopped, let remaining = status.timerRemainingSeconds {
                tip.append(
                    "Timer: \(duration(remaining)) left" + (status.timerEndsAt.map { " (ends \(clock($0)))" } ?? ""))
            }
            for (i, l) in status.layers.enumerated() { tip.append("Layer \(i + 1): \(layer(l))") }
            tooltip = tip.joined(separator: "\n")
        }
    }

    // MARK: - Pieces

    /// "on, 80%, colour 1.80 (brown), low cut 20 Hz, EQ +2/-3/-8 dB" (or "off, ...").
    public static func layer(_ l: Mix.Layer) -> String {
        var parts = [l.enabled ? "on" : "off", "\(percent(l.volume))"]
        switch l.texture ?? .noise {
        case .noise: parts.append("colour \(String(format: "%.2f", l.colour)) (\(colourName(l.colour)))")
        case .drops: parts.append("drops \(FieldFormat.number(l.textureSettings.densityPerSecond.rounded1))/s")
        case let kind:  // crackle and the statistical textures
            let t = l.textureSettings
            parts.append(
                """
                \(kind.rawValue) \(FieldFormat.number(t.densityPerSecond.rounded1))/s, brightness \
                \(FieldFormat.number(t.brightness.rounded1))
                """
            )
        }
        if let lc = l.lowCutHz { parts.append("low cut \(FieldFormat.number(lc)) Hz") }
        if let hc = l.highCutHz { parts.append("high cut \(FieldFormat.number(hc)) Hz") }
        if l.eq != Mix.EQ() {
            parts.append("EQ \(signed(l.eq.lowDb))/\(signed(l.eq.midDb))/\(signed(l.eq.highDb)) dB")
        }
        if let m = l.movement, !m.isStill {
            var swings: [String] = []
            if m.levelDb > 0 { swings.append("±\(FieldFormat.number(m.levelDb)) dB") }
            if m.highCutOctaves > 0 { swings.append("cut ±\(FieldFormat.number(m.highCutOctaves)) oct") }
            parts.append("moving \(swings.joined(separator: ", ")) every ~\(FieldFormat.number(m.periodSeconds)) s")
        }
        return parts.joined(separator: ", ")
    }

    static func colourName(_ beta: Double) -> String { ColourName.of(beta) }

    static func percent(_ v: Double) -> String { "\(Int((v * 100).rounded()))%" }

    static func signed(_ v: Double) -> String {
        let s = v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
        return v > 0 ? "+" + s : s
    }

    /// 29m 12s, 1h 05m, 45s.
    public static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.up)))
        if s >= 3600 { return "\(s / 3600)h \(pad(s % 3600 / 60))m" }
        if s >= 60 { return "\(s / 60)m \(pad(s % 60))s" }
        return "\(s)s"
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    static func clock(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "HH:mm"
        return f.string(from: date)
    }

    static func ago(_ date: Date, now: Date) -> String {
        let s = Int(now.timeIntervalSince(date).rounded())
        if s < 0 { return "just now" }
        if s < 120 { return "\(s) s ago" }
        if s < 7200 { return "\(s / 60) min ago" }
        return "at \(ISODate.format(date))"
    }
}

private extension Float {
    /// To one decimal, as a Double for `FieldFormat` (Float → Double shows 0.7 as 0.699999988).
    var rounded1: Double { (Double(self) * 10).rounded() / 10 }
}
