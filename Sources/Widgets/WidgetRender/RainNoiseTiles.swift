import CCairo
import CairoCanvas
import Foundation
import NoiseDSP

/// The two seamless (periodic) noise tiles the rain surface's texture is made of, as the seed
/// has them: `fine`, sparse micro highlights for the grain, and `coarse`, wispy clumps for the
/// surface band and the mist. White with the noise in alpha, premultiplied. Both wrap in x and
/// y (every lattice and neighbourhood index is taken modulo the tile), so tiling them with
/// `CAIRO_EXTEND_REPEAT` has no seam. Made once per process from fixed seeds: the same pixels
/// every run.
enum RainNoiseTiles {
    static let side = 64

    static let fine: CairoSurface? = make { values in
        var rng = SplitMix64(seed: 0x5EED_F1E0)
        var speckle = [Double](repeating: 0, count: side * side)
        for i in speckle.indices {
            let r = rng.unit()
            speckle[i] = r > 0.92 ? (r - 0.92) / 0.08 : 0
        }
        // A slight wrap-around blur so a highlight is a soft dot, not a hard pixel.
        for y in 0..<side {
            for x in 0..<side {
                var sum = speckle[y * side + x] * 4
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    sum += speckle[((y + dy + side) % side) * side + (x + dx + side) % side]
                }
                values[y * side + x] = min(1, sum / 6)
            }
        }
    }

    static let coarse: CairoSurface? = coarseTile(side: side)
    /// The same noise stretched over twice the side: wispier clumps, drawn 1:1 (a tile scaled at
    /// draw time takes pixman's slow filtered path).
    static let coarseWide: CairoSurface? = coarseTile(side: 2 * side)

    static func coarseTile(side: Int) -> CairoSurface? {
        make(side: side) { values in
            // Two octaves of value noise on lattices that divide the tile (periods 8 and 16 cells).
            func lattice(_ cells: Int, seed: UInt64) -> [Double] {
                var rng = SplitMix64(seed: seed)
                return (0..<(cells * cells)).map { _ in rng.unit() }
            }
            func sample(_ grid: [Double], _ cells: Int, _ x: Int, _ y: Int) -> Double {
                let size = Double(side) / Double(cells)
                let fx = Double(x) / size, fy = Double(y) / size
                let x0 = Int(fx), y0 = Int(fy)
                let tx = fx - Double(x0), ty = fy - Double(y0)
                let sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty)
                func g(_ i: Int, _ j: Int) -> Double { grid[(j % cells) * cells + i % cells] }
                let top = g(x0, y0) + (g(x0 + 1, y0) - g(x0, y0)) * sx
                let bottom = g(x0, y0 + 1) + (g(x0 + 1, y0 + 1) - g(x0, y0 + 1)) * sx
                return top + (bottom - top) * sy
            }
            let low = lattice(8, seed: 0xC0A5_E001), high = lattice(16, seed: 0xC0A5_E002)
            for y in 0..<side {
                for x in 0..<side {
                    let n = 0.65 * sample(low, 8, x, y) + 0.35 * sample(high, 16, x, y)
                    let t = min(1, max(0, (n - 0.42) / 0.4))
                    values[y * side + x] = t * t * (3 - 2 * t)
                }
            }
        }
    }

    /// A `side`² ARGB32 surface, white with `fill`'s values (0…1) as alpha.
    static func make(side: Int = RainNoiseTiles.side, _ fill: (inout [Double]) -> Void) -> CairoSurface? {
        var values = [Double](repeating: 0, count: side * side)
        fill(&values)
        guard
            let surface = try? CairoSurface(
                owning: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(side), Int32(side)),
                call: "noise tile")
        else { return nil }
        cairo_surface_flush(surface.pointer)
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return nil }
        for y in 0..<side {
            let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: side) { $0 }
            for x in 0..<side {
                let a = UInt32((values[y * side + x] * 255).rounded())
                row[x] = a << 24 | a << 16 | a << 8 | a
            }
        }
        cairo_surface_mark_dirty(surface.pointer)
        return surface
    }
}

/// The rain surface's deterministic randomness (tile contents and per-render offsets) is the
/// project's one seeded generator, NoiseDSP's `SplitMix64`.
extension SplitMix64 {
    /// Uniform in [0, 1): the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
