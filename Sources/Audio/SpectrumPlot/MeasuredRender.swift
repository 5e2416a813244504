import NoiseDSP

/// Renders a mix into memory for `--measured`, exactly as `noise render` would (same machine,
/// pre-roll and block size), de-interleaved.
public enum MeasuredRender {
    public static let maximumSeconds = 300.0

    public static func render(
        layers: [LayerSettings], masterVolume: Float, seconds: Double, seed: UInt64,
        sampleRate: Double = 48000
    ) -> [[Float]] {
        let block = 4096
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: sampleRate, maximumFrameCount: block, channelCount: 2),
            seed: seed, layers: layers, masterVolume: masterVolume)
        machine.preroll()
        let total = Int(min(seconds, maximumSeconds) * sampleRate)
        var out: [[Float]] = [[], []]
        out[0].reserveCapacity(total)
        out[1].reserveCapacity(total)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * 2)
        defer { buffer.deallocate() }
        var done = 0
        while done < total {
            let n = min(block, total - done)
            machine.render(into: buffer, frameCount: n)
            for i in 0..<n {
                out[0].append(buffer[2 * i])
                out[1].append(buffer[2 * i + 1])
            }
            done += n
        }
        return out
    }
}
