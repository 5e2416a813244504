import AudioSinkBase
import CALSA
import CALSASupport

#if canImport(Glibc)
    import Glibc
#endif

/// Plays through an ALSA PCM (`default`, `hw:0,0`, `plughw:1`, a `.asoundrc` device, ...).
///
/// Asks for 32-bit float and falls back to S32 and S16 for hardware that takes only integers,
/// converting in `write` from a buffer allocated at open. Underruns (`-EPIPE`) and suspends
/// (`-ESTRPIPE`) are recovered with `snd_pcm_recover` and counted; a device that disappears
/// (`-ENODEV`, `-EBADFD`, `-EIO`) is reported as `.disconnected`.
public final class ALSASink: AudioSink {
    public let format: AudioFormat
    public let name: String
    public private(set) var underrunCount = 0
    public private(set) var sampleFormat = "f32"
    var pcm: OpaquePointer?
    let conversion: UnsafeMutableRawPointer
    let conversionFrames = 4096
    var bytesPerSample = 4

    public init(format: AudioFormat, device: String = "default", latencySeconds: Double = 0.15) throws(AudioOutputError)
    {
        self.format = format
        name = "alsa (\(device))"
        conversion = .allocate(byteCount: conversionFrames * format.channelCount * 4, alignment: 16)
        ALSASink.silenceLibraryMessages
        var handle: OpaquePointer?
        var rc = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        // (No clean-up on the throwing paths below: every stored property is set by then, so
        // `deinit` runs and releases the buffer.)
        guard rc >= 0, let handle else {
            throw AudioOutputError(
                rc == -ENOENT ? .unavailable : .unavailable, backend: "alsa", call: "open \(device)",
                reason: Self.describe(rc))
        }
        let latencyMicroseconds = UInt32(latencySeconds * 1_000_000)
        for (fmt, label, bytes) in [
            (SND_PCM_FORMAT_FLOAT_LE, "f32", 4), (SND_PCM_FORMAT_S32_LE, "s32", 4), (SND_PCM_FORMAT_S16_LE, "s16", 2),
        ] {
            rc = snd_pcm_set_params(
                handle, fmt, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(format.channelCount),
                UInt32(format.sampleRate), 1, latencyMicroseconds)
            if rc >= 0 {
                sampleFormat = label
                bytesPerSample = bytes
                break
            }
        }
        guard rc >= 0 else {
            snd_pcm_close(handle)
            throw AudioOutputError(
                .invalid, backend: "alsa", call: "set parameters on \(device) (\(format))", reason: Self.describe(rc))
        }
        pcm = handle
    }

    deinit {
        try? close(drain: false)
        conversion.deallocate()
    }

    /// alsa-lib prints its own errors to stderr ("ALSA lib pcm.c:2666: Unknown PCM default");
    /// our errors already carry `snd_strerror`, so its messages are silenced once per process.
    static let silenceLibraryMessages: Void = cns_alsa_silence_errors()

    static func describe(_ rc: Int32) -> String { "\(String(cString: snd_strerror(rc))) (\(rc))" }

    public var latencyFrames: Int {
        guard let pcm else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) >= 0 ? Int(delay) : 0
    }

    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        guard let pcm else {
            throw AudioOutputError(.disconnected, backend: "alsa", call: "write", reason: "device is closed")
        }
        var done = 0
        while done < frameCount {
            let n = min(conversionFrames, frameCount - done)
            let source = samples + done * format.channelCount
            let bytes = convert(source, count: n * format.channelCount)
            var offset = 0
            while offset < n {
                let written = snd_pcm_writei(
                    pcm, bytes + offset * format.channelCount * bytesPerSample, snd_pcm_uframes_t(n - offset))
                if written >= 0 {
                    offset += Int(written)
                    continue
                }
                let rc = Int32(written)
                if rc == -EAGAIN || rc == -EINTR { continue }
                if rc == -EPIPE || rc == -ESTRPIPE {
                    underrunCount += 1
                    if snd_pcm_recover(pcm, rc, 1) >= 0 { continue }
                }
                throw AudioOutputError(
                    .disconnected, backend: "alsa", call: "snd_pcm_writei", reason: Self.describe(rc))
            }
            done += n
        }
    }

    /// Float → device format, in place in the conversion buffer (no allocation).
    private func convert(_ src: UnsafePointer<Float>, count: Int) -> UnsafeRawPointer {
        switch sampleFormat {
        case "s32":
            let dst = conversion.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { dst[i] = Int32((Double(WAVFileSink.clamp(src[i])) * 2_147_483_647).rounded()) }
        case "s16":
            let dst = conversion.assumingMemoryBound(to: Int16.self)
            for i in 0..<count { dst[i] = Int16((WAVFileSink.clamp(src[i]) * 32767).rounded()) }
        default:
            return UnsafeRawPointer(src)
        }
        return UnsafeRawPointer(conversion)
    }

    public func close(drain: Bool) throws(AudioOutputError) {
        guard let pcm else { return }
        self.pcm = nil
        if drain { _ = snd_pcm_drain(pcm) } else { _ = snd_pcm_drop(pcm) }
        snd_pcm_close(pcm)
    }
}
