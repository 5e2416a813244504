import DataSources
import Foundation
import SharedStore
import WidgetDesign
import WidgetInputs
import WidgetRender

#if canImport(Glibc)
    import Glibc
#endif

/// `weaver designs set NAME image=PATH`: a picture given by path is copied into the store's
/// `images/` folder through `DesignImages`' store import (DesignImages+Store.swift), which the
/// browser Editor's upload shares.
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
            let name = DesignImages.freeName(base, for: bytes, in: images, taken: pending.map(\.name))
            pending.append(Pending(source: source, name: name, bytes: bytes))
            out.append("\(assignment[..<eq])=\(name)")
        }
        return (out, pending)
    }

    /// Copies the prepared pictures into `images/` (`DesignImages.add`: a file there is never
    /// replaced). Returns the files it added (not those it found already there), for `remove`.
    @discardableResult
    static func copy(_ pending: [Pending], images: URL) throws -> [URL] {
        var added: [URL] = []
        for p in pending {
            do {
                if let url = try DesignImages.add(p.bytes, named: p.name, to: images) { added.append(url) }
            } catch let failure as DesignImages.StoreFailure {
                remove(added)
                throw CommandError("image: \(failure); nothing was changed, run the command again")
            }
            print("Copied \(p.source.path) to \(images.appendingPathComponent(p.name).path).")
        }
        return added
    }

    /// Takes back what `copy` added when the design could not be saved after all.
    static func remove(_ added: [URL]) {
        for url in added { unlink(url.path) }
    }
}
