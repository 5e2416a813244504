import BoundedJSON
import FieldTable
import Foundation
import NoiseDSP
import SharedStore

extension Mix {
    /// Mix files are small; anything bigger is not a mix.
    public static let maximumFileBytes = 256 << 10

    /// Reads a mix strictly: invalid JSON, unknown fields, wrong types and out-of-range values are
    /// errors that name `file`, the field path, the value and the allowed range.
    public static func decode(_ bytes: [UInt8], file: String?, sampleRate: Double? = nil) throws(MixError) -> Mix {
        guard bytes.count <= maximumFileBytes else {
            throw MixError(
                file: file, path: "",
                message: "file is \(bytes.count) bytes; a mix file is at most \(maximumFileBytes) bytes")
        }
        let root: JSONReader
        do {
            root = try JSONReader.parse(
                Data(bytes), document: file ?? "mix", maxDepth: 8, maxValues: 10_000, maxStringBytes: 4096)
        } catch let e as JSONFieldError {
            throw MixError(file: file, path: "", message: e.reason)
        } catch {
            throw MixError(file: file, path: "", message: "\(error)")
        }
        do {
            let mix = try Self.strict(root)
            try mix.validate(sampleRate: sampleRate)
            return mix
        } catch var e {
            e.file = file
            throw e
        }
    }

    /// Loads a mix file from disk.
    public static func load(path: String, sampleRate: Double? = nil) throws(MixError) -> Mix {
        let data: Data?
        do {
            data = try FileSystem.read(URL(fileURLWithPath: path), limit: maximumFileBytes)
        } catch {
            throw MixError(file: path, path: "", message: (error as? StoreError)?.reason ?? "\(error)")
        }
        guard let data else { throw MixError(file: path, path: "", message: "no such file") }
        return try decode([UInt8](data), file: path, sampleRate: sampleRate)
    }

    /// The mix as pretty JSON with sorted keys (cuts that are off are omitted).
    public func encodedJSON() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? e.encode(self)) ?? Data()
    }

    // MARK: - Strict reading

    /// The mix's members, field by field through the shared strict reader. Errors keep the mix
    /// file's own wording (`MixError(_:)`), which users and tests know; ranges are `validate`'s,
    /// which holds every mix, read or built, to the table.
    static func strict(_ root: JSONReader) throws(MixError) -> Mix {
        let top = try MixObject(
            root, allowed: MixFields.memberNames(under: "") + ["name", "description", "schemaVersion"])
        if let v = try top.number("schemaVersion"), v != 1 {
            throw MixError(
                path: "schemaVersion", message: "\(MixError.format(v)) is not supported; this version reads 1")
        }
        guard let layersValue = top["layers"] else {
            throw MixError(path: "layers", message: "is missing; a mix needs 1 to 4 layers")
        }
        let items: [JSONReader]
        do { items = try layersValue.array(maxCount: .max) } catch { throw MixError(error) }
        if items.count > NoiseMachine.layerCount || items.isEmpty {
            throw MixError(path: "layers", message: "has \(items.count) layers; allowed 1…\(NoiseMachine.layerCount)")
        }
        var layers: [Layer] = []
        for item in items {
            let f = try MixObject(item, allowed: MixFields.memberNames(under: "layers[]"))
            var layer = Layer()
            // In table order, so of two wrong members the same one is named first.
            var nested: [String: MixObject] = [:]
            for parameter in MixParameter.layerParameters {
                switch parameter {
                case .enabled: layer.enabled = try f.bool(parameter.rawValue) ?? MixFields.enabled.defaultFlag
                // 0 (or absent) means the cut is off, as in the seed app.
                case .lowCutHz: layer.lowCutHz = try f.number(parameter.rawValue).flatMap { $0 == 0 ? nil : $0 }
                case .highCutHz: layer.highCutHz = try f.number(parameter.rawValue).flatMap { $0 == 0 ? nil : $0 }
                case .texture:
                    guard let name = try f.string(parameter.rawValue) else { continue }
                    guard let t = Texture(rawValue: name) else {
                        throw MixError(
                            path: f["texture"]?.path ?? "texture",
                            message: "'\(name)' is not a texture; allowed: "
                                + MixFields.texture.allowed.joined(separator: ", "))
                    }
                    layer.texture = t
                default:
                    // A number of the layer's own object or of its `eq` or `movement`; one absent
                    // keeps the model's default, which is the table's.
                    let path = parameter.field.key.dropFirst("layers[].".count).split(separator: ".").map(String.init)
                    var object = f
                    if path.count == 2 {
                        guard let value = f[path[0]] else { continue }
                        if nested[path[0]] == nil {
                            let allowed = MixFields.memberNames(under: "layers[].\(path[0])")
                            nested[path[0]] = try MixObject(value, allowed: allowed)
                            // A movement given is one, though every member is left out.
                            if parameter.isMovement { layer.movement = Movement() }
                        }
                        object = nested[path[0]]!
                    }
                    if let v = try object.number(path[path.count - 1]) { parameter.set(v, in: &layer) }
                }
            }
            layers.append(layer)
        }
        var notch: Notch?
        if let notchValue = top["notch"] {
            let n = try MixObject(notchValue, allowed: MixFields.memberNames(under: "notch"))
            guard let centre = try n.number("centreHz") else {
                let r = MixFields.notchCentreHz.numberRange
                throw MixError(
                    path: MixFields.notchCentreHz.key,
                    message:
                        """
                        is missing; a notch needs its centre \
                        (\(MixError.format(r.lowerBound))…\(MixError.format(r.upperBound)) Hz)
                        """)
            }
            notch = Notch(
                centreHz: centre,
                widthOctaves: try n.number("widthOctaves") ?? MixFields.notchWidthOctaves.defaultNumber,
                depthDb: try n.number("depthDb") ?? MixFields.notchDepthDb.defaultNumber)
        }
        return Mix(
            name: try top.string("name") ?? "Untitled", description: try top.string("description") ?? "",
            masterVolume: try top.number("masterVolume") ?? MixFields.masterVolume.defaultNumber, layers: layers,
            notch: notch)
    }

    /// One object of a mix file, its unknown members refused before any value is read (in sorted
    /// order, naming what is allowed), then its values read by `JSONReader` in the mix's wording.
    struct MixObject {
        private let members: [String: JSONReader]

        init(_ object: JSONReader, allowed: [String]) throws(MixError) {
            var all: JSONMembers
            do { all = try JSONMembers(object) } catch { throw MixError(error) }
            var taken: [String: JSONReader] = [:]
            for key in allowed { taken[key] = all.take(key) }
            // The whole key, where `refuseRest` would cut it at 40 characters: mix files always said it whole.
            if let unknown = all.keys.sorted().first {
                throw MixError(
                    path: object.childPath(unknown),
                    message: "is not a known field; allowed: \(allowed.sorted().joined(separator: ", "))")
            }
            members = taken
        }

        subscript(key: String) -> JSONReader? { members[key] }

        /// Any number the parser read, infinity (`1e400`) included: `validate` refuses it as out of
        /// the field's range, in the same words as any other value outside it.
        func number(_ key: String) throws(MixError) -> Double? {
            guard let v = self[key] else { return nil }
            if case .number(let d) = v.value { return d }
            throw MixError(v.wrongType("a number"))
        }

        func bool(_ key: String) throws(MixError) -> Bool? {
            do { return try self[key]?.bool() } catch { throw MixError(error) }
        }

        /// A name or description: at most 200 characters (the parser already bounds its bytes).
        func string(_ key: String) throws(MixError) -> String? {
            guard let v = self[key] else { return nil }
            let s: String
            do { s = try v.string(maxBytes: .max) } catch { throw MixError(error) }
            guard s.count <= 200 else {
                throw MixError(path: v.path, message: "is \(s.count) characters; the limit is 200")
            }
            return s
        }
    }
}

extension MixError {
    /// A strict-reader failure in the mix file's wording: the path, then what is wrong
    /// (`layers[0].volume: must be a number, found a boolean`).
    init(_ e: JSONFieldError) {
        switch e.problem {
        case .wrongType(let expected):
            self.init(path: e.path, message: "must be \(expected), found \(Self.article(e.foundType ?? "null"))")
        case .missing: self.init(path: e.path, message: "is missing")
        case .unknownField: self.init(path: e.path, message: "is not a known field")
        case .outOfRange, .tooLarge, .notWhole, .overLimit, .invalid:
            self.init(path: e.path == JSONReader.topLevel ? "" : e.path, message: e.reason)
        }
    }

    /// "a string", "an object", "null": a JSON type as a message names what it found.
    static func article(_ type: String) -> String {
        type == "null" ? type : (type.first.map { "aeiou".contains($0) } == true ? "an \(type)" : "a \(type)")
    }
}
