import NoiseDSP

/// Renders a `NoiseMachine` into memory, de-interleaved, for measurements.
public enum TestRender {
    public static func render(
        layers: [LayerSettings], master: Float = 1, seconds: Double, sampleRate: Double = 48000,
        channels: Int = 2, seed: UInt64 = 1, preroll: Bool = true,
        changes: [(atSecond: Double, apply: (NoiseMachine) -> Void)] = []
    ) -> [[Float]] {
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: sampleRate, maximumFrameCount: 4096, channelCount: channels),
            seed: seed, layers: layers, masterVolume: master)
        if preroll { machine.preroll() }
        let total = Int(seconds * sampleRate)
        var out = [[Float]](repeating: [], count: channels)
        for c in 0..<channels { out[c].reserveCapacity(total) }
        var buffer = [Float](repeating: 0, count: 4096 * channels)
        var done = 0
        var pending = changes.sorted { $0.atSecond < $1.atSecond }
        while done < total {
            var n = min(4096, total - done)
            if let next = pending.first {
                let at = Int(next.atSecond * sampleRate)
                if at <= done {
                    next.apply(machine)
                    pending.removeFirst()
                    continue
                }
                n = min(n, at - done)
            }
            buffer.withUnsafeMutableBufferPointer { machine.render(into: $0.baseAddress!, frameCount: n) }
            for i in 0..<n { for c in 0..<channels { out[c].append(buffer[i * channels + c]) } }
            done += n
        }
        return out
    }

    /// Renders like `render`, handing the audio over in consecutive chunks of `chunkSeconds` (the
    /// last may be shorter), so a render of an hour or more never holds more than one chunk.
    public static func renderInChunks(
        layers: [LayerSettings], master: Float = 1, seconds: Double, sampleRate: Double = 48000,
        channels: Int = 2, seed: UInt64 = 1, chunkSeconds: Double = 60, _ body: ([[Float]]) -> Void
    ) {
        let machine = NoiseMachine(
            spec: ProcessSpec(sampleRate: sampleRate, maximumFrameCount: 4096, channelCount: channels),
            seed: seed, layers: layers, masterVolume: master)
        machine.preroll()
        let total = Int(seconds * sampleRate), chunk = Int(chunkSeconds * sampleRate)
        var buffer = [Float](repeating: 0, count: 4096 * channels)
        var done = 0
        while done < total {
            let length = min(chunk, total - done)
            var out = [[Float]](repeating: [], count: channels)
            for c in 0..<channels { out[c].reserveCapacity(length) }
            var filled = 0
            while filled < length {
                let n = min(4096, length - filled)
                buffer.withUnsafeMutableBufferPointer { machine.render(into: $0.baseAddress!, frameCount: n) }
                for i in 0..<n { for c in 0..<channels { out[c].append(buffer[i * channels + c]) } }
                filled += n
            }
            body(out)
            done += length
        }
    }

    public static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot()
    }

    public static func db(_ x: Double) -> Double { 20 * log10(x) }
}

#if canImport(Glibc)
    import Glibc
#endif
