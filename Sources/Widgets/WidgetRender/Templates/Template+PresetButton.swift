import Foundation
import WidgetDesign

/// The Play Preset template (`presetButton`, ours): one button that plays the design's noise
/// preset (`presetButton.preset`): it starts `noise play --preset ID`, or switches the running
/// player to it. The whole widget is the button, so one tap anywhere plays it. The title is the
/// primary text, else the preset's name; the line under it says whether that preset is the one
/// playing now.
extension TemplateContext {
    /// What the button plays and says: the preset id (nil: the design names none), the title, and
    /// the state line.
    func presetButtonContent() -> (id: String?, title: String, state: String, playing: Bool) {
        guard let id = spec.presetButton?.presetID else {
            return (nil, primary.isEmpty ? "No preset" : primary, "Set one: presetButton.preset=rain", false)
        }
        var known = true
        var presetName = Self.presetTitle(id)
        if let names = inputs.presetNames {
            if let n = names[id] { presetName = n } else { known = false }
        }
        guard known else {
            b.warnings.append("presetButton.preset: no preset '\(id)' ('noise presets' lists them)")
            return (nil, "No preset '\(id)'", "'noise presets' lists them", false)
        }
        let title = primary.isEmpty ? presetName : primary
        let s = inputs.noise
        let isThis = s?.presetID == id && s?.playback != .stopped
        let state =
            switch (isThis, s?.playback) {
            case (true, .playing?): "Playing"
            case (true, .paused?): "Paused · tap to play"
            default: "Tap to play"
            }
        return (id, title, state, isThis && s?.playback == .playing)
    }

    /// "deep-focus" → "Deep focus": the id as a title when the library was not asked.
    static func presetTitle(_ id: String) -> String {
        let words = id.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    func presetAction(_ id: String?, _ title: String, _ r: Rect) {
        guard let id else { return }
        b.action(ActionArea(id: "preset.play", action: .playPreset(id: id), title: "Play \(title)", rect: r))
    }

    func presetButton() {
        defaultBackdrop()
        let (id, title, state, playing) = presetButtonContent()
        let area = contentRect(minPad: 14)
        let large = family == .large
        // The round button, top left (centred on large), the title and state under it.
        let size: Double = isSmall ? 58 : (large ? 96 : 64)
        let align: TextAlignment = large ? .centre : .leading
        let titleRun = run(title, size: isSmall ? 20 : (large ? 30 : 24), weight: 700, colour: palette.primary)
        let fitted =
            shrunkToOneLine(titleRun, width: area.width)
            ?? run(title, size: 15, weight: 700, colour: palette.primary, lines: 2)
        let stateRun = run(state, size: isSmall ? 13 : 15, weight: 500, colour: playing ? accent : palette.secondary)
        let tm = b.measure(fitted, width: area.width), sm = b.measure(stateRun, width: area.width)
        // Small and medium: the button at the top left, the text at the bottom; large: the three
        // centred as one block.
        let block = size + 12 + tm.height + 2 + sm.height
        let button = Rect(
            x: large ? area.midX - size / 2 : area.minX, y: large ? area.midY - block / 2 : area.minY, width: size,
            height: size)
        b.fill(button, .solid(id == nil ? palette.secondary.opacity(0.3) : accent), radius: size / 2, kind: .button)
        _ = b.symbol(
            playing ? "speaker.wave.2.fill" : "play.fill", centre: Point(x: button.midX, y: button.midY),
            size: size * 0.46, colour: .white)
        if let s = spec.symbol, !large {
            _ = b.symbol(
                s.name, centre: Point(x: area.maxX - 10, y: area.minY + 10), size: 18, colour: accent,
                field: "symbol.name")
        }
        let top = large ? button.maxY + 12 : max(button.maxY + 8, area.maxY - tm.height - 2 - sm.height)
        b.addText(fitted, x: area.minX, y: top, width: area.width, align: align)
        b.addText(stateRun, x: area.minX, y: top + tm.height + 2, width: area.width, align: align, maxY: area.maxY)
        presetAction(id, title, bounds)
        b.textLines = [title, state]
    }

    func presetButtonAccessory() {
        let ink = palette.accessoryPrimary, dim = palette.accessorySecondary
        let (id, title, state, playing) = presetButtonContent()
        b.textLines = [title, state]
        let symbol = playing ? "speaker.wave.2.fill" : "play.fill"
        switch family {
        case .circular:
            b.add(.shape, bounds, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            _ = b.symbol(symbol, centre: Point(x: bounds.midX, y: 26), size: 24, colour: ink)
            let name =
                shrunkToOneLine(run(title, size: 13, weight: 600, colour: ink), width: bounds.width - 12)
                ?? run(title, size: 10, weight: 600, colour: ink)
            b.addText(name, x: 6, y: 44, width: bounds.width - 12, align: .centre)
        case .rectangular:
            let button = Rect(x: 2, y: bounds.midY - 22, width: 44, height: 44)
            b.add(.button, button, .ellipse(fill: .solid(palette.accessoryFill), stroke: nil, strokeWidth: 0))
            _ = b.symbol(symbol, centre: Point(x: button.midX, y: button.midY), size: 24, colour: ink)
            let x = button.maxX + 8, w = bounds.maxX - x
            b.addText(run(title, size: 17, weight: 600, colour: ink), x: x, y: 8, width: w)
            b.addText(run(state, size: 13, colour: dim), x: x, y: 32, width: w)
        default:
            _ = b.symbol(symbol, centre: Point(x: 9, y: bounds.midY), size: 16, colour: ink)
            b.addText(
                run("\(title) · \(state)", size: 15, weight: 500, colour: ink), x: 20, y: 4, width: bounds.width - 20)
        }
        presetAction(id, title, bounds)
    }
}
