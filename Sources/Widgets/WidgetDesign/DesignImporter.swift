import Foundation
import SharedStore

/// Writes the selected designs of a checked package into the library: new IDs (never
/// overwriting), only the images those designs reference, all or nothing.
public struct DesignImporter: Sendable {
    public let library: DesignLibrary

    public init(library: DesignLibrary) { self.library = library }

    public struct Result: Sendable {
        public var imported: [WidgetSpec]
        public var skippedCount: Int
        /// Image files written (store names).
        public var imagesWritten: [String]
    }

    /// `selection` holds 1-based design numbers (from `ImportReview.resolve`). Keeps every field
    /// as it is in the file except the ID (always new) and, when `stampedAt` is given, `updatedAt`,
    /// which becomes that time: the seed app stamps imported designs with the import time so they
    /// list as newest, and `weaver import` does the same unless `--keep-dates` is given.
    public func importDesigns(_ package: ExchangePackage, selection: [Int], stampedAt: Date? = nil) throws -> Result {
        let chosen = Set(selection)
        var specs = package.specs.enumerated().filter { chosen.contains($0.offset + 1) }.map(\.element)
        for i in specs.indices {
            specs[i].id = UUID()
            if let stampedAt { specs[i].updatedAt = WidgetSpec.wholeSeconds(stampedAt) }
        }
        var imagesWritten: [String] = []
        if !specs.isEmpty {
            let imagesFolder = library.root.images
            try library.add(specs) { specs in
                // Under the library lock: pick store names so two imports never collide.
                let needed = Set(specs.flatMap(\.referencedImageFileNames)).sorted().compactMap { package.images[$0] }
                var renames: [String: String] = [:]
                var written: [URL] = []
                do {
                    for image in needed {
                        let target = try Self.storeName(for: image, in: imagesFolder)
                        if target.reuse {
                            if target.name != image.fileName { renames[image.fileName] = target.name }
                            continue
                        }
                        let url = imagesFolder.appendingPathComponent(target.name)
                        try FileSystem.atomicWrite(image.data, to: url, mode: 0o644)
                        written.append(url)
                        imagesWritten.append(target.name)
                        if target.name != image.fileName { renames[image.fileName] = target.name }
                    }
                } catch {
                    for url in written { try? FileManager.default.removeItem(at: url) }
                    throw error
                }
                if !renames.isEmpty { for i in specs.indices { specs[i].renameImages(renames) } }
                return written
            }
            // `add` may have renamed images in its copy; read them back for the caller.
            specs = try specs.map { try library.load($0.id) }
        }
        return Result(imported: specs, skippedCount: package.specs.count - specs.count, imagesWritten: imagesWritten)
    }

    /// The image's own name when free; the same name when the store already holds identical
    /// bytes; otherwise `stem-2.ext`, `stem-3.ext`, ...
    static func storeName(for image: EmbeddedImage, in folder: URL) throws -> (name: String, reuse: Bool) {
        let ns = image.fileName as NSString
        let stem = ns.deletingPathExtension, ext = ns.pathExtension
        var candidate = image.fileName
        var n = 2
        while true {
            let url = folder.appendingPathComponent(candidate)
            guard let existing = try? FileSystem.read(url, limit: ImageSanitiser.maxImageBytes) else {
                if FileManager.default.fileExists(atPath: url.path) {
                    // Present but unreadable or too large: never replace a user's file.
                } else {
                    return (candidate, false)
                }
                candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
                n += 1
                continue
            }
            if existing == image.data { return (candidate, true) }
            candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            n += 1
            if n > 10_000 { throw DesignError("cannot find a free name for image \(image.fileName) in \(folder.path)") }
        }
    }
}
