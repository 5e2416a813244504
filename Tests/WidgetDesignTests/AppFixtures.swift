import BoundedJSON
import Foundation

@testable import WidgetDesign

/// Files shaped exactly as the seed iOS app writes them (hodlsimulator/WidgetWeaver, schema 8):
/// the keys its `Encodable` implementations emit (`WidgetSpec`, `StyleSpec` with `weatherScale`,
/// `LayoutSpec`, `SymbolSpec`, `ImageSpec` with `filter`, `smartPhoto` and the legacy `crop`,
/// `SmartPhotoSpec` (synthesised: master, small/medium/large, algorithmVersion, preparedAt,
/// shuffleManifestFileName), `WidgetWeaverClockDesignConfig` (theme, face, optional
/// iconDialColourToken / iconSecondHandColourToken), the exchange payload), ISO 8601 dates,
/// sorted keys and `JSONEncoder`'s escaped slashes.
enum AppFixtures {
    static func n(_ d: Double) -> JSONValue { .number(d) }
    static func s(_ t: String) -> JSONValue { .string(t) }

    static func style(accent: String = "blue", background: String = "subtleMaterial", weatherScale: Double = 1)
        -> JSONValue
    {
        .object([
            "padding": n(16), "cornerRadius": n(20), "background": s(background), "backgroundOverlay": s("plain"),
            "backgroundOverlayOpacity": n(0), "backgroundGlowEnabled": .bool(false), "accent": s(accent),
            "nameTextStyle": s("caption"), "primaryTextStyle": s("title3"), "secondaryTextStyle": s("caption2"),
            "symbolSize": n(34), "weatherScale": n(weatherScale),
        ])
    }

    static func layout(_ template: String, alignment: String = "leading") -> JSONValue {
        .object([
            "template": s(template), "posterOverlayMode": s("caption"), "showsAccentBar": .bool(true),
            "axis": s("vertical"),
            "alignment": s(alignment), "spacing": n(8), "primaryLineLimitSmall": n(1), "primaryLineLimit": n(2),
            "secondaryLineLimitSmall": n(1), "secondaryLineLimit": n(2),
        ])
    }

    static let symbol: JSONValue = .object([
        "name": s("sparkles"), "size": n(18), "weight": s("semibold"),
        "renderingMode": s("hierarchical"), "tint": s("accent"), "placement": s("beforeName"),
    ])

    /// `straighten` and `turns`: the app's per-size `straightenDegrees` and `rotationQuarterTurns`
    /// (issue 28.8), written only when given, as older versions of the app did not write them.
    static func variant(
        _ file: String, x: Double, y: Double, w: Double, h: Double, px: Int, py: Int,
        straighten: Double? = nil, turns: Int? = nil
    ) -> JSONValue {
        var o: [String: JSONValue] = [
            "renderFileName": s(file),
            "cropRect": .object(["x": n(x), "y": n(y), "width": n(w), "height": n(h)]),
            "pixelSize": .object(["width": n(Double(px)), "height": n(Double(py))]),
        ]
        if let straighten { o["straightenDegrees"] = n(straighten) }
        if let turns { o["rotationQuarterTurns"] = n(Double(turns)) }
        return .object(o)
    }

    static func image(_ file: String, mode: String = "fill", filter: (String, Double)? = nil, smart: JSONValue? = nil)
        -> JSONValue
    {
        var o: [String: JSONValue] = [
            "fileName": s(file), "contentMode": s(mode), "height": n(120), "cornerRadius": n(16), "crop": s(mode),
        ]
        if let filter { o["filter"] = .object(["token": s(filter.0), "intensity": n(filter.1)]) }
        if let smart { o["smartPhoto"] = smart }
        return .object(o)
    }

    static func smartPhoto(prefix: String, manifest: String? = nil) -> JSONValue {
        var o: [String: JSONValue] = [
            "masterFileName": s("\(prefix)-master.jpg"),
            "small": variant(
                "\(prefix)-small.jpg", x: 0.1234567890123, y: 0.05, w: 0.61, h: 0.61, px: 340, py: 340,
                straighten: -3.25, turns: 1),
            "medium": variant(
                "\(prefix)-medium.jpg", x: 0, y: 0.21875, w: 1, h: 0.4703125, px: 728, py: 340,
                straighten: 0, turns: 0),
            "large": variant("\(prefix)-large.jpg", x: 0.0625, y: 0, w: 0.875, h: 0.9166666666666666, px: 728, py: 764),
            "algorithmVersion": n(3), "preparedAt": s("2026-01-30T08:15:42Z"),
        ]
        if let manifest { o["shuffleManifestFileName"] = s(manifest) }
        return .object(o)
    }

    static func spec(
        _ name: String, id: String = UUID().uuidString, template: String, primary: String = "Hello",
        secondary: String? = "Saved spec → widget", updated: String = "2026-01-31T21:04:05Z",
        image: JSONValue? = nil, style: JSONValue = style(), extra: [String: JSONValue] = [:]
    ) -> JSONValue {
        var o: [String: JSONValue] = [
            "version": n(8), "id": s(id), "name": s(name), "primaryText": s(primary),
            "updatedAt": s(updated), "symbol": symbol, "layout": layout(template), "style": style,
        ]
        if let secondary { o["secondaryText"] = s(secondary) }
        if let image { o["image"] = image }
        for (k, v) in extra { o[k] = v }
        return .object(o)
    }

    /// Image bytes with a real format's magic number, `size` bytes, different per `seed`.
    static func jpeg(_ size: Int, seed: UInt64) -> Data {
        var rng = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var d = Data([0xFF, 0xD8, 0xFF, 0xE0])
        d.reserveCapacity(size)
        while d.count < size {
            rng ^= rng << 13
            rng ^= rng >> 7
            rng ^= rng << 17
            d.append(UInt8(truncatingIfNeeded: rng))
        }
        return d
    }

    static func png(_ size: Int, seed: UInt64) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        d.append(jpeg(max(size - 8, 4), seed: seed))
        return d
    }

    /// The seven designs a current phone might export, with every schema-8 field, and the images
    /// they reference (base, Smart Photo master and three renders, a matched-set variant's own
    /// Smart Photo). `imageScale` multiplies image sizes (1 gives ~2.5 MB of images).
    static func phoneExport(imageScale: Double = 1) -> (package: Data, images: [String: Data]) {
        func kb(_ k: Double) -> Int { max(64, Int(k * 1024 * imageScale)) }
        let images: [String: Data] = [
            "poster-base.jpg": jpeg(kb(300), seed: 1),
            "sp1-master.jpg": jpeg(kb(1200), seed: 2),
            "sp1-small.jpg": jpeg(kb(120), seed: 3),
            "sp1-medium.jpg": jpeg(kb(260), seed: 4),
            "sp1-large.jpg": jpeg(kb(420), seed: 5),
            "sp2-master.jpg": jpeg(kb(90), seed: 6),
            "sp2-small.jpg": png(kb(30), seed: 7),
            "sp2-medium.jpg": jpeg(kb(30), seed: 8),
            "sp2-large.jpg": jpeg(kb(30), seed: 9),
            "variant-large.png": png(kb(40), seed: 10),
        ]
        let reminders: JSONValue = .object([
            "mode": s("today"), "presentation": s("dense"), "hideCompleted": .bool(true),
            "selectedListIDs": .array([s("A1B2")]), "showsDueTimes": .bool(true),
        ])
        let matched: JSONValue = .object([
            "small": .object([
                "primaryText": s("Small"), "layout": layout("poster"),
                "image": image("sp2-master.jpg", smart: smartPhoto(prefix: "sp2")),
            ]),
            "large": .object([
                "primaryText": s("Large"), "secondaryText": s("More room"), "symbol": symbol,
                "layout": layout("classic", alignment: "centre"), "image": image("variant-large.png", mode: "fit"),
            ]),
        ])
        let action: [String: JSONValue] = [
            "actionBar": .object([
                "style": s("subtle"),
                "actions": .array([
                    .object([
                        "id": s(UUID().uuidString), "title": s("+1"), "systemImage": s("plus.circle.fill"),
                        "kind": s("incrementVariable"),
                        "variableKey": s("coffees"), "incrementAmount": n(1), "nowFormat": s("iso8601"),
                    ]),
                    .object([
                        "id": s(UUID().uuidString), "title": s("Done"), "kind": s("setVariableToNow"),
                        "variableKey": s("last walk"), "incrementAmount": n(1), "nowFormat": s("timeOnly"),
                    ]),
                ]),
            ])
        ]
        let specs: [JSONValue] = [
            spec(
                "Rain Glass", template: "weather", primary: "", secondary: "{{__weather_nowcast|}}",
                style: style(accent: "teal", weatherScale: 1.25)),
            spec(
                "Small Weather", template: "weather", primary: "", secondary: nil,
                style: style(accent: "indigo", background: "midnight", weatherScale: 0.6)),
            spec(
                "Ocean Clock", template: "clockIcon", primary: "", secondary: nil,
                style: style(accent: "orange", background: "midnight"),
                extra: [
                    "clockConfig": .object([
                        "theme": s("ocean"), "face": s("icon"), "iconDialColourToken": s("mint"),
                        "iconSecondHandColourToken": s("mint"),
                    ])
                ]),
            spec(
                "Ember Ceramic", template: "clockIcon", primary: "", secondary: nil,
                extra: ["clockConfig": .object(["theme": s("ember"), "face": s("ceramic")])]),
            spec(
                "Beach", template: "poster", primary: "Weekend", secondary: "{{__time}}",
                image: image(
                    "poster-base.jpg", filter: ("noir", 0.75),
                    smart: smartPhoto(prefix: "sp1", manifest: "smart-shuffle-6F1C.json")),
                extra: ["matchedSet": matched]),
            spec("Counters", template: "classic", primary: "{{coffees|0}} coffees", extra: action),
            spec("Today", template: "reminders", primary: "", secondary: nil, extra: ["remindersConfig": reminders]),
        ]
        let payload: JSONValue = .object([
            "magic": s(DesignExchange.magic), "formatVersion": n(1), "createdAt": s("2026-02-01T10:00:00Z"),
            "specs": .array(specs),
            "images": .array(
                images.keys.sorted().map {
                    .object(["originalFileName": s($0), "data": s(images[$0]!.base64EncodedString())])
                }),
        ])
        return (appBytes(payload), images)
    }

    /// `JSONEncoder` with `.prettyPrinted, .sortedKeys` escapes `/` as `\/`.
    static func appBytes(_ value: JSONValue) -> Data {
        let text = String(decoding: value.prettyPrinted(), as: UTF8.self).replacingOccurrences(of: "/", with: "\\/")
        return Data(text.utf8)
    }
}
