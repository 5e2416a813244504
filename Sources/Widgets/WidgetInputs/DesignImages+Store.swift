import Foundation
import SharedStore
import SystemCalls
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// Pictures out of and into the store's `images/` folder: the one read of a design's picture for
/// a render, and the one import that `weaver designs set image=PATH` and the browser Editor's
/// upload share. Designs name bare files there, never paths, so an exported design carries its
/// picture and a moved or deleted original does not break the widget. A file in `images/` is
/// never replaced: a different picture gets a free name, the same bytes reuse the file that has them.
extension DesignImages {
    /// Reads and decodes `fileName` from `images/` (a bare name: a design never names a path), at
    /// most `maximumFileBytes`.
    public static func load(fileName: String, in root: StoreRoot) throws -> DecodedImage {
        guard !fileName.isEmpty, !fileName.contains("/"), fileName != ".", fileName != "..", !fileName.contains("\0")
        else {
            throw Failure.invalidName(fileName)
        }
        let url = root.images.appendingPathComponent(fileName)
        let data: Data
        do {
            guard let d = try FileSystem.read(url, limit: maximumFileBytes) else { throw Failure.missing(url.path) }
            data = d
        } catch let f as Failure {
            throw f
        } catch {
            let text = "\(error)"
            if text.contains("limit") { throw Failure.tooLarge(url.path, "more than \(maximumFileBytes >> 20) MB") }
            throw Failure.unreadable(url.path, text)
        }
        return try decode(data, name: url.path)
    }

    /// Why a picture could not be added to `images/` (the name was taken meanwhile by a
    /// different picture, or the folder cannot be written).
    public struct StoreFailure: Error, CustomStringConvertible, Sendable {
        /// The file that was to be added.
        public var path: String
        public var reason: String
        public var description: String { "could not add \(path) (\(reason))" }
    }

    /// `base`, or `base-2.ext`, `base-3.ext`… when `images/` already holds a different file of
    /// that name (never overwrite a picture another design may use; the same bytes are reused).
    /// `taken` are names already promised to other pictures of the same edit.
    public static func freeName(_ base: String, for bytes: Data, in images: URL, taken: [String] = []) -> String {
        let stem = (base as NSString).deletingPathExtension, ext = (base as NSString).pathExtension
        for n in 1...999 {
            let name = n == 1 ? base : "\(stem)-\(n)" + (ext.isEmpty ? "" : ".\(ext)")
            if taken.contains(name) { continue }
            let url = images.appendingPathComponent(name)
            var st = stat()
            if lstat(url.path, &st) != 0, errno == ENOENT { return name }  // free
            // Taken: reuse it only when it is the same picture; a file that cannot be read is kept.
            if let existing = try? FileSystem.read(url, limit: maximumFileBytes), existing == bytes {
                return name
            }
        }
        return "\(stem)-\(UUID().uuidString.prefix(8))" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// Adds `bytes` to `images/` as `name` (private to the user). The picture is written aside and
    /// then linked to its name, which fails if the name was taken meanwhile by another picture:
    /// a file in `images/` is never replaced. Returns the file when it was added, nil when the
    /// same bytes were already there under that name.
    public static func add(_ bytes: Data, named name: String, to images: URL) throws -> URL? {
        try FileSystem.makeDirectory(images)
        let target = images.appendingPathComponent(name)
        let aside = images.appendingPathComponent(".import-\(getpid())-\(name)")
        try FileSystem.atomicWrite(bytes, to: aside)
        defer { unlink(aside.path) }
        guard link(aside.path, target.path) != 0 else { return target }
        let reason = SystemCallError.reason(errno)
        guard errno == EEXIST, (try? FileSystem.read(target, limit: maximumFileBytes)) == bytes else {
            throw StoreFailure(path: target.path, reason: reason)
        }
        return nil
    }

    /// Checks, scales (`prepareForImport`) and adds an uploaded picture, named by its content
    /// (`upload-<hash>.png|jpg`), so the same picture uploaded twice is one file. Returns the name
    /// it has in `images/` and the picture as stored.
    public static func importUpload(_ data: Data, into root: StoreRoot) throws -> (
        fileName: String, picture: ImportedPicture
    ) {
        let picture = try prepareForImport(data, name: "the upload")
        let ext = picture.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : "jpg"
        // FNV-1a over the stored bytes: a stable name, not a security measure (the name is checked
        // against the bytes before it is reused).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        picture.bytes.withUnsafeBytes { for b in $0 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } }
        let name = freeName("upload-" + String(hash, radix: 16) + "." + ext, for: picture.bytes, in: root.images)
        _ = try add(picture.bytes, named: name, to: root.images)
        return (name, picture)
    }
}
