import BoundedJSON
import CivilDates
import Foundation
import SharedStore
import TestSupport
import Testing

@testable import WidgetDesign

/// Issue 17: a file from today's iOS app goes phone → Linux → phone with no difference but the
/// new IDs (and, unless --keep-dates, the import-time stamp the app itself applies).
@Suite struct AppRoundTripTests {
    /// Imports `package` into a fresh Pro store and exports every imported design again.
    func roundTrip(_ package: Data, stampedAt: Date? = nil) throws -> (
        exported: Data, store: TestStore, result: DesignImporter.Result
    ) {
        let store = try TestStore("ww-designs")
        try store.unlockPro()
        let parsed = try DesignExchange.parse(package, fileName: "phone.wwdesign", now: fixedNow)
        #expect(parsed.findings.isEmpty, "\(parsed.findings)")
        let result = try DesignImporter(library: store.library()).importDesigns(
            parsed, selection: Array(1...parsed.specs.count), stampedAt: stampedAt)
        let export = try DesignExchange.export(
            result.imported, embedImages: true, imagesFolder: store.root.images, now: fixedNow)
        #expect(export.leftOut.isEmpty, "\(export.leftOut)")
        return (export.data, store, result)
    }

    func specs(_ data: Data) throws -> [[String: JSONValue]] {
        guard case .object(let root) = try JSONValue.parse(data), case .array(let list)? = root["specs"] else {
            Issue.record("not a package")
            return []
        }
        return list.map { if case .object(let o) = $0 { o } else { [:] } }
    }

    func images(_ data: Data) throws -> [String: String] {
        guard case .object(let root) = try JSONValue.parse(data), case .array(let list)? = root["images"] else {
            return [:]
        }
        var out: [String: String] = [:]
        for case .object(let o) in list {
            if case .string(let name)? = o["originalFileName"], case .string(let b64)? = o["data"],
                let bytes = Data(base64Encoded: b64)
            {
                out[name] = SHA256.hex(bytes)
            }
        }
        return out
    }

    /// Every key of every design compared (recursively, as parsed JSON), minus the ones named.
    func expectSameFields(
        _ a: [[String: JSONValue]], _ b: [[String: JSONValue]], except: Set<String>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        for (x, y) in zip(a, b) {
            let xs = x.filter { !except.contains($0.key) }, ys = y.filter { !except.contains($0.key) }
            #expect(
                Set(xs.keys) == Set(ys.keys), "keys differ in \(x["name"] ?? .null)", sourceLocation: sourceLocation)
            for key in xs.keys.sorted() where xs[key] != ys[key] {
                Issue.record(
                    "\(x["name"] ?? .null).\(key): phone \(xs[key]!) vs Linux \(ys[key] ?? .null)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(Data(repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func phoneFileRoundTripsWithOnlyNewIDs() throws {
        let (package, sourceImages) = AppFixtures.phoneExport()
        let (exported, store, result) = try roundTrip(package)
        defer { store.remove() }
        let before = try specs(package), after = try specs(exported)
        expectSameFields(before, after, except: ["id"])
        for (b, a) in zip(before, after) { #expect(b["id"] != a["id"]) }
        // Every referenced image, stored and exported, byte for byte (SHA-256).
        let expected = sourceImages.mapValues { SHA256.hex($0) }
        #expect(result.imagesWritten.sorted() == expected.keys.sorted())
        for (name, hash) in expected {
            #expect(
                SHA256.hex(try Data(contentsOf: store.root.images.appendingPathComponent(name))) == hash,
                "stored \(name)")
        }
        #expect(try images(exported) == expected)
        #expect(expected.count == 10)
        // The package envelope is the app's.
        guard case .object(let root) = try JSONValue.parse(exported) else {
            Issue.record("not an object")
            return
        }
        #expect(root["magic"] == .string(DesignExchange.magic))
        #expect(root["formatVersion"] == .number(1))
        #expect(after.allSatisfy { $0["version"] == .number(8) })
    }

    @Test func realisticTwoAndAHalfMegabyteFileKeepsAllImages() throws {
        let (package, sourceImages) = AppFixtures.phoneExport(imageScale: 0.72)
        #expect((2_300_000...2_700_000).contains(package.count), "\(package.count) bytes")
        let (exported, store, _) = try roundTrip(package)
        defer { store.remove() }
        // 10 images in, 10 out, the same bytes (the issue saw 4 in, 1 out).
        #expect(try images(exported) == sourceImages.mapValues { SHA256.hex($0) })
        guard case .object(let root) = try JSONValue.parse(exported), case .array(let list)? = root["images"] else {
            Issue.record("no images")
            return
        }
        let bytesOut = list.reduce(0) { sum, v in
            if case .object(let o) = v, case .string(let b)? = o["data"] {
                return sum + (Data(base64Encoded: b)?.count ?? 0)
            }
            return sum
        }
        #expect(bytesOut == sourceImages.values.reduce(0) { $0 + $1.count })
    }

    @Test func importStampsTheImportTimeLikeTheAppUnlessDatesAreKept() throws {
        let (package, _) = AppFixtures.phoneExport(imageScale: 0.05)
        let importTime = Date(timeIntervalSince1970: 1_800_000_000.7)
        let (exported, store, result) = try roundTrip(package, stampedAt: importTime)
        defer { store.remove() }
        #expect(result.imported.allSatisfy { $0.updatedAt == Date(timeIntervalSince1970: 1_800_000_000) })
        let after = try specs(exported)
        #expect(after.allSatisfy { $0["updatedAt"] == .string("2027-01-15T08:00:00Z") })
        expectSameFields(try specs(package), after, except: ["id", "updatedAt"])
    }

    @Test func schema8FieldsAreTypedWithTheAppsValues() throws {
        let (package, _) = AppFixtures.phoneExport(imageScale: 0.05)
        let p = try DesignExchange.parse(package, fileName: "phone", now: fixedNow)
        let byName = Dictionary(uniqueKeysWithValues: p.specs.map { ($0.name, $0) })
        #expect(byName["Rain Glass"]?.style.weatherScale == 1.25)
        #expect(byName["Small Weather"]?.style.weatherScale == 0.6)
        #expect(byName["Small Weather"]?.style.weatherRenderScale == 0.85)  // drawn clamped, as in the app
        let clock = try #require(byName["Ocean Clock"]?.clockConfig)
        #expect(
            clock == ClockDesignConfig(theme: .ocean, face: .icon, iconDialColour: .mint, iconSecondHandColour: .mint))
        #expect(byName["Ember Ceramic"]?.effectiveClockConfig == ClockDesignConfig(theme: .ember, face: .ceramic))
        #expect(byName["Ember Ceramic"]?.effectiveClockConfig.effectiveSecondHandColour == .red)
        let beach = try #require(byName["Beach"]?.image)
        #expect(beach.filter == PhotoFilterSpec(token: .noir, intensity: 0.75))
        let sp = try #require(beach.smartPhoto)
        #expect(sp.masterFileName == "sp1-master.jpg")
        #expect(sp.small?.cropRect == NormalisedRect(x: 0.1234567890123, y: 0.05, width: 0.61, height: 0.61))
        #expect(sp.medium?.pixelSize == PixelSize(width: 728, height: 340))
        // Issue 28.8: the per-size rotation the app writes, kept (and absent where it was absent).
        #expect(sp.small?.straightenDegrees == -3.25 && sp.small?.rotationQuarterTurns == 1)
        #expect(sp.medium?.straightenDegrees == 0 && sp.medium?.rotationQuarterTurns == 0)
        #expect(sp.large?.straightenDegrees == nil && sp.large?.rotationQuarterTurns == nil)
        #expect(sp.algorithmVersion == 3)
        #expect(sp.shuffleManifestFileName == "smart-shuffle-6F1C.json")
        #expect(beach.fileName(for: .large) == "sp1-large.jpg")
        #expect(byName["Beach"]?.referencedImageFileNames.count == 10)
        #expect(byName["Counters"]?.image == nil)
    }

    @Test func unknownFutureFieldsAreDroppedWithAFinding() throws {
        var spec = AppFixtures.spec("Future", template: "classic")
        if case .object(var o) = spec {
            o["sparkleMode"] = .string("max")
            if case .object(var st)? = o["style"] {
                st["glassDepth"] = .number(3)
                o["style"] = .object(st)
            }
            spec = .object(o)
        }
        let p = try DesignExchange.parse(AppFixtures.appBytes(.array([spec])), fileName: "f", now: fixedNow)
        #expect(p.specs.count == 1)
        #expect(Set(p.findings.map(\.path)) == ["[0].sparkleMode", "[0].style.glassDepth"])
        #expect(p.findings.allSatisfy { $0.kind == .unknownKey })
    }

    /// A schema-5 design (before weatherScale, clockConfig, filters, Smart Photo; image mode under
    /// the old `crop` key; layout without secondaryLineLimitSmall): read without findings, with
    /// defaults, and written back as version 8.
    @Test func version5LegacyFileImports() throws {
        let legacy = #"""
            {"magic":"com.conornolan.widgetweaver.exchange","formatVersion":1,"createdAt":"2025-12-20T12:00:00Z",\#
            "images":[],
             "specs":[{"version":5,"id":"5D1E5C1A-0000-4000-8000-000000000005","name":"Old Poster","primaryText":"Hi",
                       "updatedAt":"2025-12-20T11:59:00Z","image":{"fileName":"old.jpg","crop":"fit"},
                       "layout":{"axis":"vertical","alignment":"center","spacing":6,"primaryLineLimitSmall":1,\#
            "primaryLineLimit":2,"secondaryLineLimit":3},
                       "style":{"padding":14,"cornerRadius":18,"background":"accentGlow","accent":"pink",\#
            "nameTextStyle":"automatic",
                                "primaryTextStyle":"automatic","secondaryTextStyle":"automatic"}},
                      {"version":5,"name":"Old \#
            Clock","primaryText":"","updatedAt":"2025-12-20T11:58:00Z","layout":{"template":"clockIcon"},"style":{}}]}
            """#
        let p = try DesignExchange.parse(Data(legacy.utf8), fileName: "v5", now: fixedNow)
        #expect(p.findings.isEmpty, "\(p.findings)")
        let poster = p.specs[0]
        #expect(poster.image?.contentMode == .fit)
        #expect(poster.layout.alignment == .centre)
        #expect(poster.layout.secondaryLineLimit == 3)
        #expect(poster.style.weatherScale == 1)
        #expect(poster.style.fontDesign == .default)  // before style.fontDesign (issue 41.18)
        #expect(poster.image?.filter == nil && poster.image?.smartPhoto == nil)
        #expect(p.specs[1].clockConfig == nil)
        #expect(p.specs[1].effectiveClockConfig.face == .ceramic)  // the app's legacy face
        let out = try specs(
            DesignExchange.exportData(
                p.specs, embedImages: false, imagesFolder: URL(fileURLWithPath: "/nonexistent"), now: fixedNow))
        #expect(out.allSatisfy { $0["version"] == .number(8) })
        guard case .object(let style)? = out[0]["style"] else {
            Issue.record("no style")
            return
        }
        #expect(style["weatherScale"] == .number(1))
        #expect(style["fontDesign"] == nil)  // our own key, written only when not the default
        #expect(p.notes.contains { $0.contains("old.jpg") })  // referenced, not embedded: said so
    }

    /// Swift's default JSON date encoding: a bare array of specs with seconds since 2001-01-01.
    @Test func bareArrayWith2001EpochDates() throws {
        var spec = AppFixtures.spec(
            "Epoch", template: "poster", image: AppFixtures.image("e.jpg", smart: AppFixtures.smartPhoto(prefix: "e")))
        if case .object(var o) = spec {
            o["updatedAt"] = .number(791_463_845.25)  // 2026-01-30T11:04:05.25Z
            if case .object(var img)? = o["image"], case .object(var sp)? = img["smartPhoto"] {
                sp["preparedAt"] = .number(791_453_600)
                img["smartPhoto"] = .object(sp)
                o["image"] = .object(img)
            }
            spec = .object(o)
        }
        let p = try DesignExchange.parse(AppFixtures.appBytes(.array([spec])), fileName: "bare", now: fixedNow)
        #expect(p.findings.isEmpty, "\(p.findings)")
        #expect(ISODate.format(p.specs[0].updatedAt) == "2026-01-30T11:04:05Z")
        #expect(ISODate.format(try #require(p.specs[0].image?.smartPhoto?.preparedAt)) == "2026-01-30T08:13:20Z")
        // Re-encoding is exact (whole seconds).
        let again = try WidgetSpec.decode(p.specs[0].encoded(), fallbackDate: fixedNow)
        #expect(again.0 == p.specs[0] && again.1.isEmpty)
    }

    @Test func formatVersion2IsStillRefused() {
        let (package, _) = AppFixtures.phoneExport(imageScale: 0.05)
        let text = String(decoding: package, as: UTF8.self).replacingOccurrences(
            of: #""formatVersion" : 1"#, with: #""formatVersion" : 2"#)
        #expect(text.contains(#""formatVersion" : 2"#))
        #expect(throws: DesignError.self) { try DesignExchange.parse(Data(text.utf8), fileName: "v2", now: fixedNow) }
        do {
            _ = try DesignExchange.parse(Data(text.utf8), fileName: "v2", now: fixedNow)
        } catch let e as DesignError {
            #expect(e.message.contains("formatVersion: 2 is newer"))
        } catch { Issue.record("\(error)") }
    }

    @Test func clockSecondHandFollowsTheAppsPairingRules() throws {
        // Ember dial: a mint second hand is not offered; the app substitutes the recommended orange.
        let spec = AppFixtures.spec(
            "Pair", template: "clockIcon",
            extra: [
                "clockConfig": .object([
                    "theme": .string("ember"), "face": .string("icon"),
                    "iconSecondHandColourToken": .string("mint"),
                ])
            ])
        let p = try DesignExchange.parse(AppFixtures.appBytes(.array([spec])), fileName: "c", now: fixedNow)
        #expect(p.specs[0].clockConfig?.iconSecondHandColour == .orange)
        #expect(p.findings.map(\.path) == ["[0].clockConfig.iconSecondHandColourToken"])
        // Unknown tokens fall back with findings (theme classic, face ceramic, override none).
        let odd = AppFixtures.spec(
            "Odd", template: "clockIcon",
            extra: [
                "clockConfig": .object([
                    "theme": .string("plaid"), "face": .string("sundial"), "iconDialColourToken": .string("beige"),
                ])
            ])
        let q = try DesignExchange.parse(AppFixtures.appBytes(.array([odd])), fileName: "c", now: fixedNow)
        #expect(q.specs[0].clockConfig == ClockDesignConfig(theme: .classic, face: .ceramic))
        #expect(q.findings.count == 3)
    }

    @Test func filterNoneOrZeroIsNoFilterAndOutOfRangeIsClamped() throws {
        func filterOf(_ token: String, _ intensity: Double) throws -> (PhotoFilterSpec?, [Finding]) {
            let spec = AppFixtures.spec(
                "F", template: "poster", image: AppFixtures.image("f.jpg", filter: (token, intensity)))
            let p = try DesignExchange.parse(AppFixtures.appBytes(.array([spec])), fileName: "f", now: fixedNow)
            return (p.specs[0].image?.filter, p.findings)
        }
        #expect(try filterOf("none", 1).0 == nil)
        #expect(try filterOf("sepia", 0).0 == nil)
        let clamped = try filterOf("sepia", 1.5)
        #expect(clamped.0 == PhotoFilterSpec(token: .sepia, intensity: 1))
        #expect(clamped.1.map(\.path) == ["[0].image.filter.intensity"])
        let unknown = try filterOf("vaporwave", 1)
        #expect(unknown.0 == nil && unknown.1.map(\.kind) == [.unknownToken])
    }

    @Test func hostileSmartPhotoNamesAreSanitisedAndUsedForStorage() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        var smart = AppFixtures.smartPhoto(prefix: "h")
        if case .object(var o) = smart {
            o["masterFileName"] = .string("../../../etc/h-master.jpg")
            smart = .object(o)
        }
        let spec = AppFixtures.spec("H", template: "poster", image: AppFixtures.image("h.jpg", smart: smart))
        let imgs: [JSONValue] = ["../../../etc/h-master.jpg", "h.jpg", "h-small.jpg", "h-medium.jpg", "h-large.jpg"]
            .enumerated().map {
                .object([
                    "originalFileName": .string($0.element),
                    "data": .string(AppFixtures.jpeg(100, seed: UInt64($0.offset)).base64EncodedString()),
                ])
            }
        let package: JSONValue = .object([
            "magic": .string(DesignExchange.magic), "formatVersion": .number(1),
            "createdAt": .string("2026-02-01T00:00:00Z"),
            "specs": .array([spec]), "images": .array(imgs),
        ])
        let p = try DesignExchange.parse(AppFixtures.appBytes(package), fileName: "h", now: fixedNow)
        #expect(p.specs[0].image?.smartPhoto?.masterFileName == "h-master.jpg")
        let r = try DesignImporter(library: store.library()).importDesigns(p, selection: [1])
        #expect(r.imagesWritten.sorted() == ["h-large.jpg", "h-master.jpg", "h-medium.jpg", "h-small.jpg", "h.jpg"])
        #expect(files(in: store.root.images).count == 5)
    }

    @Test func renamedImagesAreRewrittenInSmartPhotoReferences() throws {
        let store = try TestStore("ww-designs")
        defer { store.remove() }
        try store.unlockPro()
        // The store already holds different bytes under two of the names.
        try FileSystem.atomicWrite(
            ImportFixtures.png(1), to: store.root.images.appendingPathComponent("sp1-master.jpg"))
        try FileSystem.atomicWrite(ImportFixtures.png(2), to: store.root.images.appendingPathComponent("sp1-small.jpg"))
        let (package, source) = AppFixtures.phoneExport(imageScale: 0.05)
        let p = try DesignExchange.parse(package, fileName: "phone", now: fixedNow)
        let r = try DesignImporter(library: store.library()).importDesigns(p, selection: [5])
        let sp = try #require(r.imported[0].image?.smartPhoto)
        #expect(sp.masterFileName == "sp1-master-2.jpg")
        #expect(sp.small?.renderFileName == "sp1-small-2.jpg")
        #expect(sp.medium?.renderFileName == "sp1-medium.jpg")
        #expect(
            try Data(contentsOf: store.root.images.appendingPathComponent("sp1-master-2.jpg"))
                == source["sp1-master.jpg"])
        #expect(
            try Data(contentsOf: store.root.images.appendingPathComponent("sp1-master.jpg")) == ImportFixtures.png(1))
        // The matched-set variant's Smart Photo came too.
        #expect(
            r.imported[0].referencedImageFileNames.allSatisfy {
                FileManager.default.fileExists(atPath: store.root.images.appendingPathComponent($0).path)
            })
    }
}
