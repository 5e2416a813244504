#if canImport(Glibc)
    import Glibc
#endif

/// Sample encodings a WAV file can hold.
public enum SampleEncoding: String, Sendable, CaseIterable {
    case s16, s24, f32

    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s24: 3
        case .f32: 4
        }
    }
}

/// Writes a WAV file: RIFF, switching to RF64 (EBU Tech 3306) past 4 GiB so an 8-hour stereo
/// render is still one valid file.
///
/// The header reserves a `JUNK` chunk the size of RF64's `ds64`, so a seekable file is written
/// front to back and fixed up on `close` (sizes patched, `RIFF`→`RF64` and `JUNK`→`ds64` when
/// needed). A pipe cannot be patched: give `expectedFrameCount` and the header carries the final
/// sizes from the start; if the stream ends early the sizes overstate it, which readers of
/// streamed WAV tolerate.
public final class WAVFileSink: DevicelessSink {
    public let format: AudioFormat
    public let encoding: SampleEncoding
    public let name: String
    public private(set) var framesWritten: Int64 = 0

    let fd: Int32
    let ownsDescriptor: Bool
    let seekable: Bool
    let headerSize: Int
    let buffer: UnsafeMutableRawPointer
    let bufferFrames = 4096
    var closed = false

    /// Bytes of a RIFF file's size fields can describe; past this, RF64.
    static let riffLimit: Int64 = 0xFFFF_FFFF

    /// - Parameters:
    ///   - descriptor: an open, writable file descriptor positioned at 0 (a file) or a pipe.
    ///   - expectedFrameCount: the frames that will be written, for non-seekable outputs.
    public init(
        descriptor: Int32, ownsDescriptor: Bool, format: AudioFormat, encoding: SampleEncoding,
        name: String, expectedFrameCount: Int64? = nil
    ) throws(AudioOutputError) {
        self.fd = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.format = format
        self.encoding = encoding
        self.name = "wav (\(name))"
        seekable = OutputFileCalls.isPatchable(descriptor)
        buffer = .allocate(byteCount: bufferFrames * format.channelCount * encoding.bytesPerSample, alignment: 16)
        let header = Self.header(
            format: format, encoding: encoding, frameCount: expectedFrameCount ?? 0,
            final: !seekable)
        headerSize = header.count
        let result: Result<Void, AudioOutputError> = header.withUnsafeBytes { raw in
            Result { () throws(AudioOutputError) in
                try OutputFileCalls.writeAll(descriptor, raw.baseAddress!, raw.count, backend: "wav")
            }
        }
        try result.get()
    }

    /// Creates the file at `path`. With `exclusive` (temporary files) an existing file or a link
    /// at `path` is an error rather than something to truncate or follow.
    public convenience init(path: String, format: AudioFormat, encoding: SampleEncoding, exclusive: Bool = false)
        throws(AudioOutputError)
    {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL | O_NOFOLLOW : O_TRUNC)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else {
            throw AudioOutputError(.invalid, backend: "wav", call: "open \(path)", reason: OutputFileCalls.errnoText())
        }
        try self.init(descriptor: fd, ownsDescriptor: true, format: format, encoding: encoding, name: path)
    }

    deinit {
        try? close(drain: false)
        buffer.deallocate()
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        let channels = format.channelCount
        var done = 0
        while done < frameCount {
            let n = min(bufferFrames, frameCount - done)
            let count = n * channels
            let src = samples + done * channels
            switch encoding {
            case .s16:
                Self.encodeS16(src, into: buffer.assumingMemoryBound(to: Int16.self), count: count)
            case .s24:
                let dst = buffer.assumingMemoryBound(to: UInt8.self)
                for i in 0..<count {
                    let x = Self.clamp(src[i]) * 8_388_607
                    let v = Int32(x + (x < 0 ? -0.5 : 0.5))
                    dst[3 * i] = UInt8(truncatingIfNeeded: v)
                    dst[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    dst[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
                }
            case .f32:
                let dst = buffer.assumingMemoryBound(to: UInt32.self)
                for i in 0..<count { dst[i] = src[i].bitPattern.littleEndian }
            }
            try OutputFileCalls.writeAll(fd, buffer, count * encoding.bytesPerSample, backend: "wav")
            framesWritten += Int64(n)
            done += n
        }
    }

    /// [-1, 1], and NaN (which `min`/`max` pass through) as silence, so no conversion can trap.
    @inline(__always)
    package static func clamp(_ x: Float) -> Float { x.isNaN ? 0 : min(max(x, -1), 1) }

    /// Float samples to 16-bit little-endian, clipped.
    package static func encodeS16(_ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Int16>, count: Int) {
        for i in 0..<count {
            // Round half away from zero by truncating x ± 0.5: same result as `.rounded()`,
            // without a libm call per sample.
            let x = clamp(src[i]) * 32767
            dst[i] = Int16(littleEndian: Int16(x + (x < 0 ? -0.5 : 0.5)))
        }
    }

    public func close(drain: Bool) throws(AudioOutputError) {
        guard !closed else { return }
        closed = true
        defer { if ownsDescriptor { _ = Glibc.close(fd) } }
        // RIFF chunks are word-aligned: an odd-sized data chunk (24-bit mono, odd frame count)
        // is followed by one pad byte.
        if (Int64(format.channelCount * encoding.bytesPerSample) * framesWritten) & 1 == 1 {
            var zero: UInt8 = 0
            try OutputFileCalls.writeAll(fd, &zero, 1, backend: "wav")
        }
        guard seekable else { return }
        let header = Self.header(format: format, encoding: encoding, frameCount: framesWritten, final: true)
        precondition(header.count == headerSize)
        let result: Result<Void, AudioOutputError> = header.withUnsafeBytes { raw in
            Result { () throws(AudioOutputError) in
                try OutputFileCalls.pwriteAll(fd, raw.baseAddress!, raw.count, at: 0, backend: "wav")
            }
        }
        try result.get()
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS {
            throw AudioOutputError(.io, backend: "wav", call: "fsync", reason: OutputFileCalls.errnoText())
        }
    }

    /// The header for `frameCount` frames. With `final: false` the sizes are placeholders.
    static func header(format: AudioFormat, encoding: SampleEncoding, frameCount: Int64, final: Bool) -> [UInt8] {
        var h: [UInt8] = []
        func tag(_ s: String) { h += Array(s.utf8) }
        func u16(_ v: UInt16) { h += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) { for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        func u64(_ v: UInt64) { for i in 0..<8 { h.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }

        let blockAlign = format.channelCount * encoding.bytesPerSample
        let isFloat = encoding == .f32
        let fmtSize = isFloat ? 18 : 16
        let factSize = isFloat ? 12 : 0
        let dataBytes = Int64(blockAlign) * frameCount
        // RIFF size counts everything after its own 8 bytes: WAVE + JUNK/ds64 (36) + fmt + fact + data header + data.
        let riffSize = 4 + 36 + (8 + Int64(fmtSize)) + Int64(factSize) + 8 + dataBytes + (dataBytes & 1)
        let rf64 = final && (riffSize > riffLimit || dataBytes > riffLimit)

        tag(rf64 ? "RF64" : "RIFF")
        u32(rf64 ? 0xFFFF_FFFF : UInt32(clamping: riffSize))
        tag("WAVE")
        if rf64 {
            tag("ds64")
            u32(28)
            u64(UInt64(riffSize))
            u64(UInt64(dataBytes))
            u64(UInt64(frameCount))
            u32(0)
        } else {
            tag("JUNK")
            u32(28)
            h += [UInt8](repeating: 0, count: 28)
        }
        tag("fmt ")
        u32(UInt32(fmtSize))
        u16(isFloat ? 3 : 1)
        u16(UInt16(format.channelCount))
        u32(UInt32(format.sampleRate))
        u32(UInt32(format.sampleRate * blockAlign))
        u16(UInt16(blockAlign))
        u16(UInt16(encoding.bytesPerSample * 8))
        if isFloat {
            u16(0)
            tag("fact")
            u32(4)
            u32(rf64 ? 0xFFFF_FFFF : UInt32(clamping: frameCount))
        }
        tag("data")
        u32(rf64 ? 0xFFFF_FFFF : UInt32(clamping: dataBytes))
        return h
    }
}
