import CivilDates
import Foundation
import NoiseEngine
import WidgetDataKeys

/// The Noise Machine widget (template `noiseMachine`): the seed's buttons and more — a real
/// Stopped state, a stop button, the mix name, the sleep timer, each layer's colour, the master
/// level.
extension TemplateContext {
    var noiseState: NoiseWidgetState { inputs.noise ?? .default }

    static func noiseStateLabel(_ p: NoiseWidgetState.Playback) -> String {
        switch p {
        case .playing: "Playing"
        case .paused: "Paused"
        case .stopped: "Stopped"
        }
    }

    /// white (β 0) → pink (1) → brown (2).
    static func noiseColour(_ beta: Double) -> RGBA {
        let white = RGBA(hex: 0xF4F4F6), pink = RGBA(hex: 0xFF8FB4), brown = RGBA(hex: 0x9A6238)
        let t = min(2, max(0, beta.isFinite ? beta : 1))
        let (a, c, f) = t <= 1 ? (white, pink, t) : (pink, brown, t - 1)
        return RGBA(a.r + (c.r - a.r) * f, a.g + (c.g - a.g) * f, a.b + (c.b - a.b) * f)
    }

    static func noiseColourName(_ beta: Double) -> String { ColourName.capitalised(beta) }

    /// What a layer makes, as its tile names it: the noise colour, or the texture.
    static func layerSoundName(_ l: NoiseWidgetState.Layer) -> String {
        switch l.texture {
        case "drops": "Drops"
        case "crackle": "Crackle"
        default: noiseColourName(l.colour)
        }
    }

    /// Water blue for drops, ember orange for crackle, the noise colour otherwise.
    static func layerSwatch(_ l: NoiseWidgetState.Layer) -> RGBA {
        switch l.texture {
        case "drops": RGBA(hex: 0x5AA9E6)
        case "crackle": RGBA(hex: 0xE8833A)
        default: noiseColour(l.colour)
        }
    }

    static func timerText(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded(.up))
        return minutes >= 60 ? "\(minutes / 60)h \(String(format: "%02d", minutes % 60))m" : "\(minutes)m"
    }

    func updatedText(_ date: Date?) -> String? {
        guard let date else { return nil }
        return "Updated " + CivilTime.local(date, in: inputs.context.timeZone).hourMinute
    }

    func percent(_ v: Double) -> String { "\(Int((min(1, max(0, v.isFinite ? v : 0)) * 100).rounded()))%" }

    // MARK: Pieces

    func playPauseButton(_ r: Rect) {
        b.fill(r, .solid(accent), radius: r.height / 2, kind: .button)
        _ = b.symbol(playPauseSymbol, centre: Point(x: r.midX, y: r.midY), size: r.height * 0.58, colour: .white)
        playPauseAction(r)
    }

    /// What a press on play/pause will do, as its glyph.
    var playPauseSymbol: String { noiseState.playback == .playing ? "pause.fill" : "play.fill" }

    /// The area a press toggles the player in, titled with what the press will do.
    func playPauseAction(_ r: Rect) {
        let title = noiseState.playback == .playing ? "Pause" : "Play"
        b.action(ActionArea(id: "noise.playPause", action: .togglePlayPause, title: title, rect: r))
    }

    func stopButton(_ r: Rect) {
        let stopped = noiseState.playback == .stopped
        b.fill(r, .solid(accent.opacity(stopped ? 0.08 : 0.16)), radius: r.height / 2, kind: .button)
        _ = b.symbol(
            "stop.fill", centre: Point(x: r.midX, y: r.midY), size: r.height * 0.55,
            colour: accent.opacity(stopped ? 0.45 : 1))
        b.action(ActionArea(id: "noise.stop", action: .stop, title: "Stop", rect: r))
    }

    /// "−15" and "+15" at the right of a row while a sleep timer runs (`noise timer -15m` / `+15m`);
    /// false, drawing nothing, when no timer runs.
    func timerButtons(right: Double, y: Double, height: Double) -> Bool {
        let s = noiseState
        guard s.timerRemainingSeconds != nil, s.playback != .stopped else { return false }
        let width = 46.0, gap = 6.0
        for (i, minutes) in [-15, 15].enumerated() {
            let r = Rect(x: right - Double(2 - i) * width - Double(1 - i) * gap, y: y, width: width, height: height)
            b.fill(r, .solid(accent.opacity(0.16)), radius: height / 2, kind: .button)
            let label = minutes < 0 ? "−15" : "+15"
            b.addText(
                run(label, size: 12, weight: 600, colour: accent, tabular: true), x: r.minX, y: r.midY - 7.5,
                width: r.width, align: .centre)
            b.action(
                ActionArea(
                    id: minutes < 0 ? "noise.timer.minus15" : "noise.timer.plus15",
                    action: .adjustTimer(minutes: minutes),
                    title: minutes < 0 ? "Timer −15 min" : "Timer +15 min", rect: r))
        }
        return true
    }

    func resumeToggle(_ r: Rect) {
        let on = noiseState.resumeOnLaunch
        b.fill(r, .solid(on ? accent : accent.opacity(0.16)), radius: r.height / 2, kind: .button)
        _ = b.symbol(
            "arrow.triangle.2.circlepath.circle.fill", centre: Point(x: r.midX, y: r.midY), size: r.height * 0.58,
            colour: on ? .white : accent)
        b.action(
            ActionArea(
                id: "noise.resumeOnLaunch", action: .toggleResumeOnLaunch,
                title: on ? "Resume at login: on" : "Resume at login: off", rect: r))
    }

    /// A layer button: prominent when on; the layer's noise colour as a swatch bar.
    func layerButton(_ i: Int, _ r: Rect, label: String? = nil) {
        let layer = noiseState.layers[i]
        let on = layer.enabled
        b.fill(r, .solid(on ? accent : accent.opacity(0.14)), radius: min(10, r.height / 2), kind: .button)
        let text = run(label ?? "\(i + 1)", size: 17, weight: 600, colour: on ? .white : accent)
        let m = b.measure(text, width: r.width)
        b.addText(text, x: r.minX, y: r.midY - m.height / 2 - 2, width: r.width, align: .centre)
        let swatch = Rect(x: r.midX - min(12, r.width / 2 - 4), y: r.maxY - 7, width: min(24, r.width - 8), height: 3)
        b.fill(swatch, .solid(Self.layerSwatch(layer).opacity(on ? 1 : 0.55)), radius: 1.5)
        b.action(
            ActionArea(id: "noise.layer.\(i + 1)", action: .toggleLayer(i + 1), title: "Layer \(i + 1)", rect: r))
    }

    func statusBlock(right x: Double, top y: Double, width: Double) {
        b.addText(
            run("Noise", size: 17, weight: 600, colour: palette.primary), x: x - width, y: y, width: width,
            align: .trailing)
        let state = noiseState.playback
        let colour = state == .playing ? accent : palette.secondary
        b.addText(
            run(Self.noiseStateLabel(state), size: 12, weight: state == .playing ? 600 : 400, colour: colour),
            x: x - width, y: y + 22, width: width, align: .trailing)
    }

    func bar(_ r: Rect, value: Double, colour: RGBA) {
        b.fill(r, .solid(palette.primary.opacity(0.14)), radius: r.height / 2)
        let v = min(1, max(0, value.isFinite ? value : 0))
        if v > 0 {
            b.fill(
                Rect(x: r.minX, y: r.minY, width: max(r.height, r.width * v), height: r.height), .solid(colour),
                radius: r.height / 2)
        }
    }

    /// "Pink · 23m left" (mix name, then the timer when one runs).
    func mixLine() -> String {
        var parts = [noiseState.mixName]
        if let t = noiseState.timerRemainingSeconds, noiseState.playback != .stopped {
            parts.append("\(Self.timerText(t)) left")
        }
        return parts.joined(separator: " · ")
    }

    func noiseTextLines() {
        let s = noiseState
        let layers = s.layers.enumerated().map { "\($0.offset + 1)\($0.element.enabled ? "●" : "○")" }.joined(
            separator: " ")
        b.textLines = [
            "Noise: \(Self.noiseStateLabel(s.playback))", mixLine(), "Layers \(layers)",
            "Master \(percent(s.masterVolume))",
        ]
        if family == .inline { b.textLines = ["Noise \(Self.noiseStateLabel(s.playback).lowercased())", mixLine()] }
    }

    // MARK: Families

    func noiseMachine() {
        defaultBackdrop()
        let s = noiseState
        let area = bounds.insetBy(14)
        noiseTextLines()
        switch family {
        case .small:
            playPauseButton(Rect(x: area.minX, y: area.minY, width: 44, height: 44))
            stopButton(Rect(x: area.minX + 52, y: area.minY + 5, width: 34, height: 34))
            statusBlock(right: area.maxX, top: area.minY + 2, width: area.width - 92)
            b.addText(
                run(s.mixName, size: 13, weight: 600, colour: palette.primary), x: area.minX, y: area.minY + 54,
                width: area.width)
            var detail =
                s.timerRemainingSeconds.flatMap { s.playback != .stopped ? "\(Self.timerText($0)) left" : nil }
                ?? updatedText(s.updatedAt) ?? ""
            if detail.isEmpty { detail = "Master \(percent(s.masterVolume))" }
            b.addText(
                run(detail, size: 11, colour: palette.secondary), x: area.minX, y: area.minY + 72, width: area.width)
            layerRow(Rect(x: area.minX, y: area.maxY - 34, width: area.width, height: 34))
        case .medium:
            playPauseButton(Rect(x: area.minX, y: area.minY, width: 44, height: 44))
            stopButton(Rect(x: area.minX + 52, y: area.minY + 5, width: 34, height: 34))
            resumeToggle(Rect(x: area.minX + 94, y: area.minY + 5, width: 34, height: 34))
            statusBlock(right: area.maxX, top: area.minY + 2, width: 150)
            b.addText(
                run(mixLine(), size: 15, weight: 600, colour: palette.primary), x: area.minX, y: area.minY + 54,
                width: area.width * 0.6)
            if !timerButtons(right: area.maxX, y: area.minY + 52, height: 24), let u = updatedText(s.updatedAt) {
                b.addText(
                    run(u, size: 12, colour: palette.secondary), x: area.midX, y: area.minY + 56, width: area.width / 2,
                    align: .trailing)
            }
            let masterY = area.minY + 80
            b.addText(
                run("Master \(percent(s.masterVolume))", size: 11, weight: 600, colour: palette.secondary),
                x: area.minX, y: masterY, width: 90)
            bar(
                Rect(x: area.minX + 92, y: masterY + 5, width: area.width - 92, height: 4), value: s.masterVolume,
                colour: accent)
            layerRow(Rect(x: area.minX, y: area.maxY - 34, width: area.width, height: 34))
        default:
            noiseLarge(area)
        }
    }

    func layerRow(_ r: Rect) {
        let w = (r.width - 3 * 8) / 4
        for i in 0..<4 { layerButton(i, Rect(x: r.minX + Double(i) * (w + 8), y: r.minY, width: w, height: r.height)) }
    }

    func noiseLarge(_ area: Rect) {
        let s = noiseState
        playPauseButton(Rect(x: area.minX, y: area.minY, width: 44, height: 44))
        stopButton(Rect(x: area.minX + 52, y: area.minY + 5, width: 34, height: 34))
        statusBlock(right: area.maxX, top: area.minY + 2, width: 180)
        // Meta row: resume toggle (icon + "Resume" + On/Off), then "Updated".
        let metaY = area.minY + 54
        let resume = Rect(x: area.minX, y: metaY, width: 128, height: 28)
        b.fill(
            resume, .solid(s.resumeOnLaunch ? accent.opacity(0.28) : accent.opacity(0.12)), radius: 14, kind: .button)
        _ = b.symbol(
            "arrow.triangle.2.circlepath", centre: Point(x: resume.minX + 16, y: resume.midY), size: 15, colour: accent)
        b.addText(
            run("Resume", size: 12, weight: 600, colour: palette.primary), x: resume.minX + 28, y: resume.midY - 7.5,
            width: 50)
        b.addText(
            run(s.resumeOnLaunch ? "On" : "Off", size: 12, colour: palette.secondary), x: resume.minX + 78,
            y: resume.midY - 7.5, width: 40, align: .trailing)
        b.action(
            ActionArea(
                id: "noise.resumeOnLaunch", action: .toggleResumeOnLaunch,
                title: s.resumeOnLaunch ? "Resume at login: on" : "Resume at login: off", rect: resume))
        if !timerButtons(right: area.maxX, y: metaY, height: 28), let u = updatedText(s.updatedAt) {
            b.addText(
                run(u, size: 12, colour: palette.secondary), x: area.midX, y: metaY + 6, width: area.width / 2,
                align: .trailing)
        }
        // Mix, timer, master.
        let mixY = metaY + 38
        b.addText(
            run(mixLine(), size: 17, weight: 600, colour: palette.primary), x: area.minX, y: mixY,
            width: area.width * 0.62)
        b.addText(
            run("Master \(percent(s.masterVolume))", size: 12, weight: 600, colour: palette.secondary),
            x: area.minX + area.width * 0.62, y: mixY + 3, width: area.width * 0.38, align: .trailing)
        bar(Rect(x: area.minX, y: mixY + 28, width: area.width, height: 4), value: s.masterVolume, colour: accent)
        // 2×2 grid of layer tiles.
        let gridTop = mixY + 44
        let gap = 10.0
        let tileW = (area.width - gap) / 2, tileH = (area.maxY - gridTop - gap) / 2
        for i in 0..<4 {
            let tile = Rect(
                x: area.minX + Double(i % 2) * (tileW + gap), y: gridTop + Double(i / 2) * (tileH + gap), width: tileW,
                height: tileH)
            layerTile(i, tile)
        }
    }

    func layerTile(_ i: Int, _ tile: Rect) {
        let layer = noiseState.layers[i]
        b.fill(tile, .solid(palette.quaternaryFill), radius: 12)
        let inner = tile.insetBy(10)
        let toggle = Rect(x: inner.minX, y: inner.minY, width: inner.width, height: 30)
        b.fill(toggle, .solid(layer.enabled ? accent : accent.opacity(0.14)), radius: 9, kind: .button)
        b.addText(
            run("Layer \(i + 1)", size: 12, weight: 600, colour: layer.enabled ? .white : accent), x: toggle.minX + 10,
            y: toggle.midY - 7.5, width: 70)
        b.addText(
            run(
                layer.enabled ? "On" : "Off", size: 12,
                colour: layer.enabled ? RGBA.white.opacity(0.85) : palette.secondary), x: toggle.maxX - 50,
            y: toggle.midY - 7.5, width: 40, align: .trailing)
        b.action(
            ActionArea(id: "noise.layer.\(i + 1)", action: .toggleLayer(i + 1), title: "Layer \(i + 1)", rect: toggle))
        // Colour swatch and name (a texture's name and swatch instead, for drops and crackle).
        let cy = toggle.maxY + 10
        b.add(
            .shape, Rect(x: inner.minX, y: cy + 1, width: 12, height: 12),
            .ellipse(fill: .solid(Self.layerSwatch(layer)), stroke: palette.primary.opacity(0.25), strokeWidth: 0.5))
        b.addText(
            run(Self.layerSoundName(layer), size: 11, weight: 500, colour: palette.secondary), x: inner.minX + 18,
            y: cy, width: inner.width - 18)
        // Volume.
        let vy = cy + 22
        b.addText(
            run("Volume", size: 11, weight: 600, colour: palette.secondary), x: inner.minX, y: vy,
            width: inner.width / 2)
        b.addText(
            run(percent(layer.volume), size: 11, weight: 600, colour: palette.primary, tabular: true), x: inner.midX,
            y: vy, width: inner.width / 2, align: .trailing)
        bar(
            Rect(x: inner.minX, y: min(vy + 19, inner.maxY - 4), width: inner.width, height: 4), value: layer.volume,
            colour: layer.enabled ? accent : palette.secondary)
    }

    // MARK: Accessory families (lock screen: monochrome, no background)

    func noiseAccessory() {
        let s = noiseState
        noiseTextLines()
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        switch family {
        case .circular:
            b.add(.shape, bounds, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            b.add(
                .ring, bounds.insetBy(3),
                .arc(colour: ink.opacity(0.25), lineWidth: 5, startDegrees: 0, endDegrees: 360, roundCaps: false))
            if s.masterVolume > 0 {
                b.add(
                    .ring, bounds.insetBy(3),
                    .arc(
                        colour: ink, lineWidth: 5, startDegrees: 0, endDegrees: 360 * min(1, s.masterVolume),
                        roundCaps: true))
            }
            _ = b.symbol(playPauseSymbol, centre: Point(x: bounds.midX, y: bounds.midY), size: 32, colour: ink)
            playPauseAction(bounds)
        case .rectangular:
            let button = Rect(x: 2, y: bounds.midY - 22, width: 44, height: 44)
            b.add(.button, button, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            _ = b.symbol(playPauseSymbol, centre: Point(x: button.midX, y: button.midY), size: 26, colour: ink)
            playPauseAction(button)
            let x = button.maxX + 8, w = bounds.maxX - x
            b.addText(
                run("Noise · \(Self.noiseStateLabel(s.playback))", size: 15, weight: 600, colour: ink), x: x, y: 6,
                width: w)
            b.addText(run(mixLine(), size: 12, colour: dim), x: x, y: 27, width: w)
            for i in 0..<4 {
                let dot = Rect(x: x + Double(i) * 16, y: 52, width: 11, height: 11)
                b.add(
                    .shape, dot,
                    .ellipse(fill: s.layers[i].enabled ? .solid(ink) : nil, stroke: ink.opacity(0.7), strokeWidth: 1.2))
            }
        default:
            _ = b.symbol(playPauseSymbol, centre: Point(x: 9, y: bounds.midY), size: 16, colour: ink)
            b.addText(
                run("\(Self.noiseStateLabel(s.playback)) · \(mixLine())", size: 15, weight: 500, colour: ink), x: 20,
                y: 4, width: bounds.width - 20)
            playPauseAction(bounds)
        }
    }
}
