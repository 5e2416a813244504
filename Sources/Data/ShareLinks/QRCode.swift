import CQRencode

/// A QR code of a share link, encoded by libqrencode (error correction M: a screen photographed at
/// an angle still reads), drawn as text for a terminal or as pixels for a PNG.
public struct QRCode: Sendable {
    /// Modules per side.
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]
    /// Light modules around the code that readers need to find it (ISO/IEC 18004 asks for 4).
    public static let quietZone = 4

    public init(_ text: String) throws(ShareLinkError) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw ShareLinkError("could not make a QR code of \(text.utf8.count) bytes (a QR code holds at most 2,331)")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // libqrencode: bit 0 of each byte is the module's colour (1 = dark).
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    public func isDark(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// Two module rows per line with half blocks. `colours` wraps each line in black-on-white ANSI
    /// colours, so the code reads on dark and light terminals alike.
    public func terminalText(colours: Bool) -> String {
        let q = Self.quietZone
        var lines: [String] = []
        var y = -q
        while y < size + q {
            var line = colours ? "\u{1B}[30;107m" : ""
            for x in -q..<(size + q) {
                switch (isDark(x, y), isDark(x, y + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + (colours ? "\u{1B}[0m" : ""))
            y += 2
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Opaque ARGB pixels (`scale` pixels a module, quiet zone included), row by row, and the side in pixels.
    public func argbPixels(scale: Int) -> (pixels: [UInt32], side: Int) {
        let side = (size + 2 * Self.quietZone) * scale
        var pixels = [UInt32](repeating: 0xFFFF_FFFF, count: side * side)
        for y in 0..<size {
            for x in 0..<size where modules[y * size + x] {
                for dy in 0..<scale {
                    let row = ((y + Self.quietZone) * scale + dy) * side + (x + Self.quietZone) * scale
                    for dx in 0..<scale { pixels[row + dx] = 0xFF00_0000 }
                }
            }
        }
        return (pixels, side)
    }
}
