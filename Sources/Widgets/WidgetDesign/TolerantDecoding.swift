import BoundedJSON
import CivilDates
import FieldTable
import Foundation

/// Something the tolerant decoder replaced or dropped, with the JSON path of the field
/// (`specs[2].style.accent`) so a user can find it in the file.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        case unknownToken, outOfRange, wrongType, invalidValue, unknownKey, truncated, dropped
    }

    public var path: String
    public var kind: Kind
    public var message: String

    public init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(path.isEmpty ? "(top level)" : path): \(message)" }
}

/// Decodes designs field by field. Each field that is the wrong type, an unknown token or out of
/// range falls back on its own (clamped to the range, or the field's default) and adds a
/// `Finding`; the rest of the design is kept. (The seed app drops a whole style for one unknown
/// token, and says nothing.)
public struct TolerantDecoder {
    public private(set) var findings: [Finding] = []
    /// Used when `updatedAt` is missing or unreadable.
    public var fallbackDate: Date

    public init(fallbackDate: Date) {
        self.fallbackDate = fallbackDate
    }

    /// A design's members: its rows' and these (`countdown`, `presetButton` and `clockFormat` are ours).
    static let specKeys = Set(WidgetSpec.rows.map(\.jsonKey)).union([
        "version", "id", "updatedAt", "symbol", "image", "layout", "style", "actionBar", "remindersConfig",
        "clockConfig", "matchedSet", "countdown", "presetButton",
    ])

    /// Decodes one spec. Returns nil only when `value` is not an object at all.
    public mutating func spec(_ value: JSONValue, path: String) -> WidgetSpec? {
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected a design object, found \(value.typeName); skipped")
            return nil
        }
        checkKeys(o, known: Self.specKeys, path: path)
        // Older files carry lower versions; like the seed app, a loaded design is at least current.
        let version = max(int(o, "version", path, range: 1...Int(Int32.max), default: 1), WidgetSpec.currentVersion)
        var id = UUID()
        if let raw = o["id"], raw != .null {
            if case .string(let s) = raw, let u = UUID(uuidString: s) {
                id = u
            } else {
                note(join(path, "id"), .invalidValue, "not a UUID (\(preview(raw))); a new ID was given")
            }
        }
        var s = WidgetSpec(version: version, id: id, name: "", primaryText: "", updatedAt: fallbackDate)
        WidgetSpec.rows.dropLast().decode(o, path, into: &s, with: &self)
        s.updatedAt = date(o, "updatedAt", path)
        s.symbol = o["symbol"].flatMap { symbolSpec($0, path: join(path, "symbol")) }
        s.image = o["image"].flatMap { imageSpec($0, path: join(path, "image")) }
        s.layout = layoutSpec(o["layout"], path: join(path, "layout"))
        s.style = styleSpec(o["style"], path: join(path, "style"))
        s.actionBar = o["actionBar"].flatMap { actionBarSpec($0, path: join(path, "actionBar")) }
        s.matchedSet = o["matchedSet"].flatMap { matchedSet($0, path: join(path, "matchedSet")) }
        s.remindersConfig = o["remindersConfig"].flatMap { $0 == .null ? nil : $0 }
        s.clockConfig = o["clockConfig"].flatMap { clockConfig($0, path: join(path, "clockConfig")) }
        WidgetSpec.rows.suffix(1).decode(o, path, into: &s, with: &self)
        s.countdown = o["countdown"].flatMap { countdownSpec($0, path: join(path, "countdown")) }
        s.presetButton = o["presetButton"].flatMap { presetButtonSpec($0, path: join(path, "presetButton")) }
        return s
    }

    mutating func presetButtonSpec(_ value: JSONValue, path: String) -> PresetButtonSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); preset button dropped")
            return nil
        }
        checkKeys(o, known: ["preset"], path: path)
        let raw = string(o, "preset", path, DesignFields.presetButtonPreset)
        do {
            return try PresetButtonSpec.parse(raw)
        } catch let e as DesignError {
            note(join(path, "preset"), .invalidValue, "\(e.message); preset button dropped")
            return nil
        } catch {
            return nil
        }
    }

    mutating func countdownSpec(_ value: JSONValue, path: String) -> CountdownSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); countdown dropped")
            return nil
        }
        checkKeys(o, known: ["target"], path: path)
        let raw = string(o, "target", path, DesignFields.countdownTarget)
        do {
            return CountdownSpec(target: try CountdownTarget.parse(raw))
        } catch let e as DesignError {
            note(join(path, "target"), .invalidValue, "\(e.message); countdown dropped")
            return nil
        } catch {
            return nil
        }
    }

    mutating func clockConfig(_ value: JSONValue, path: String) -> ClockDesignConfig? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); clock configuration dropped")
            return nil
        }
        checkKeys(o, known: Set(ClockDesignConfig.rows.map(\.jsonKey)), path: path)
        var c = ClockDesignConfig()
        ClockDesignConfig.rows.decode(o, path, into: &c, with: &self)
        if let change = c.normalise() {
            note(join(path, "iconSecondHandColourToken"), .invalidValue, change)
        }
        return c
    }

    mutating func photoFilter(_ value: JSONValue, path: String) -> PhotoFilterSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); filter dropped")
            return nil
        }
        checkKeys(o, known: ["token", "intensity"], path: path)
        guard o["token"] != nil, o["token"] != .null else {
            note(
                join(path, "token"), .dropped,
                "a filter needs a token (\(PhotoFilterToken.allowedList)); filter dropped")
            return nil
        }
        let t: PhotoFilterToken = token(o, "token", path, DesignFields.imageFilter)
        // `none` or intensity 0 means no filter: nil, as the seed app normalises it.
        return PhotoFilterSpec(token: t, intensity: double(o, "intensity", path, DesignFields.imageFilterIntensity))
            .effective
    }

    mutating func smartPhoto(_ value: JSONValue, path: String) -> SmartPhotoSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); Smart Photo dropped")
            return nil
        }
        checkKeys(
            o,
            known: [
                "masterFileName", "small", "medium", "large", "algorithmVersion", "preparedAt",
                "shuffleManifestFileName",
            ], path: path)
        guard let master = fileName(o, "masterFileName", path, what: "Smart Photo") else { return nil }
        if o["preparedAt"] == nil || o["preparedAt"] == .null {
            note(join(path, "preparedAt"), .invalidValue, "missing; using \(ISODate.format(fallbackDate))")
        }
        var shuffle: String?
        if let v = o["shuffleManifestFileName"], v != .null {
            shuffle = fileName(o, "shuffleManifestFileName", path, what: "shuffle manifest name")
        }
        return SmartPhotoSpec(
            masterFileName: master,
            small: o["small"].flatMap { smartVariant($0, path: join(path, "small")) },
            medium: o["medium"].flatMap { smartVariant($0, path: join(path, "medium")) },
            large: o["large"].flatMap { smartVariant($0, path: join(path, "large")) },
            algorithmVersion: int(o, "algorithmVersion", path, DesignFields.smartAlgorithmVersion),
            preparedAt: date(o, "preparedAt", path),
            shuffleManifestFileName: shuffle)
    }

    mutating func smartVariant(_ value: JSONValue, path: String) -> SmartPhotoVariant? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); render dropped")
            return nil
        }
        checkKeys(
            o, known: ["renderFileName", "cropRect", "pixelSize", "straightenDegrees", "rotationQuarterTurns"],
            path: path)
        guard let file = fileName(o, "renderFileName", path, what: "render") else { return nil }
        var rect = NormalisedRect.full
        let rectPath = join(path, "cropRect")
        switch o["cropRect"] {
        case .object(let r)?:
            checkKeys(r, known: ["x", "y", "width", "height"], path: rectPath)
            // A side that is missing is the whole image's (the row's default, 0, is its corner).
            let crop = DesignFields.smartCrop, full = NormalisedRect.full
            rect = NormalisedRect(
                x: double(r, "x", rectPath, crop),
                y: double(r, "y", rectPath, crop),
                width: double(r, "width", rectPath, range: crop.numberRange, default: full.width),
                height: double(r, "height", rectPath, range: crop.numberRange, default: full.height))
            if rect.needsTrimming {
                rect = rect.trimmedToImage
                note(rectPath, .outOfRange, "the rectangle runs past the image or is empty; trimmed to the image")
            }
        case nil, .null?:
            note(rectPath, .invalidValue, "missing; using the whole image")
        case let v?:
            note(rectPath, .wrongType, "expected an object, found \(v.typeName); using the whole image")
        }
        var size = PixelSize(width: 1, height: 1)
        let sizePath = join(path, "pixelSize")
        switch o["pixelSize"] {
        case .object(let p)?:
            checkKeys(p, known: ["width", "height"], path: sizePath)
            size = PixelSize(
                width: int(p, "width", sizePath, DesignFields.smartPixelSize),
                height: int(p, "height", sizePath, DesignFields.smartPixelSize))
        case nil, .null?:
            note(sizePath, .invalidValue, "missing; using 1×1")
        case let v?:
            note(sizePath, .wrongType, "expected an object, found \(v.typeName); using 1×1")
        }
        let straighten = o["straightenDegrees"].flatMap {
            $0 == .null ? nil : double(o, "straightenDegrees", path, DesignFields.smartStraighten)
        }
        let turns = o["rotationQuarterTurns"].flatMap {
            $0 == .null ? nil : int(o, "rotationQuarterTurns", path, DesignFields.smartQuarterTurns)
        }
        return SmartPhotoVariant(
            renderFileName: file, cropRect: rect, pixelSize: size, straightenDegrees: straighten,
            rotationQuarterTurns: turns)
    }

    /// A bare image file name (sanitised like every image name), or nil with a finding.
    mutating func fileName(_ o: [String: JSONValue], _ key: String, _ path: String, what: String) -> String? {
        let raw = string(o, key, path, default: "", maxCharacters: 4096)
        guard let safe = ImageSanitiser.sanitisedFileName(raw) else {
            note(
                join(path, key), .dropped,
                "\(raw.isEmpty ? "missing or empty" : "unusable") file name \(quoted(raw)); \(what) dropped")
            return nil
        }
        if safe != raw {
            note(join(path, key), .invalidValue, "file name \(quoted(raw)) sanitised to \(quoted(safe))")
        }
        return safe
    }

    // MARK: Parts

    mutating func symbolSpec(_ value: JSONValue, path: String) -> SymbolSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); symbol dropped")
            return nil
        }
        checkKeys(o, known: Set(SymbolSpec.rows.map(\.jsonKey)).union(["name"]), path: path)
        let name = string(o, "name", path, DesignFields.symbolName).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            note(join(path, "name"), .dropped, "empty symbol name; symbol dropped")
            return nil
        }
        var symbol = SymbolSpec(name: name)
        SymbolSpec.rows.decode(o, path, into: &symbol, with: &self)
        return symbol
    }

    mutating func imageSpec(_ value: JSONValue, path: String) -> ImageSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); image dropped")
            return nil
        }
        checkKeys(
            o, known: Set(ImageSpec.rows.map(\.jsonKey)).union(["fileName", "crop", "filter", "smartPhoto"]), path: path
        )
        let raw = string(o, "fileName", path, default: "", maxCharacters: 4096)
        guard let safe = ImageSanitiser.sanitisedFileName(raw) else {
            note(
                join(path, "fileName"), .dropped,
                "\(raw.isEmpty ? "empty" : "unusable") image file name \(quoted(raw)); image dropped")
            return nil
        }
        if safe != raw {
            note(join(path, "fileName"), .invalidValue, "image file name \(quoted(raw)) sanitised to \(quoted(safe))")
        }
        var image = ImageSpec(fileName: safe)
        for row in ImageSpec.rows {
            // `crop` is the seed app's older name for `contentMode`.
            let key = row.jsonKey == "contentMode" && o["contentMode"] == nil ? "crop" : row.jsonKey
            row.decode(&self, o, key, path, &image)
        }
        image.filter = o["filter"].flatMap { photoFilter($0, path: join(path, "filter")) }
        image.smartPhoto = o["smartPhoto"].flatMap { smartPhoto($0, path: join(path, "smartPhoto")) }
        return image
    }

    mutating func layoutSpec(_ value: JSONValue?, path: String) -> LayoutSpec {
        var l = LayoutSpec()
        guard let value, value != .null else { return l }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); default layout used")
            return l
        }
        checkKeys(o, known: Set(LayoutSpec.rows.map(\.jsonKey)), path: path)
        LayoutSpec.rows.decode(o, path, into: &l, with: &self)
        return l
    }

    mutating func styleSpec(_ value: JSONValue?, path: String) -> StyleSpec {
        var s = StyleSpec()
        guard let value, value != .null else { return s }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); default style used")
            return s
        }
        checkKeys(o, known: Set(StyleSpec.rows.map(\.jsonKey)), path: path)
        StyleSpec.rows.decode(o, path, into: &s, with: &self)
        return s
    }

    mutating func actionBarSpec(_ value: JSONValue, path: String) -> ActionBarSpec? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); action bar dropped")
            return nil
        }
        checkKeys(o, known: ["actions", "style"], path: path)
        var actions: [ActionSpec] = []
        if let list = o["actions"] {
            if case .array(let items) = list {
                for (i, item) in items.enumerated() {
                    let itemPath = "\(join(path, "actions"))[\(i)]"
                    guard let a = actionSpec(item, path: itemPath) else { continue }
                    if actions.count == FieldLimits.maxActions {
                        note(
                            itemPath, .dropped, "an action bar holds at most \(FieldLimits.maxActions) buttons; dropped"
                        )
                        continue
                    }
                    actions.append(a)
                }
            } else if list != .null {
                note(join(path, "actions"), .wrongType, "expected an array, found \(list.typeName); ignored")
            }
        }
        let style: WidgetActionButtonStyleToken = token(o, "style", path, DesignFields.actionBarStyle)
        return actions.isEmpty ? nil : ActionBarSpec(actions: actions, style: style)
    }

    mutating func actionSpec(_ value: JSONValue, path: String) -> ActionSpec? {
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an action object, found \(value.typeName); dropped")
            return nil
        }
        checkKeys(
            o,
            known: [
                "id", "title", "systemImage", "kind", "variableKey", "incrementAmount", "nowFormat",
                "resetValue", "url",
            ], path: path)
        let key = string(o, "variableKey", path, DesignFields.actionVariableKey)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let kindValue: WidgetActionKindToken = token(o, "kind", path, DesignFields.actionKind)
        var url: String?
        if kindValue == .openURL {
            // A link the policy refuses drops the button: a button must never open it.
            do {
                url = try OpenURLPolicy.check(
                    string(o, "url", path, default: "", maxCharacters: DesignFields.actionURL.maxLength! * 4))
            } catch let e as DesignError {
                note(join(path, "url"), .dropped, "\(e.message); action dropped")
                return nil
            } catch {
                return nil
            }
        }
        guard !key.isEmpty || kindValue == .openURL else {
            note(join(path, "variableKey"), .dropped, "an action needs a variable key; action dropped")
            return nil
        }
        var id = UUID()
        if let raw = o["id"], raw != .null {
            if case .string(let s) = raw, let u = UUID(uuidString: s) {
                id = u
            } else {
                note(join(path, "id"), .invalidValue, "not a UUID; a new ID was given")
            }
        }
        let kind = kindValue
        var amount = int(o, "incrementAmount", path, DesignFields.actionIncrementAmount)
        if amount == 0 {
            note(join(path, "incrementAmount"), .outOfRange, "0 does nothing; using 1 (allowed -99…99, not 0)")
            amount = 1
        }
        var title = string(o, "title", path, DesignFields.actionTitle).trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty { title = ActionSpec.untitled(kind) }
        var systemImage = optionalString(o, "systemImage", path, maxCharacters: 64)?.trimmingCharacters(
            in: .whitespacesAndNewlines)
        if systemImage?.isEmpty == true { systemImage = nil }
        return ActionSpec(
            id: id, title: title, systemImage: systemImage, kind: kind, variableKey: key,
            incrementAmount: amount, nowFormat: token(o, "nowFormat", path, DesignFields.actionNowFormat),
            // Read only for the kind that uses it (and writes it), so a design re-encodes exactly.
            resetValue: kind == .resetVariable
                ? string(o, "resetValue", path, DesignFields.actionResetValue)
                : DesignFields.actionResetValue.defaultText,
            url: url)
    }

    mutating func matchedSet(_ value: JSONValue, path: String) -> MatchedSet? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); matched set dropped")
            return nil
        }
        checkKeys(o, known: ["small", "medium", "large"], path: path)
        let m = MatchedSet(
            small: o["small"].flatMap { variant($0, path: join(path, "small")) },
            medium: o["medium"].flatMap { variant($0, path: join(path, "medium")) },
            large: o["large"].flatMap { variant($0, path: join(path, "large")) })
        return m.isEmpty ? nil : m
    }

    mutating func variant(_ value: JSONValue, path: String) -> SpecVariant? {
        if value == .null { return nil }
        guard case .object(let o) = value else {
            note(path, .wrongType, "expected an object, found \(value.typeName); variant dropped")
            return nil
        }
        checkKeys(o, known: ["primaryText", "secondaryText", "symbol", "image", "layout"], path: path)
        return SpecVariant(
            // A size's texts are the design's fields again (the matched-set rows repeat their limits).
            primaryText: string(o, "primaryText", path, DesignFields.primaryText),
            secondaryText: optionalString(
                o, "secondaryText", path, maxCharacters: DesignFields.secondaryText.maxLength!),
            symbol: o["symbol"].flatMap { symbolSpec($0, path: join(path, "symbol")) },
            image: o["image"].flatMap { imageSpec($0, path: join(path, "image")) },
            layout: layoutSpec(o["layout"], path: join(path, "layout")))
    }

    // MARK: Scalars

    mutating func note(_ path: String, _ kind: Finding.Kind, _ message: String) {
        findings.append(Finding(path: path, kind: kind, message: message))
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func preview(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): quoted(s)
        case .number(let d): JSONValue.format(d)
        case .bool(let b): "\(b)"
        default: v.typeName
        }
    }

    func quoted(_ s: String) -> String {
        let short = s.count > 60 ? String(s.prefix(57)) + "..." : s
        return "\"\(short.unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined())\""
    }

    /// Member `key` for the shared strict reader, nil when absent or null (the default applies
    /// silently). The reader does the type and range checks; this decoder turns its failures into
    /// findings with a fallback instead of refusing the design.
    func field(_ o: [String: JSONValue], _ key: String, _ path: String) -> JSONReader? {
        guard let v = o[key], v != .null else { return nil }
        return JSONReader(value: v, path: join(path, key), document: "design")
    }

    mutating func checkKeys(_ o: [String: JSONValue], known: Set<String>, path: String) {
        for key in o.keys where !known.contains(key) {
            note(join(path, key), .unknownKey, "unknown field; ignored")
        }
    }

    mutating func string(
        _ o: [String: JSONValue], _ key: String, _ path: String, default def: String, maxCharacters: Int
    ) -> String {
        guard let f = field(o, key, path) else { return def }
        guard let s = try? f.string(maxBytes: .max) else {
            note(
                f.path, .wrongType,
                "expected a string, found \(f.value.typeName) \(preview(f.value)); using \(quoted(def))")
            return def
        }
        if s.count > maxCharacters {
            note(join(path, key), .truncated, "longer than \(maxCharacters) characters; truncated")
            return String(s.prefix(maxCharacters))
        }
        return s
    }

    mutating func optionalString(_ o: [String: JSONValue], _ key: String, _ path: String, maxCharacters: Int) -> String?
    {
        guard let v = o[key], v != .null else { return nil }
        let s = string(o, key, path, default: "", maxCharacters: maxCharacters)
        return s.isEmpty ? nil : s
    }

    mutating func double(
        _ o: [String: JSONValue], _ key: String, _ path: String, range: ClosedRange<Double>, default def: Double
    ) -> Double {
        guard let f = field(o, key, path) else { return def }
        do {
            return try f.number(in: range)
        } catch  where error.problem == .outOfRange {
            guard case .number(let d) = f.value else { return def }
            let c = min(max(d, range.lowerBound), range.upperBound)
            note(f.path, .outOfRange, "\(JSONValue.format(d)) is outside \(fmt(range)); using \(JSONValue.format(c))")
            return c
        } catch {
            note(
                f.path, .wrongType,
                """
                expected a number in \(fmt(range)), found \(f.value.typeName) \(preview(f.value)); using \
                \(JSONValue.format(def))
                """
            )
            return def
        }
    }

    mutating func int(
        _ o: [String: JSONValue], _ key: String, _ path: String, range: ClosedRange<Int>, default def: Int
    ) -> Int {
        guard let f = field(o, key, path) else { return def }
        // Wholeness before range, as before: 40.5 of 0…32 is the wrong type, not clamped.
        guard case .number(let d) = f.value, d.isFinite, d == d.rounded() else {
            note(
                f.path, .wrongType,
                """
                expected a whole number in \(range.lowerBound)…\(range.upperBound), found \(f.value.typeName) \
                \(preview(f.value)); using \(def)
                """
            )
            return def
        }
        do {
            return try f.wholeNumber(in: range)
        } catch {
            let c = d < Double(range.lowerBound) ? range.lowerBound : range.upperBound
            note(
                f.path, .outOfRange,
                "\(JSONValue.format(d)) is outside \(range.lowerBound)…\(range.upperBound); using \(c)")
            return c
        }
    }

    mutating func bool(_ o: [String: JSONValue], _ key: String, _ path: String, default def: Bool) -> Bool {
        guard let f = field(o, key, path) else { return def }
        guard let b = try? f.bool() else {
            note(
                f.path, .wrongType,
                "expected true or false, found \(f.value.typeName) \(preview(f.value)); using \(def)")
            return def
        }
        return b
    }

    mutating func token<T: DesignToken>(_ o: [String: JSONValue], _ key: String, _ path: String, default def: T) -> T {
        guard let v = o[key], v != .null else { return def }
        guard case .string(let s) = v else {
            note(
                join(path, key), .wrongType,
                "expected one of \(T.allowedList), found \(v.typeName) \(preview(v)); using \(def.rawValue)")
            return def
        }
        guard let t = T.parse(s) else {
            note(
                join(path, key), .unknownToken,
                "unknown value \(quoted(s)); allowed: \(T.allowedList); using \(def.rawValue)")
            return def
        }
        return t
    }

    mutating func optionalToken<T: DesignToken>(_ o: [String: JSONValue], _ key: String, _ path: String) -> T? {
        guard let v = o[key], v != .null else { return nil }
        if case .string(let s) = v, s.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
        guard case .string(let s) = v, let t = T.parse(s.trimmingCharacters(in: .whitespaces)) else {
            note(
                join(path, key), v.typeName == "string" ? .unknownToken : .wrongType,
                "unknown value \(preview(v)); allowed: \(T.allowedList) or none; using none")
            return nil
        }
        return t
    }

    /// Whole seconds, as the exchange format writes them, so a decoded design re-encodes exactly.
    mutating func date(_ o: [String: JSONValue], _ key: String, _ path: String) -> Date {
        guard let v = o[key], v != .null else { return fallbackDate }
        switch v {
        case .string(let s):
            if let d = ISODate.parse(s) { return WidgetSpec.wholeSeconds(d) }
        case .number(let n) where n.isFinite && abs(n) < 1e11:
            // Swift's default JSON date encoding (bare spec arrays from the seed app): seconds
            // since 2001-01-01.
            return WidgetSpec.wholeSeconds(Date(timeIntervalSinceReferenceDate: n))
        default: break
        }
        note(
            join(path, key), .invalidValue,
            "not an ISO 8601 date (\(preview(v))); using \(ISODate.format(fallbackDate))")
        return fallbackDate
    }

    /// A text field of the table: its default and length.
    mutating func string(_ o: [String: JSONValue], _ key: String, _ path: String, _ field: FieldSpec) -> String {
        string(o, key, path, default: field.defaultText, maxCharacters: field.maxLength ?? 4096)
    }

    /// A flag field of the table: its default.
    mutating func bool(_ o: [String: JSONValue], _ key: String, _ path: String, _ field: FieldSpec) -> Bool {
        bool(o, key, path, default: field.defaultFlag)
    }

    /// A choice field of the table: its default as the token (every choice default is one of the
    /// row's values, which are the token's; `DesignFieldsTests` checks both).
    mutating func token<T: DesignToken>(_ o: [String: JSONValue], _ key: String, _ path: String, _ field: FieldSpec)
        -> T
    {
        guard let def = T(rawValue: field.defaultText) else {
            preconditionFailure("\(field.key): the default '\(field.defaultText)' is not one of \(T.allowedList)")
        }
        return token(o, key, path, default: def)
    }

    /// A number field of the table: its range and default.
    mutating func double(_ o: [String: JSONValue], _ key: String, _ path: String, _ field: FieldSpec) -> Double {
        double(o, key, path, range: field.numberRange, default: field.defaultNumber)
    }

    /// A whole-number field of the table: its range and default.
    mutating func int(_ o: [String: JSONValue], _ key: String, _ path: String, _ field: FieldSpec) -> Int {
        int(o, key, path, range: field.integerRange, default: Int(field.defaultNumber))
    }

    func fmt(_ r: ClosedRange<Double>) -> String {
        "\(JSONValue.format(r.lowerBound))…\(JSONValue.format(r.upperBound))"
    }
}
