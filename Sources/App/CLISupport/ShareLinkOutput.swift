import CairoCanvas
import Foundation
import ShareLinks
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// What `noise share` and `weaver share` print once they hold a link, written once: the link on
/// standard output; with `--png` its QR code as a PNG file (said on standard error); unless
/// `--no-qr` (`linkOnly`), the QR code as terminal text.
public enum ShareLinkOutput {
    /// - Parameter exampleName: the file name `OutputTarget` suggests when `--png` names a folder.
    public static func show(_ link: String, pngPath: String?, linkOnly: Bool, exampleName: String) throws {
        print(link)
        guard !linkOnly || pngPath != nil else { return }
        let code = try QRCode(link)
        if let pngPath {
            let target = try OutputTarget(path: pngPath, option: "'--png'", exampleName: exampleName)
            let (pixels, side) = code.argbPixels(scale: 8)
            try target.write(
                pixels.withUnsafeBufferPointer {
                    try PNGEncoder.encode(argb: $0.baseAddress!, width: side, height: side, rowPixels: side)
                })
            // Unbuffered, as both commands' other notes on standard error are.
            let note = "Wrote the QR code (\(side)×\(side) pixels) to \(pngPath).\n"
            try? FileDescriptorIO.writeAll(2, Array(note.utf8))
        }
        if !linkOnly { print(code.terminalText(colours: isatty(1) == 1), terminator: "") }
    }
}
