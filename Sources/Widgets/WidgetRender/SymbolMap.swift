/// SF Symbol names (what designs store) → Material Icons glyphs (apt
/// `fonts-material-design-icons-iconfont`, Apache-2.0). No Apple artwork is used.
public struct SymbolGlyph: Sendable, Hashable {
    /// The SF Symbol name the design asked for.
    public var sfName: String
    /// The Material icon's name (`play_arrow`); `help_outline` for the fallback.
    public var materialName: String
    /// The glyph's private-use code point in the Material Icons font.
    public var codePoint: UInt32
    public var isFallback: Bool

    public var character: String { String(Character(Unicode.Scalar(codePoint)!)) }
}

public enum SymbolMap {
    public static let fontFile = "/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf"

    /// Material icon name → code point (from the package's `material-design-icons.css`).
    static let codePoints: [String: UInt32] = [
        "play_arrow": 0xE037, "pause": 0xE034, "stop": 0xE047, "autorenew": 0xE863, "sync": 0xE627,
        "directions_walk": 0xE536, "map": 0xE55B, "local_fire_department": 0xEF55, "arrow_upward": 0xE5D8,
        "schedule": 0xE8B5, "event": 0xE878, "event_busy": 0xE615, "image": 0xE3F4, "warning": 0xE002,
        "check_circle": 0xE86C, "lock": 0xE897, "radio_button_unchecked": 0xE836, "circle": 0xEF4A,
        "auto_awesome": 0xE65F,
        "hourglass_empty": 0xE88B, "format_quote": 0xE244, "menu_book": 0xEA19, "wb_cloudy": 0xE42D,
        "cloud": 0xE2BD, "bolt": 0xEA0B, "graphic_eq": 0xE1B8, "checklist": 0xE6B1, "wb_sunny": 0xE430,
        "umbrella": 0xF1AD, "grain": 0xE3EA, "thunderstorm": 0xEBDB, "ac_unit": 0xEB3B, "nights_stay": 0xEA46,
        "water_drop": 0xE798, "timer": 0xE425, "help_outline": 0xE8FD, "add": 0xE145, "done": 0xE876,
        "refresh": 0xE5D5, "volume_up": 0xE050, "bedtime": 0xEF44, "calendar_today": 0xE935,
        "filter_drama": 0xE3DD, "air": 0xEFD8, "foggy": 0xE818, "exposure": 0xE3CA, "light_mode": 0xE518,
        "dark_mode": 0xE51C, "thermostat": 0xF076, "waves": 0xE176, "equalizer": 0xE01D, "star": 0xE838,
        "favorite": 0xE87D, "notifications": 0xE7F4, "home": 0xE88A, "work": 0xE8F9, "fitness_center": 0xEB43,
        "directions_run": 0xE566, "local_cafe": 0xE541, "music_note": 0xE405, "headphones": 0xF01F,
        "lightbulb": 0xE0F0, "chat_bubble": 0xE0CA, "book": 0xE865, "cloudy_snowing": 0xE810,
        "snowing": 0xE80F, "sunny": 0xE81A, "bookmark": 0xE866, "flag": 0xE153, "person": 0xE7FD,
        "mail": 0xE158, "phone": 0xE0CD, "location_on": 0xE0C8, "search": 0xE8B6, "settings": 0xE8B8,
        "edit": 0xE3C9, "delete": 0xE872, "remove": 0xE15B, "close": 0xE5CD, "info": 0xE88E,
        "error": 0xE000, "fiber_manual_record": 0xE061, "check": 0xE5CA, "alarm": 0xE855,
        "restart_alt": 0xF053, "beach_access": 0xEB3E,
    ]

    /// SF Symbol name → Material icon name. Covers the catalogue, the Noise Machine widget,
    /// weather symbols and the seed documents; docs/rendering.md prints this table.
    public static let table: [(sf: String, material: String)] = [
        ("sparkles", "auto_awesome"), ("bolt.fill", "bolt"), ("bolt", "bolt"),
        ("play.fill", "play_arrow"), ("play", "play_arrow"), ("pause.fill", "pause"), ("pause", "pause"),
        ("stop.fill", "stop"), ("stop", "stop"),
        ("arrow.triangle.2.circlepath.circle.fill", "autorenew"), ("arrow.triangle.2.circlepath.circle", "autorenew"),
        ("arrow.triangle.2.circlepath", "autorenew"), ("arrow.clockwise", "refresh"),
        ("figure.walk", "directions_walk"), ("figure.run", "directions_run"), ("map", "map"),
        ("flame.fill", "local_fire_department"),
        ("flame", "local_fire_department"), ("arrow.up", "arrow_upward"), ("clock", "schedule"),
        ("clock.fill", "schedule"),
        ("alarm", "alarm"), ("timer", "timer"), ("calendar", "calendar_today"),
        ("calendar.badge.exclamationmark", "event_busy"),
        ("photo", "image"), ("photo.fill", "image"), ("exclamationmark.triangle.fill", "warning"),
        ("exclamationmark.triangle", "warning"), ("checkmark.circle.fill", "check_circle"), ("checkmark", "check"),
        ("circle", "radio_button_unchecked"), ("lock", "lock"), ("lock.fill", "lock"), ("circle.fill", "circle"),
        ("hourglass", "hourglass_empty"),
        ("quote.bubble.fill", "format_quote"), ("quote.bubble", "format_quote"), ("book.closed.fill", "menu_book"),
        ("book.fill", "book"), ("book", "book"), ("plusminus.circle", "exposure"), ("plus", "add"), ("minus", "remove"),
        ("waveform", "graphic_eq"), ("checklist", "checklist"), ("list.bullet", "checklist"),
        ("cloud.sun.fill", "filter_drama"), ("cloud.sun", "filter_drama"), ("cloud.fill", "cloud"), ("cloud", "cloud"),
        ("cloud.rain.fill", "beach_access"), ("cloud.rain", "beach_access"), ("cloud.drizzle.fill", "grain"),
        ("cloud.drizzle", "grain"),
        ("cloud.heavyrain.fill", "beach_access"), ("umbrella.fill", "beach_access"), ("umbrella", "beach_access"),
        ("cloud.bolt.rain.fill", "thunderstorm"), ("cloud.bolt.fill", "thunderstorm"),
        ("cloud.bolt", "thunderstorm"), ("cloud.snow.fill", "cloudy_snowing"), ("cloud.snow", "cloudy_snowing"),
        ("snowflake", "ac_unit"), ("cloud.fog.fill", "foggy"), ("cloud.fog", "foggy"), ("wind", "air"),
        ("sun.max.fill", "wb_sunny"), ("sun.max", "wb_sunny"), ("sun.min.fill", "light_mode"),
        ("sun.min", "light_mode"),
        ("moon.fill", "dark_mode"), ("moon", "dark_mode"), ("moon.stars.fill", "nights_stay"),
        ("moon.zzz.fill", "bedtime"),
        ("cloud.moon.fill", "nights_stay"), ("drop.fill", "water_drop"), ("drop", "water_drop"),
        ("thermometer", "thermostat"),
        ("thermometer.medium", "thermostat"), ("humidity", "water_drop"), ("water.waves", "waves"),
        ("speaker.wave.2.fill", "volume_up"), ("speaker.wave.3.fill", "volume_up"),
        ("slider.horizontal.3", "equalizer"),
        ("star.fill", "star"), ("star", "star"), ("heart.fill", "favorite"), ("heart", "favorite"),
        ("bell.fill", "notifications"),
        ("bell", "notifications"), ("house.fill", "home"), ("house", "home"), ("briefcase.fill", "work"),
        ("dumbbell.fill", "fitness_center"), ("cup.and.saucer.fill", "local_cafe"), ("music.note", "music_note"),
        ("headphones", "headphones"), ("lightbulb.fill", "lightbulb"), ("lightbulb", "lightbulb"),
        ("bubble.left.fill", "chat_bubble"), ("bookmark.fill", "bookmark"), ("flag.fill", "flag"),
        ("person.fill", "person"),
        ("envelope.fill", "mail"), ("phone.fill", "phone"), ("mappin", "location_on"), ("location.fill", "location_on"),
        ("magnifyingglass", "search"), ("gearshape.fill", "settings"), ("pencil", "edit"), ("trash", "delete"),
        ("xmark", "close"), ("info.circle", "info"), ("exclamationmark.circle", "error"),
        ("bed.double.fill", "bedtime"),
        ("arrow.counterclockwise", "restart_alt"),
    ]

    static let lookup: [String: String] = Dictionary(
        table.map { ($0.sf, $0.material) }, uniquingKeysWith: { a, _ in a })

    public static let fallbackName = "help_outline"

    /// The glyph for an SF Symbol name; unknown names get the visible fallback (a circled "?").
    public static func glyph(_ sfName: String) -> SymbolGlyph {
        let key = sfName.trimmingCharactersInWhitespace().lowercased()
        if let material = lookup[key], let cp = codePoints[material] {
            return SymbolGlyph(sfName: sfName, materialName: material, codePoint: cp, isFallback: false)
        }
        return SymbolGlyph(
            sfName: sfName, materialName: fallbackName, codePoint: codePoints[fallbackName]!, isFallback: true)
    }
}

extension String {
    func trimmingCharactersInWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
