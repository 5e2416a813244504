import DataSources
import Foundation
import SharedStore
import SystemCalls
import WidgetDesign
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// `weaver designs set NAME image=PATH`: a picture given by path is copied into the store's
/// `images/` folder (designs name bare files there, never paths, so an exported design carries
/// its picture and a moved or deleted original does not break the widget).
enum ImageImport {
    /// Whether an assignment's key names the design's picture (as the editor reads keys: trimmed,
    /// any case).
    static func namesThePicture(_ key: String) -> Bool {
        DesignEditor.field(named: key.trimmingCharacters(in: .whitespaces))?.names.first == "image"
    }

    /// A picture to copy: the file it comes from and the bare name it gets in `images/`.
    struct Pending {
        var source: URL
        var name: String
        var bytes: Data
    }

    /// Rewrites `image=PATH` assignments (a value with a `/` that names a file) to the bare name the
    /// copy will have, checking the file first: it must read within the size limit and decode as
    /// PNG or JPEG (one over `DesignImages.maximumPixels` is scaled down to it). Nothing is copied here (`copy` does it
    /// once the whole edit is known to apply).
    static func prepare(_ assignments: [String], images: URL) throws -> (assignments: [String], pending: [Pending]) {
        var out: [String] = []
        var pending: [Pending] = []
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "="), namesThePicture(String(assignment[..<eq])) else {
                out.append(assignment)
                continue
            }
            let value = String(assignment[assignment.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            guard value.contains("/") else {
                out.append(assignment)
                continue
            }
            let source = URL(fileURLWithPath: SourceLocation.expandingHome(value))
            // Only a regular file (after links): opening a FIFO or a terminal would wait forever.
            var st = stat()
            guard stat(source.path, &st) == 0 else { throw CommandError("image: \(source.path): file not found") }
            guard (st.st_mode & S_IFMT) == S_IFREG else {
                throw CommandError("image: \(source.path): not a regular file")
            }
            let original: Data
            do {
                // Gone since the stat: no bytes, which decoding refuses below, naming the file.
                original = try FileSystem.read(source, limit: DesignImages.maximumFileBytes) ?? Data()
            } catch {
                throw CommandError(
                    "image: \(source.path): \(error) (at most \(DesignImages.maximumFileBytes >> 20) MB)")
            }
            // A photo with more pixels than the store keeps is scaled down here, once.
            let bytes: Data
            do {
                let picture = try DesignImages.prepareForImport(original, name: source.path)
                if let damage = picture.damage { printWarning("image: \(source.path): \(damage)") }
                if let from = picture.scaledFrom {
                    print(
                        """
                        Scaled \(source.path) from \(from.width)×\(from.height) to \
                        \(picture.pixelWidth)×\(picture.pixelHeight) pixels (widgets keep at most \
                        \(DesignImages.maximumPixels / 1_000_000) megapixels).
                        """
                    )
                }
                bytes = picture.bytes
            } catch {
                throw CommandError("image: \(error)")
            }
            guard let base = ImageSanitiser.sanitisedFileName(source.lastPathComponent) else {
                throw CommandError("image: \(source.path): no usable file name")
            }
            let name = freeName(base, for: bytes, in: images, taken: pending.map(\.name))
            pending.append(Pending(source: source, name: name, bytes: bytes))
            out.append("\(assignment[..<eq])=\(name)")
        }
        return (out, pending)
    }

    /// `base`, or `base-2.ext`, `base-3.ext`… when `images/` already holds a different file of
    /// that name (never overwrite a picture another design may use; the same bytes are reused).
    static func freeName(_ base: String, for bytes: Data, in images: URL, taken: [String]) -> String {
        let stem = (base as NSString).deletingPathExtension, ext = (base as NSString).pathExtension
        for n in 1...999 {
            let name = n == 1 ? base : "\(stem)-\(n)" + (ext.isEmpty ? "" : ".\(ext)")
            if taken.contains(name) { continue }
            let url = images.appendingPathComponent(name)
            var st = stat()
            if lstat(url.path, &st) != 0, errno == ENOENT { return name }  // free
            // Taken: reuse it only when it is the same picture; a file that cannot be read is kept.
            if let existing = try? FileSystem.read(url, limit: DesignImages.maximumFileBytes), existing == bytes {
                return name
            }
        }
        return "\(stem)-\(UUID().uuidString.prefix(8))" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// Copies the prepared pictures into `images/` (private to the user). Each is written aside and
    /// then linked to its name, which fails if the name was taken meanwhile (another command
    /// importing a different picture of the same name): a file in `images/` is never replaced.
    /// Returns the files it added (not those it found already there), for `remove`.
    @discardableResult
    static func copy(_ pending: [Pending], images: URL) throws -> [URL] {
        var added: [URL] = []
        guard !pending.isEmpty else { return added }
        try FileSystem.makeDirectory(images)
        for p in pending {
            let target = images.appendingPathComponent(p.name)
            let aside = images.appendingPathComponent(".import-\(getpid())-\(p.name)")
            try FileSystem.atomicWrite(p.bytes, to: aside)
            defer { unlink(aside.path) }
            if link(aside.path, target.path) != 0 {
                let reason = SystemCallError.reason(errno)
                guard errno == EEXIST, (try? FileSystem.read(target, limit: DesignImages.maximumFileBytes)) == p.bytes
                else {
                    remove(added)
                    throw CommandError(
                        "image: could not add \(target.path) (\(reason)); nothing was changed, run the command again")
                }
            } else {
                added.append(target)
            }
            print("Copied \(p.source.path) to \(target.path).")
        }
        return added
    }

    /// Takes back what `copy` added when the design could not be saved after all.
    static func remove(_ added: [URL]) {
        for url in added { unlink(url.path) }
    }
}
