import BoundedJSON
import CivilDates
import Foundation
import SharedStore
import SizeLimits

/// An image carried in a `.wwdesign` package, already checked (magic bytes, size) and renamed to
/// a safe bare file name.
public struct EmbeddedImage: Sendable, Hashable {
    /// The name as written in the file (untrusted; shown in messages only).
    public var originalFileName: String
    /// `ImageSanitiser.sanitisedFileName(originalFileName)`.
    public var fileName: String
    public var data: Data
    public var format: ImageSanitiser.Format
}

/// A parsed and checked `.wwdesign` file (or a bare spec array / single spec, as the seed app
/// accepts).
public struct ExchangePackage: Sendable {
    public var fileName: String
    public var createdAt: Date?
    public var specs: [WidgetSpec]
    /// By sanitised file name.
    public var images: [String: EmbeddedImage]
    /// Field-level fallbacks in the designs, with JSON paths.
    public var findings: [Finding]
    /// Things sanitised on the way in (renamed images, duplicate IDs, missing images).
    public var notes: [String]

    /// Whether design `index` references an image that the package embeds.
    public func referencesEmbeddedImage(_ index: Int) -> Bool {
        specs[index].referencedImageFileNames.contains { images[$0] != nil }
    }
}

/// The seed app's exchange format: `{ magic, formatVersion, createdAt, specs, images }`, pretty
/// printed with sorted keys, images as `{ originalFileName, data (base64) }`.
public enum DesignExchange {
    public static let magic = "com.conornolan.widgetweaver.exchange"
    public static let formatVersion = 1

    /// Bounds for untrusted packages. A package of 1,000 designs and 100 photos is ~15 MB.
    public struct Limits: Sendable {
        public var maxFileBytes = 64 << 20
        public var maxSpecs = 10_000
        public var maxImages = 1_000
        public var maxImageBytes = ImageSanitiser.maxImageBytes
        public var maxTotalImageBytes = 48 << 20
        public var json = JSONLimits()
        public init() {}
    }

    // MARK: Export

    /// What an export wrote: the package, and which referenced images went in or were left out.
    public struct ExportResult: Sendable {
        public var data: Data
        /// Store file names embedded, sorted.
        public var embedded: [String]
        /// Referenced images not embedded, with the reason (not asked for, missing, not an image).
        public var leftOut: [(name: String, reason: String)]
    }

    /// The package for `specs`, embedding every image they reference (base images, Smart Photo
    /// masters and renders, matched-set variants) from `imagesFolder` unless `embedImages` is
    /// false. Nothing is left out silently: `leftOut` names each image that is not in the package.
    public static func export(_ specs: [WidgetSpec], embedImages: Bool, imagesFolder: URL, now: Date) throws
        -> ExportResult
    {
        guard !specs.isEmpty else { throw DesignError("nothing to export: no designs given") }
        var images: [JSONValue] = []
        var embedded: [String] = []
        var leftOut: [(name: String, reason: String)] = []
        let names = Set(specs.flatMap(\.referencedImageFileNames)).sorted()
        for name in names {
            guard embedImages else {
                leftOut.append((name, "images not embedded (--no-embed-images)"))
                continue
            }
            let url = imagesFolder.appendingPathComponent(name)
            do {
                guard let data = try FileSystem.read(url, limit: ImageSanitiser.maxImageBytes) else {
                    leftOut.append((name, "not in \(imagesFolder.path)"))
                    continue
                }
                _ = try ImageSanitiser.check(data, name: name)
                images.append(
                    .object(["originalFileName": .string(name), "data": .string(data.base64EncodedString())]))
                embedded.append(name)
            } catch let e as DesignError {
                leftOut.append((name, e.message))
            } catch let e as StoreError {
                leftOut.append((name, e.reason))
            }
        }
        let package: JSONValue = .object([
            "magic": .string(magic),
            "formatVersion": .number(Double(formatVersion)),
            "createdAt": .string(ISODate.format(now)),
            "specs": .array(specs.map(\.jsonValue)),
            "images": .array(images),
        ])
        return ExportResult(data: package.prettyPrinted(), embedded: embedded, leftOut: leftOut)
    }

    /// `export(...)`'s bytes; each image left out is passed to `warn`.
    public static func exportData(
        _ specs: [WidgetSpec], embedImages: Bool, imagesFolder: URL, now: Date,
        warn: (String) -> Void = { _ in }
    ) throws -> Data {
        let result = try export(specs, embedImages: embedImages, imagesFolder: imagesFolder, now: now)
        for (name, reason) in result.leftOut { warn("image '\(name)' left out: \(reason)") }
        return result.data
    }

    // MARK: Import

    /// Reads and checks a package file. Throws (naming the file and the JSON path) for anything
    /// that must refuse the whole import; field-level problems in designs become findings.
    public static func read(url: URL, now: Date, limits: Limits = Limits()) throws -> ExchangePackage {
        let name = url.lastPathComponent
        let data: Data
        do {
            guard let d = try FileSystem.read(url, limit: limits.maxFileBytes) else {
                throw DesignError("\(url.path): no such file")
            }
            data = d
        } catch let e as StoreError {
            throw DesignError("\(url.path): \(e.reason)")
        }
        do {
            return try parse(data, fileName: name, now: now, limits: limits)
        } catch let e as DesignError {
            throw DesignError("\(url.path): \(e.message)")
        }
    }

    public static func parse(_ data: Data, fileName: String, now: Date, limits: Limits = Limits()) throws
        -> ExchangePackage
    {
        do {
            return try readPackage(data, fileName: fileName, now: now, limits: limits)
        } catch let e as JSONFieldError {
            throw DesignError(e)
        }
    }

    /// `parse`, with the strict reader's failures still `JSONFieldError`s (`parse` words them).
    private static func readPackage(_ data: Data, fileName: String, now: Date, limits: Limits) throws
        -> ExchangePackage
    {
        guard data.count <= limits.maxFileBytes else {
            throw DesignError("file is \(SizeLimit(bytes: limits.maxFileBytes).exceeded(by: data.count))")
        }
        // Bytes that cannot start JSON, or are not UTF-8 (a picture, a zip, random bytes), are said
        // to be not JSON, before the depth scan reports the brackets they happened to hold.
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard let first, Array("{[\"-0123456789tfn".utf8).contains(first), String(data: body, encoding: .utf8) != nil
        else {
            let what =
                data.isEmpty
                ? "it is empty"
                : "it starts with the bytes " + data.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw DesignError(
                "not a JSON file (\(what)); expected a .wwdesign export package, a JSON array of designs or one design")
        }
        let depth = JSONValue.nestingDepth(of: data, stopAbove: limits.json.maxDepth)
        guard depth <= limits.json.maxDepth else {
            throw DesignError("JSON nests more than \(limits.json.maxDepth) levels deep; refused")
        }
        let root = try JSONReader.parse(
            data, document: fileName, maxDepth: limits.json.maxDepth, maxValues: limits.json.maxValueCount,
            maxStringBytes: limits.json.maxStringBytes)
        var package = ExchangePackage(
            fileName: fileName, createdAt: nil, specs: [], images: [:], findings: [], notes: [])
        var decoder = TolerantDecoder(fallbackDate: WidgetSpec.wholeSeconds(now))
        let specValues: [(JSONValue, String)]
        var imageValues: [JSONReader] = []
        switch root.value {
        case .object(let o) where o["magic"] != nil || o["specs"] != nil:
            let envelope = try PackageEnvelope(root)
            package.createdAt = envelope.createdAt
            package.notes += envelope.notes
            specValues = envelope.specs.map { ($0.value, $0.path) }
            imageValues = envelope.images
        case .object(let o):
            guard Self.looksLikeDesign(o) else {
                throw DesignError(
                    """
                    not a design file: the object has none of a design's fields \
                    (\(Self.designMarkerKeys.sorted().joined(separator: ", ")));\u{20}
                    """
                        + "expected an export package, an array of designs or one design"
                        + (o.keys.isEmpty ? "" : " (its fields: \(o.keys.sorted().prefix(8).joined(separator: ", ")))"))
            }
            specValues = [(root.value, "")]
        case .array(let list):
            var kept: [(JSONValue, String)] = []
            for (i, element) in list.enumerated() {
                if case .object(let o) = element, Self.looksLikeDesign(o) {
                    kept.append((element, "[\(i)]"))
                } else {
                    package.notes.append(
                        "[\(i)] is not a design (\(element.typeName) without a design's fields); skipped")
                }
            }
            guard !kept.isEmpty else {
                throw DesignError(
                    "not a design file: none of the \(list.count) items of the top-level array is a design "
                        + "(a design has at least one of: \(Self.designMarkerKeys.sorted().joined(separator: ", ")))")
            }
            specValues = kept
        default:
            throw DesignError(
                """
                not a design file: the top level is \(root.value.typeName), expected an export package, an array \
                of designs or one design
                """
            )
        }
        guard specValues.count <= limits.maxSpecs else {
            throw DesignError("specs: \(specValues.count) designs; the limit is \(limits.maxSpecs)")
        }
        guard imageValues.count <= limits.maxImages else {
            throw DesignError("images: \(imageValues.count) images; the limit is \(limits.maxImages)")
        }
        var firstPathForID: [UUID: String] = [:]
        for (value, path) in specValues {
            guard let spec = decoder.spec(value, path: path) else { continue }
            if let earlier = firstPathForID[spec.id] {
                package.notes.append(
                    """
                    \(path).id repeats the ID of \(earlier); imported designs get new IDs, so neither overwrites \
                    the other
                    """
                )
            } else {
                firstPathForID[spec.id] = path
            }
            package.specs.append(spec)
        }
        package.findings = decoder.findings
        guard !package.specs.isEmpty else { throw DesignError("no designs were found in the file") }

        var totalBytes = 0
        for item in imageValues {
            var entry = try JSONMembers(item)
            let (nameField, original) = try entry.string("originalFileName", else: "expected a file name string")
            guard let safe = ImageSanitiser.sanitisedFileName(original) else {
                throw nameField.fail("\"\(original.prefix(80))\" is not a usable file name")
            }
            if safe != original {
                package.notes.append(
                    """
                    \(nameField.path) \"\(original.prefix(80))\" was sanitised to \"\(safe)\" (paths and unusual \
                    characters are not allowed)
                    """
                )
            }
            let (dataField, b64) = try entry.string("data", else: "expected a base64 string")
            // Check the size from the text before decoding, so a huge image costs no memory.
            let approxBytes = b64.utf8.count / 4 * 3
            guard approxBytes <= limits.maxImageBytes + 3 else {
                throw dataField.fail(
                    "image \"\(safe)\" is about \(approxBytes) bytes; the limit is \(limits.maxImageBytes) bytes")
            }
            guard let bytes = Data(base64Encoded: b64, options: [.ignoreUnknownCharacters]),
                !bytes.isEmpty || b64.isEmpty,
                Self.isPlausibleBase64(b64)
            else {
                throw dataField.fail("image \"\(safe)\" is not valid base64")
            }
            let format: ImageSanitiser.Format
            do {
                format = try ImageSanitiser.check(bytes, name: safe, limitBytes: limits.maxImageBytes)
            } catch let e as DesignError {
                throw dataField.fail(e.message)
            }
            totalBytes += bytes.count
            guard totalBytes <= limits.maxTotalImageBytes else {
                throw DesignError("images: more than \(limits.maxTotalImageBytes) bytes of images in total")
            }
            if let existing = package.images[safe] {
                guard existing.data == bytes else {
                    throw nameField.fail(
                        """
                        two different images are both named \"\(safe)\"; refused because designs could show the \
                        wrong one
                        """
                    )
                }
                package.notes.append("\(item.path) repeats image \"\(safe)\"; kept once")
                continue
            }
            package.images[safe] = EmbeddedImage(
                originalFileName: original, fileName: safe, data: bytes, format: format)
        }
        for (i, spec) in package.specs.enumerated() {
            for name in spec.referencedImageFileNames where package.images[name] == nil {
                package.notes.append(
                    "design \(i + 1) (\"\(spec.name)\") references image \"\(name)\", which the file does not embed")
            }
        }
        return package
    }

    /// Fields only a design has: one of them makes a bare JSON object a design. (`name` and `id`
    /// alone do not: a noise mix file has a `name` too.)
    public static let designMarkerKeys: Set<String> = [
        "primaryText", "secondaryText", "layout", "style", "symbol", "image",
        "actionBar", "matchedSet", "clockConfig", "remindersConfig",
    ]

    static func looksLikeDesign(_ o: [String: JSONValue]) -> Bool {
        o.keys.contains { designMarkerKeys.contains($0) }
    }

    /// Base64 text: only the alphabet, `=` padding at the end, and line breaks (which some
    /// encoders insert). `Data(base64Encoded:)` with `.ignoreUnknownCharacters` would accept junk.
    static func isPlausibleBase64(_ s: String) -> Bool {
        var padding = 0
        var count = 0
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
                count += 1
            case UInt8(ascii: "="):
                padding += 1
                count += 1
                if padding > 2 { return false }
            case 0x0A, 0x0D: continue
            default: return false
            }
        }
        return count % 4 == 0
    }
}

/// The package's own fields (`magic`, `formatVersion`, `createdAt`, `specs`, `images`), read
/// strictly: a wrong one refuses the whole file. Fields a newer app adds are not refused (nothing
/// calls `refuseRest`), so a package from a later app still imports.
struct PackageEnvelope {
    var createdAt: Date?
    var specs: [JSONReader]
    var images: [JSONReader]
    var notes: [String] = []

    init(_ root: JSONReader) throws(JSONFieldError) {
        var members = try JSONMembers(root)
        let foreign = "this file does not look like a WidgetWeaver export (expected \"\(DesignExchange.magic)\")"
        let (magic, text) = try members.string("magic", else: foreign)
        guard text == DesignExchange.magic else { throw magic.fail(foreign) }
        if let version = members.take("formatVersion") {
            try Self.check(version: version)
        } else {
            notes.append("formatVersion is missing; read as version 1")
        }
        // A date the app could not have written is no reason to refuse the designs.
        createdAt = members.take("createdAt").flatMap { try? $0.date() }
        guard let specs = try? members.take("specs")?.array(maxCount: .max) else {
            throw JSONFieldError(
                document: root.document, path: root.childPath("specs"), reason: "expected an array of designs")
        }
        self.specs = specs
        if let images = members.take("images"), images.value != .null {
            self.images = try images.array(maxCount: .max)
        } else {
            self.images = []
        }
    }

    /// Versions 1…`formatVersion`; a newer one asks for a newer weaver.
    static func check(version v: JSONReader) throws(JSONFieldError) {
        guard case .number = v.value else { throw v.wrongType("a whole number") }
        let n = try v.number()
        guard n == n.rounded() else { throw v.wrongType("a whole number") }
        let current = DesignExchange.formatVersion
        guard n <= Double(current) else {
            throw v.fail(
                """
                \(JSONValue.formatted(n)) is newer than this version of weaver understands (\(current)); update \
                weaver to import it
                """
            )
        }
        guard n >= 1 else { throw v.fail("\(JSONValue.formatted(n)) is not a valid version (\(current))") }
    }
}

extension JSONMembers {
    /// Member `key` as a string of any length; absent, null or another type is refused in `words`,
    /// the field's own message.
    fileprivate mutating func string(_ key: String, else words: String) throws(JSONFieldError) -> (
        field: JSONReader, text: String
    ) {
        guard let field = take(key), case .string(let text) = field.value else {
            throw JSONFieldError(document: object.document, path: object.childPath(key), reason: words)
        }
        return (field, text)
    }
}

extension DesignError {
    /// A strict-reader failure in the import's wording: the path, then what is wrong
    /// (`images[0]: expected an object, found string`); JSON that does not parse is "not a design
    /// file". `read(url:)` puts the file's path in front.
    init(_ e: JSONFieldError) {
        self.init(e.path == JSONReader.topLevel ? "not a design file: \(e.reason)" : "\(e.path): \(e.reason)")
    }
}
