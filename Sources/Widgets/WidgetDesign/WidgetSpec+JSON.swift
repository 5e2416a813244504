import BoundedJSON
import CivilDates
import Foundation

extension WidgetSpec {
    /// The seed app's JSON shape (same keys, ISO 8601 dates, uppercase UUIDs).
    public var jsonValue: JSONValue {
        var o = Self.rows.jsonMembers(of: self)
        o["version"] = .number(Double(max(version, WidgetSpec.currentVersion)))
        o["id"] = .string(id.uuidString)
        o["updatedAt"] = .string(ISODate.format(updatedAt))
        o["layout"] = layout.jsonValue
        o["style"] = style.jsonValue
        if let symbol { o["symbol"] = symbol.jsonValue }
        if let image { o["image"] = image.jsonValue }
        if let actionBar { o["actionBar"] = actionBar.jsonValue }
        if let matchedSet { o["matchedSet"] = matchedSet.jsonValue }
        if let remindersConfig { o["remindersConfig"] = remindersConfig }
        if let clockConfig { o["clockConfig"] = clockConfig.jsonValue }
        // Our own keys (the seed app ignores keys it does not know).
        if let countdown { o["countdown"] = .object(["target": .string(countdown.target.description)]) }
        if let presetButton { o["presetButton"] = .object(["preset": .string(presetButton.presetID)]) }
        return .object(o)
    }

    public func encoded() -> Data { jsonValue.prettyPrinted() }

    /// Decodes one design file. Throws only when the bytes are not JSON or not an object; every
    /// field-level problem becomes a finding instead.
    public static func decode(_ data: Data, fallbackDate: Date, limits: JSONLimits = JSONLimits()) throws -> (
        WidgetSpec, [Finding]
    ) {
        let depth = JSONValue.nestingDepth(of: data, stopAbove: limits.maxDepth)
        guard depth <= limits.maxDepth else {
            throw DesignError("JSON nests deeper than \(limits.maxDepth) levels")
        }
        let value = try JSONValue.parse(data, limits: limits)
        var decoder = TolerantDecoder(fallbackDate: fallbackDate)
        guard let spec = decoder.spec(value, path: "") else {
            throw DesignError("expected a design object, found \(value.typeName)")
        }
        return (spec, decoder.findings)
    }
}

extension SymbolSpec {
    var jsonValue: JSONValue { .object(Self.rows.jsonMembers(of: self).merging(["name": .string(name)]) { $1 }) }
}

extension ImageSpec {
    var jsonValue: JSONValue {
        var o = Self.rows.jsonMembers(of: self)
        o["fileName"] = .string(fileName)
        // Older seed-app readers look for `crop`.
        o["crop"] = .string(contentMode.rawValue)
        if let filter = filter?.effective {
            o["filter"] = .object(["token": .string(filter.token.rawValue), "intensity": .number(filter.intensity)])
        }
        if let smartPhoto { o["smartPhoto"] = smartPhoto.jsonValue }
        return .object(o)
    }
}

extension SmartPhotoSpec {
    var jsonValue: JSONValue {
        var o: [String: JSONValue] = [
            "masterFileName": .string(masterFileName),
            "algorithmVersion": .number(Double(algorithmVersion)),
            "preparedAt": .string(ISODate.format(preparedAt)),
        ]
        if let small { o["small"] = small.jsonValue }
        if let medium { o["medium"] = medium.jsonValue }
        if let large { o["large"] = large.jsonValue }
        if let shuffleManifestFileName { o["shuffleManifestFileName"] = .string(shuffleManifestFileName) }
        return .object(o)
    }
}

extension SmartPhotoVariant {
    var jsonValue: JSONValue {
        var o: [String: JSONValue] = [
            "renderFileName": .string(renderFileName),
            "cropRect": .object([
                "x": .number(cropRect.x), "y": .number(cropRect.y),
                "width": .number(cropRect.width), "height": .number(cropRect.height),
            ]),
            "pixelSize": .object([
                "width": .number(Double(pixelSize.width)), "height": .number(Double(pixelSize.height)),
            ]),
        ]
        if let straightenDegrees { o["straightenDegrees"] = .number(straightenDegrees) }
        if let rotationQuarterTurns { o["rotationQuarterTurns"] = .number(Double(rotationQuarterTurns)) }
        return .object(o)
    }
}

extension ClockDesignConfig {
    var jsonValue: JSONValue { .object(Self.rows.jsonMembers(of: self)) }
}

extension LayoutSpec {
    var jsonValue: JSONValue { .object(Self.rows.jsonMembers(of: self)) }
}

extension StyleSpec {
    var jsonValue: JSONValue { .object(Self.rows.jsonMembers(of: self)) }
}

extension ActionBarSpec {
    var jsonValue: JSONValue {
        .object(["actions": .array(actions.map(\.jsonValue)), "style": .string(style.rawValue)])
    }
}

extension ActionSpec {
    var jsonValue: JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(id.uuidString), "title": .string(title), "kind": .string(kind.rawValue),
            "variableKey": .string(variableKey), "incrementAmount": .number(Double(incrementAmount)),
            "nowFormat": .string(nowFormat.rawValue),
        ]
        if let systemImage { o["systemImage"] = .string(systemImage) }
        // Our own keys, written only for the kinds that use them.
        if kind == .resetVariable { o["resetValue"] = .string(resetValue) }
        if kind == .openURL, let url { o["url"] = .string(url) }
        return .object(o)
    }
}

extension SpecVariant {
    var jsonValue: JSONValue {
        var o: [String: JSONValue] = ["primaryText": .string(primaryText), "layout": layout.jsonValue]
        if let secondaryText { o["secondaryText"] = .string(secondaryText) }
        if let symbol { o["symbol"] = symbol.jsonValue }
        if let image { o["image"] = image.jsonValue }
        return .object(o)
    }
}

extension MatchedSet {
    var jsonValue: JSONValue {
        var o: [String: JSONValue] = [:]
        if let small { o["small"] = small.jsonValue }
        if let medium { o["medium"] = medium.jsonValue }
        if let large { o["large"] = large.jsonValue }
        return .object(o)
    }
}
