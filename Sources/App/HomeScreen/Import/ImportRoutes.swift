import BoundedJSON
import CivilDates
import Foundation
import Hummingbird
import NIOCore
import SharedStore
import SizeLimits
import Synchronization
import WidgetDesign

/// Sharing: `GET /api/export` (the bytes `weaver export` writes) and the Import Review
/// (`POST /api/import` reads and checks a file and writes nothing; `POST /api/import/{reviewId}`
/// imports the selected designs). The file is read by `DesignExchange.parse`, reviewed by
/// `ImportReview` and written by `DesignImporter`, as `weaver import` does, so a file the CLI
/// refuses is refused here with the same message (after the file's name, where the CLI puts its path).
struct ImportRoutes {
    let server: HomeScreenServer

    @Sendable func export(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        let root = try server.requireStore(.noLibrary)
        let idsText = request.uri.queryParameters.get("ids") ?? ""
        let exported: Exported
        do {
            exported = try Self.export(library, root: root, ids: idsText, now: Date())
        } catch let e as DesignError {
            throw HTTPError(idsText.isEmpty ? .badRequest : .unprocessableContent, e.message)
        }
        var response = Routes.bytes(Array(exported.data), type: "application/octet-stream")
        response.headers[.contentDisposition] = "attachment; filename=\"\(exported.fileName)\""
        return response
    }

    @Sendable func review(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        let limits = DesignExchange.Limits()
        let fileName = Self.fileName(request.uri.queryParameters.get("name"))
        // An oversized file is refused before it is read, with the words `weaver import` uses
        // for one (the size it declares); one byte past the limit is read otherwise, so the
        // parser says it.
        let limit = SizeLimit(bytes: limits.maxFileBytes)
        let tooLarge = { (said: String) in HTTPError(.contentTooLarge, "\(fileName): \(said)") }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limits.maxFileBytes {
            throw tooLarge("file is " + limit.exceeded(by: declared))
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.maxFileBytes + 1)
        } catch {
            throw tooLarge("file is " + limit.exceededByStream)
        }
        let answer = try Self.review(
            Data(buffer: body), fileName: fileName, library: library, reviews: server.reviews, now: Date())
        switch answer {
        case .failure(let message): throw HTTPError(.unprocessableContent, message)
        case .success(let json): return DesignAPIRoutes.json(json)
        }
    }

    @Sendable func importReviewed(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let library = try server.requireLibrary()
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        guard let reviewID = context.parameters.get("review"), let held = server.reviews.get(reviewID) else {
            throw HTTPError(.notFound, "no such import review (it may have expired: upload the file again)")
        }
        let limits = JSONLimits(maxDepth: 3, maxValueCount: 10_001, maxStringBytes: 64)
        guard let o = RequestBody.object(body, limits: limits, allowed: ["select"], required: ["select"]),
            let list = try? o.required("select").array(maxCount: limits.maxValueCount)
        else {
            throw HTTPError(.badRequest, "the body must be {\"select\": [INDEX, ...]} (0-based design indexes)")
        }
        var numbers: [Int] = []
        for item in list {
            guard let n = try? item.number(), n == n.rounded(), n >= 0, n < Double(held.package.specs.count)
            else {
                throw HTTPError(
                    .unprocessableContent,
                    """
                    'select' holds \(item.value) but \(held.package.fileName) has designs \
                    0…\(held.package.specs.count - 1)
                    """
                )
            }
            numbers.append(Int(n) + 1)
        }
        return try LibraryRoutes.refusing {
            let result = try Self.importSelected(held.package, numbers: numbers, library: library, now: Date())
            server.reviews.remove(reviewID)
            server.refresh()
            return DesignAPIRoutes.json(
                .object([
                    "message": .string(result.summary),
                    "imported": .array(
                        result.imported.map {
                            .object(["id": .string($0.id.uuidString), "name": .string($0.name)])
                        }),
                    "skipped": .number(Double(result.skipped)),
                ]))
        }
    }

    @Sendable func reviewPicture(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let workshop = try server.requireWorkshop()
        guard let reviewID = context.parameters.get("review"), let held = server.reviews.get(reviewID),
            let file = context.parameters.get("picture"), file.hasSuffix(".svg"),
            let index = Int(file.dropLast(4)), held.package.specs.indices.contains(index)
        else {
            throw HTTPError(.notFound, "no such design in this review")
        }
        let family = request.uri.queryParameters.get("family") ?? "small"
        // Drawn as a draft with the file's embedded images, decoded for this picture: nothing
        // is written before the import.
        do {
            let drawn = try workshop.renderReview(
                held.package.specs[index], family: family,
                embeddedImages: held.package.images.mapValues(\.data), now: Date())
            return Routes.bytes(drawn.bytes, type: DraftFormat.svg.contentType)
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        }
    }

    /// A bare file name for messages: the last path component, at most 200 characters, only
    /// printable characters; "upload.wwdesign" when none is given.
    static func fileName(_ given: String?) -> String {
        let last = (given ?? "").split(separator: "/").last ?? ""
        let clean = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(200))
        return clean.isEmpty ? "upload.wwdesign" : clean
    }

    struct Exported {
        var data: Data
        var fileName: String
    }

    /// `weaver export ID... --output F` (or `--all` for `ids=all`): the same designs, the same
    /// images embedded, the same bytes.
    static func export(_ library: DesignLibrary, root: StoreRoot, ids: String, now: Date) throws -> Exported {
        let refs = ids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !refs.isEmpty else {
            throw DesignError("give design IDs or 'all': /api/export?ids=ID,ID or /api/export?ids=all")
        }
        let all = refs == ["all"]
        guard all || refs.allSatisfy({ UUID(uuidString: $0) != nil }) else {
            throw DesignError("'ids' must be design IDs (UUIDs) separated by commas, or 'all'")
        }
        let chosen = all ? try library.summaries().map(\.id) : try refs.map { try library.resolve($0).id }
        var seen = Set<UUID>()
        let specs = try chosen.filter { seen.insert($0).inserted }.map { try library.load($0) }
        let result = try DesignExchange.export(specs, embedImages: true, imagesFolder: root.images, now: now)
        let name = specs.count == 1 ? safeStem(specs[0].name) : "widgetweaver-designs"
        return Exported(data: result.data, fileName: name + ".wwdesign")
    }

    /// A download name from a design name: letters, digits, '-' and '_' only.
    static func safeStem(_ name: String) -> String {
        let kept = String(
            name.unicodeScalars.map {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" ? Character($0) : "-"
            })
        let trimmed = kept.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-").prefix(60)
        return trimmed.isEmpty ? "design" : String(trimmed)
    }

    enum ReviewAnswer {
        case success(JSONValue)
        case failure(String)
    }

    /// Reads the file as `weaver import FILE` does and keeps the package for the import step.
    static func review(_ data: Data, fileName: String, library: DesignLibrary, reviews: ImportReviews, now: Date) throws
        -> ReviewAnswer
    {
        let package: ExchangePackage
        do {
            package = try DesignExchange.parse(data, fileName: fileName, now: now)
        } catch let e as DesignError {
            return .failure("\(fileName): \(e.message)")
        }
        let existing = try library.summaries()
        let review = ImportReview(
            package: package, isPro: library.isPro, existingCount: existing.count,
            library: existing.compactMap { try? library.load($0.id) })
        let id = reviews.add(package)
        return .success(
            .object([
                "reviewId": .string(id),
                "fileName": .string(package.fileName),
                "designs": .array(
                    review.items.map { item in
                        .object([
                            "index": .number(Double(item.number - 1)), "name": .string(item.name),
                            "template": .string(item.template.rawValue),
                            "templateName": .string(item.template.displayName),
                            "updatedAt": .string(ISODate.format(item.updatedAt)),
                            "hasImage": .bool(item.referencesEmbeddedImage),
                            "inLibrary": .bool(item.isInLibrary),
                        ])
                    }),
                "freeSlots": review.slotsLeft.map { .number(Double($0)) } ?? .null,
                "defaultSelection": .array(review.defaultSelection.map { .number(Double($0 - 1)) }),
                "findings": .array(package.findings.map { .string("\(package.fileName): \($0)") }),
                "notes": .array(package.notes.map { .string("\(package.fileName): \($0)") }),
            ]))
    }

    struct Imported {
        var imported: [WidgetSpec]
        var skipped: Int
        var summary: String
    }

    /// `weaver import FILE --select N,M`: the free-tier check of the review, then the importer
    /// (new IDs, only the images the selected designs reference, the import time as updatedAt).
    static func importSelected(_ package: ExchangePackage, numbers: [Int], library: DesignLibrary, now: Date) throws
        -> Imported
    {
        let review = ImportReview(package: package, isPro: library.isPro, existingCount: try library.summaries().count)
        let selection = try review.resolve(.numbers(numbers))
        let result = try DesignImporter(library: library).importDesigns(package, selection: selection, stampedAt: now)
        let summary =
            ImportReview.summary(imported: result.imported.count, skipped: result.skippedCount)
            + (result.imagesWritten.isEmpty
                ? "" : " Stored \(result.imagesWritten.count) image\(result.imagesWritten.count == 1 ? "" : "s").")
        return Imported(imported: result.imported, skipped: result.skippedCount, summary: summary)
    }
}

/// Packages under review, held between the upload and the import (nothing is written before).
/// At most `capacity` are kept, the oldest dropped first, so uploads cannot pile up in memory.
public final class ImportReviews: Sendable {
    static let capacity = 4
    private struct Held {
        var id: String
        var package: ExchangePackage
    }
    private let held = Mutex<[Held]>([])

    public init() {}

    func add(_ package: ExchangePackage) -> String {
        let id = AccessPolicy.newToken()
        held.withLock { list in
            list.append(Held(id: id, package: package))
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
        return id
    }

    func get(_ id: String) -> (id: String, package: ExchangePackage)? {
        held.withLock { list in list.first { $0.id == id }.map { ($0.id, $0.package) } }
    }

    func remove(_ id: String) {
        held.withLock { list in list.removeAll { $0.id == id } }
    }
}
