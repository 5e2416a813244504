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
        let root: JSONValue
        guard bytes.count <= maximumFileBytes else {
            throw MixError(
                file: file, path: "",
                message: "file is \(bytes.count) bytes; a mix file is at most \(maximumFileBytes) bytes")
        }
        do {
            root = try JSONValue.parse(
                Data(bytes), limits: JSONLimits(maxDepth: 8, maxValueCount: 10_000, maxStringBytes: 4096))
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

    static func strict(_ root: JSONValue) throws(MixError) -> Mix {
        let top = try Fields(
            root, path: "", allowed: ["name", "description", "masterVolume", "layers", "schemaVersion"])
        if let v = try top.number("schemaVersion"), v != 1 {
            throw MixError(
                path: "schemaVersion", message: "\(MixError.format(v)) is not supported; this version reads 1")
        }
        guard let layersValue = top["layers"] else {
            throw MixError(path: "layers", message: "is missing; a mix needs 1 to 4 layers")
        }
        guard case .array(let items) = layersValue else {
            throw MixError(path: "layers", message: "must be an array, found \(Fields.article(layersValue.typeName))")
        }
        if items.count > NoiseMachine.layerCount || items.isEmpty {
            throw MixError(path: "layers", message: "has \(items.count) layers; allowed 1…\(NoiseMachine.layerCount)")
        }
        var layers: [Layer] = []
        for (i, item) in items.enumerated() {
            let p = "layers[\(i)]"
            let f = try Fields(
                item, path: p,
                allowed: [
                    "enabled", "volume", "colour", "lowCutHz", "highCutHz", "eq", "movement",
                    "texture", "densityPerSecond", "brightness",
                ])
            var layer = Layer()
            layer.enabled = try f.bool("enabled") ?? MixFields.enabled.defaultFlag
            layer.volume = try f.number("volume") ?? layer.volume
            layer.colour = try f.number("colour") ?? layer.colour
            // 0 (or absent) means the cut is off, as in the seed app.
            layer.lowCutHz = try f.number("lowCutHz").flatMap { $0 == 0 ? nil : $0 }
            layer.highCutHz = try f.number("highCutHz").flatMap { $0 == 0 ? nil : $0 }
            if let eqValue = f["eq"] {
                let e = try Fields(eqValue, path: "\(p).eq", allowed: ["lowDb", "midDb", "highDb"])
                layer.eq = EQ(
                    lowDb: try e.number("lowDb") ?? MixFields.eqLowDb.defaultNumber,
                    midDb: try e.number("midDb") ?? MixFields.eqMidDb.defaultNumber,
                    highDb: try e.number("highDb") ?? MixFields.eqHighDb.defaultNumber)
            }
            if let movementValue = f["movement"] {
                let m = try Fields(
                    movementValue, path: "\(p).movement", allowed: ["periodSeconds", "levelDb", "highCutOctaves"])
                layer.movement = Movement(
                    periodSeconds: try m.number("periodSeconds") ?? MixFields.movementPeriodSeconds.defaultNumber,
                    levelDb: try m.number("levelDb") ?? MixFields.movementLevelDb.defaultNumber,
                    highCutOctaves: try m.number("highCutOctaves") ?? MixFields.movementHighCutOctaves.defaultNumber)
            }
            if let name = try f.string("texture") {
                guard let t = Texture(rawValue: name) else {
                    throw MixError(
                        path: "\(p).texture",
                        message:
                            """
                            '\(name)' is not a texture; allowed: \
                            \(Texture.allCases.map(\.rawValue).joined(separator: ", "))
                            """
                    )
                }
                layer.texture = t
            }
            layer.densityPerSecond = try f.number("densityPerSecond")
            layer.brightness = try f.number("brightness")
            layers.append(layer)
        }
        return Mix(
            name: try top.string("name") ?? "Untitled", description: try top.string("description") ?? "",
            masterVolume: try top.number("masterVolume") ?? MixFields.masterVolume.defaultNumber, layers: layers)
    }

    /// An object's members with type checks that report `path.key`.
    struct Fields {
        let members: [String: JSONValue]
        let path: String

        init(_ value: JSONValue, path: String, allowed: Set<String>) throws(MixError) {
            guard case .object(let m) = value else {
                throw MixError(
                    path: path.isEmpty ? "(top level)" : path,
                    message: "must be an object, found \(Self.article(value.typeName))")
            }
            for k in m.keys.sorted() where !allowed.contains(k) {
                throw MixError(
                    path: Self.join(path, k),
                    message: "is not a known field; allowed: \(allowed.sorted().joined(separator: ", "))")
            }
            members = m
            self.path = path
        }

        static func article(_ type: String) -> String {
            type == "null" ? type : (type.first.map { "aeiou".contains($0) } == true ? "an \(type)" : "a \(type)")
        }

        static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        subscript(key: String) -> JSONValue? { members[key] }

        func number(_ key: String) throws(MixError) -> Double? {
            guard let v = self[key] else { return nil }
            guard case .number(let d) = v else {
                throw MixError(
                    path: Self.join(path, key), message: "must be a number, found \(Self.article(v.typeName))")
            }
            return d
        }

        func bool(_ key: String) throws(MixError) -> Bool? {
            guard let v = self[key] else { return nil }
            guard case .bool(let b) = v else {
                throw MixError(
                    path: Self.join(path, key), message: "must be true or false, found \(Self.article(v.typeName))")
            }
            return b
        }

        func string(_ key: String) throws(MixError) -> String? {
            guard let v = self[key] else { return nil }
            guard case .string(let s) = v else {
                throw MixError(
                    path: Self.join(path, key), message: "must be a string, found \(Self.article(v.typeName))")
            }
            guard s.count <= 200 else {
                throw MixError(path: Self.join(path, key), message: "is \(s.count) characters; the limit is 200")
            }
            return s
        }
    }
}
