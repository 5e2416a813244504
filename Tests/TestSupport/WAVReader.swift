import Foundation

/// A strict reader for the WAV files the renderer writes (RIFF or RF64; PCM 16/24-bit or float).
public struct WAVFile: Sendable {
    public var sampleRate: Int
    public var channelCount: Int
    public var bitsPerSample: Int
    public var isFloat: Bool
    public var isRF64: Bool
    /// De-interleaved samples in [-1, 1].
    public var channels: [[Float]]
    public var frameCount: Int { channels.first?.count ?? 0 }

    public struct Invalid: Error, CustomStringConvertible { public var description: String }

    public init(_ data: Data) throws {
        let b = [UInt8](data)
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 }
        func u64(_ o: Int) -> Int { u32(o) | u32(o + 4) << 32 }
        func tag(_ o: Int) -> String { String(decoding: b[o..<(o + 4)], as: UTF8.self) }
        guard b.count >= 12, tag(8) == "WAVE", tag(0) == "RIFF" || tag(0) == "RF64" else {
            throw Invalid(description: "not a WAV file")
        }
        isRF64 = tag(0) == "RF64"
        if !isRF64 && u32(4) != b.count - 8 {
            throw Invalid(description: "RIFF size \(u32(4)) does not match file size \(b.count)")
        }
        var offset = 12
        var fmt: (rate: Int, channels: Int, bits: Int, float: Bool)?
        var ds64Data: Int?
        var dataRange: Range<Int>?
        while offset + 8 <= b.count {
            let id = tag(offset)
            var size = u32(offset + 4)
            if id == "ds64" { ds64Data = u64(offset + 16) }
            if id == "data", isRF64, size == 0xFFFF_FFFF, let d = ds64Data { size = d }
            let body = offset + 8
            if id == "fmt " {
                fmt = (u32(body + 4), u16(body + 2), u16(body + 14), u16(body) == 3)
            } else if id == "data" {
                guard body + size <= b.count else {
                    throw Invalid(description: "data chunk of \(size) bytes runs past the end (\(b.count))")
                }
                dataRange = body..<(body + size)
            }
            offset = body + size + (size & 1)
        }
        guard let fmt, let dataRange else { throw Invalid(description: "missing fmt or data chunk") }
        sampleRate = fmt.rate
        channelCount = fmt.channels
        bitsPerSample = fmt.bits
        isFloat = fmt.float
        let bytesPerSample = fmt.bits / 8
        let frames = dataRange.count / (bytesPerSample * fmt.channels)
        var out = [[Float]](repeating: [], count: fmt.channels)
        for c in 0..<fmt.channels { out[c].reserveCapacity(frames) }
        var o = dataRange.lowerBound
        for _ in 0..<frames {
            for c in 0..<fmt.channels {
                let v: Float
                switch (fmt.bits, fmt.float) {
                case (16, false): v = Float(Int16(truncatingIfNeeded: u16(o))) / 32767
                case (24, false):
                    let raw = Int32(b[o]) | Int32(b[o + 1]) << 8 | Int32(b[o + 2]) << 16
                    v = Float((raw << 8) >> 8) / 8_388_607
                case (32, true): v = Float(bitPattern: UInt32(u32(o)))
                default: throw Invalid(description: "unsupported format \(fmt.bits) bits, float \(fmt.float)")
                }
                out[c].append(v)
                o += bytesPerSample
            }
        }
        channels = out
    }

    public init(path: String) throws { try self.init(try Data(contentsOf: URL(fileURLWithPath: path))) }
}
