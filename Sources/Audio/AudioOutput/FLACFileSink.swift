import AudioSinkBase
import CFLAC

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a FLAC file (lossless, integer samples) with the reference encoder, libFLAC.
///
/// Samples are quantised exactly as `WAVFileSink` does for the same bit depth (clamp to [-1, 1],
/// scale, round half away from zero), so a FLAC render decodes to the very samples of the WAV
/// render of the same seed. A regular file gets its STREAMINFO (length, MD5) and a seek table
/// (a point every 10 s) filled in at `close`; a pipe gets a stream that says its length up front
/// when it is known.
public final class FLACFileSink: DevicelessSink {
    public let format: AudioFormat
    public let encoding: SampleEncoding
    public let name: String
    public private(set) var framesWritten: Int64 = 0

    /// What the encoder's callbacks need, passed to them as client data.
    final class Output {
        let fd: Int32
        let seekable: Bool
        var failure: AudioOutputError?
        init(fd: Int32, seekable: Bool) {
            self.fd = fd
            self.seekable = seekable
        }
    }

    let output: Output
    let ownsDescriptor: Bool
    let encoder: UnsafeMutablePointer<FLAC__StreamEncoder>
    var seekTable: UnsafeMutablePointer<FLAC__StreamMetadata>?
    let buffer: UnsafeMutablePointer<Int32>
    let bufferFrames = 4096
    let scale: Float
    var closed = false

    public static let compressionLevel: UInt32 = 5

    /// - Parameters:
    ///   - encoding: `.s16` or `.s24` (FLAC holds integers).
    ///   - expectedFrameCount: the frames that will be written, when known (for the seek table and
    ///     for streams, which cannot be patched afterwards).
    public init(
        descriptor: Int32, ownsDescriptor: Bool, format: AudioFormat, encoding: SampleEncoding,
        name: String, expectedFrameCount: Int64? = nil
    ) throws(AudioOutputError) {
        guard encoding != .f32 else {
            throw AudioOutputError(
                .invalid, backend: "flac", call: "open", reason: "FLAC holds integer samples: use s16 or s24, not f32")
        }
        self.format = format
        self.encoding = encoding
        self.name = "flac (\(name))"
        self.ownsDescriptor = ownsDescriptor
        scale = encoding == .s16 ? 32767 : 8_388_607
        output = Output(
            fd: descriptor,
            seekable: OutputFileCalls.isPatchable(descriptor))
        guard let encoder = FLAC__stream_encoder_new() else {
            throw AudioOutputError(.io, backend: "flac", call: "FLAC__stream_encoder_new", reason: "out of memory")
        }
        self.encoder = encoder
        buffer = .allocate(capacity: bufferFrames * format.channelCount)
        _ = FLAC__stream_encoder_set_channels(encoder, UInt32(format.channelCount))
        _ = FLAC__stream_encoder_set_bits_per_sample(encoder, UInt32(encoding.bytesPerSample * 8))
        _ = FLAC__stream_encoder_set_sample_rate(encoder, UInt32(format.sampleRate))
        _ = FLAC__stream_encoder_set_compression_level(encoder, Self.compressionLevel)
        if let expectedFrameCount, expectedFrameCount > 0 {
            _ = FLAC__stream_encoder_set_total_samples_estimate(encoder, UInt64(expectedFrameCount))
            if output.seekable, let table = FLAC__metadata_object_new(FLAC__METADATA_TYPE_SEEKTABLE) {
                seekTable = table
                _ = FLAC__metadata_object_seektable_template_append_spaced_points_by_samples(
                    table, UInt32(10 * format.sampleRate), UInt64(expectedFrameCount))
                _ = FLAC__metadata_object_seektable_template_sort(table, 1)
                var blocks: [UnsafeMutablePointer<FLAC__StreamMetadata>?] = [table]
                _ = FLAC__stream_encoder_set_metadata(encoder, &blocks, 1)
            }
        }
        let client = Unmanaged.passUnretained(output).toOpaque()
        let status = FLAC__stream_encoder_init_stream(
            encoder, Self.write, output.seekable ? Self.seek : nil,
            output.seekable ? Self.tell : nil, nil, client)
        guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
            let reason = output.failure?.reason ?? "encoder refused the settings (init status \(status.rawValue))"
            release()
            throw output.failure ?? AudioOutputError(.invalid, backend: "flac", call: "init", reason: reason)
        }
    }

    /// Creates the file at `path` (with `exclusive`, an existing file or link there is an error).
    public convenience init(
        path: String, format: AudioFormat, encoding: SampleEncoding, exclusive: Bool = false,
        expectedFrameCount: Int64? = nil
    ) throws(AudioOutputError) {
        let flags = O_RDWR | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL | O_NOFOLLOW : O_TRUNC)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else {
            throw AudioOutputError(.invalid, backend: "flac", call: "open \(path)", reason: OutputFileCalls.errnoText())
        }
        try self.init(
            descriptor: fd, ownsDescriptor: true, format: format, encoding: encoding, name: path,
            expectedFrameCount: expectedFrameCount)
    }

    deinit {
        try? close(drain: false)
    }

    private func release() {
        FLAC__stream_encoder_delete(encoder)
        if let seekTable { FLAC__metadata_object_delete(seekTable) }
        seekTable = nil
        buffer.deallocate()
        if ownsDescriptor { _ = Glibc.close(output.fd) }
        closed = true
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        guard !closed else { throw AudioOutputError(.io, backend: "flac", call: "write", reason: "file is closed") }
        let channels = format.channelCount
        var done = 0
        while done < frameCount {
            let n = min(bufferFrames, frameCount - done)
            let src = samples + done * channels
            for i in 0..<(n * channels) {
                let x = WAVFileSink.clamp(src[i]) * scale
                buffer[i] = Int32(x + (x < 0 ? -0.5 : 0.5))
            }
            guard FLAC__stream_encoder_process_interleaved(encoder, buffer, UInt32(n)) != 0 else {
                throw output.failure ?? AudioOutputError(.io, backend: "flac", call: "encode", reason: stateText)
            }
            framesWritten += Int64(n)
            done += n
        }
    }

    var stateText: String {
        FLAC__stream_encoder_get_resolved_state_string(encoder).map { String(cString: $0) } ?? "unknown state"
    }

    /// Finishes the stream (last frame, STREAMINFO with length and MD5, seek table) and fsyncs a
    /// regular file.
    public func close(drain: Bool) throws(AudioOutputError) {
        guard !closed else { return }
        let finished = FLAC__stream_encoder_finish(encoder) != 0
        let failure =
            output.failure
            ?? (finished ? nil : AudioOutputError(.io, backend: "flac", call: "finish", reason: stateText))
        var syncFailure: AudioOutputError?
        if failure == nil, output.seekable, fsync(output.fd) != 0, errno != EINVAL, errno != EROFS {
            syncFailure = AudioOutputError(.io, backend: "flac", call: "fsync", reason: OutputFileCalls.errnoText())
        }
        release()
        if let failure { throw failure }
        if let syncFailure { throw syncFailure }
    }

    // MARK: - Encoder callbacks (client data: `Output`)

    static let write: FLAC__StreamEncoderWriteCallback = { _, bytes, count, _, _, client in
        let out = Unmanaged<Output>.fromOpaque(client!).takeUnretainedValue()
        do {
            try OutputFileCalls.writeAll(out.fd, bytes!, count, backend: "flac")
            return FLAC__STREAM_ENCODER_WRITE_STATUS_OK
        } catch let error as AudioOutputError {
            out.failure = error
            return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR
        } catch {
            return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR
        }
    }

    static let seek: FLAC__StreamEncoderSeekCallback = { _, offset, client in
        let out = Unmanaged<Output>.fromOpaque(client!).takeUnretainedValue()
        return lseek(out.fd, off_t(offset), SEEK_SET) < 0
            ? FLAC__STREAM_ENCODER_SEEK_STATUS_ERROR : FLAC__STREAM_ENCODER_SEEK_STATUS_OK
    }

    static let tell: FLAC__StreamEncoderTellCallback = { _, offset, client in
        let out = Unmanaged<Output>.fromOpaque(client!).takeUnretainedValue()
        let position = lseek(out.fd, 0, SEEK_CUR)
        guard position >= 0 else { return FLAC__STREAM_ENCODER_TELL_STATUS_ERROR }
        offset!.pointee = UInt64(position)
        return FLAC__STREAM_ENCODER_TELL_STATUS_OK
    }
}
