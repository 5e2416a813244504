import FieldTable
import Foundation
import NoiseEngine

extension Page {
    static let noiseTemplates = HTMLTemplates(PackageResources.noise_html, file: "Noise/noise.html")
    static let soundIcons = HTMLTemplates(PackageResources.icons_html, file: "Noise/icons.html")

    /// The Noise section: the mix on top with its presets, the board of sounds (a card per sound, each
    /// `data-sound`, a drawn icon and one volume slider), and the four-layer mixer folded away as
    /// "Advanced". The mix list and the presets are drawn by the page's script from `GET /api/board`.
    /// - Parameter night: more of the page after the board (the night's section, when a branch adds it).
    public static func noise(
        mixer: MixerState, token: String, sounds: [Sound] = [], board: BoardState? = nil, night: String = ""
    ) -> String {
        let t = noiseTemplates
        let cards = sounds.map { sound in
            let slot = board?.layers.first { $0.enabled && $0.sound == sound.id }
            let volume = slot?.volume ?? sound.layer.volume
            let control = MixerControl(.volume)
            return t.render(
                "card",
                [
                    "id": sound.id, "kind": sound.kind.rawValue, "name": sound.name, "detail": sound.detail,
                    "icon": icon(for: sound), "pressed": slot == nil ? "false" : "true",
                    "min": number(control.min), "max": number(control.max), "step": number(control.step),
                    "value": number(volume), "text": percent(volume),
                    "disabled": slot == nil ? templates.render("disabled") : .empty,
                ])
        }
        let body = t.render(
            "page",
            [
                "summary": mixerSummary(mixer), "cards": cards, "mixer": mixerSection(mixer),
                "reference": Mix.lufs(Mix.referenceLoudnessLufs), "maxLayers": SoundBoard.maximumLayers,
            ])
        return AppShell.page(
            title: "Noise", active: .noise, token: token, body: body.description + night,
            stylesheets: ["/static/app.css", "/static/board.css", "/static/night.css"],
            scripts: ["/static/app.js", "/static/board.js", "/static/night.js"])
    }

    /// The sound's own drawing, else its texture's, else one for its kind.
    static func icon(for sound: Sound) -> HTML {
        let texture = sound.layer.texture.map(\.rawValue)
        for name in [sound.id, texture, sound.kind.rawValue].compactMap({ $0 }) where soundIcons.has("icon-" + name) {
            return soundIcons.render("icon-" + name)
        }
        return soundIcons.render("icon-sound")
    }
}
