import AudioSinkBase
import CPulse

#if canImport(Glibc)
    import Glibc
#endif

/// Plays through a PulseAudio server (and PipeWire's PulseAudio service).
///
/// The stream asks for `latencySeconds` of buffering (`tlength`), 150 ms by default: a noise
/// machine gains nothing from low latency, and a tiny `tlength` would force the server (and every
/// other program on it) into low-latency mode. Samples go out as 32-bit float; the server converts.
///
/// The connection runs on the writing thread's own `pa_mainloop` (`PulseConnection`): `write` waits
/// in the loop's `poll` until the server asks for a block, writes it whole and returns. The simple
/// API (`pa_simple`) used before keeps a second, threaded main loop: every server request then costs a
/// wake-up of that thread, a condition-variable signal and priority-inheriting mutex hand-overs with
/// the render thread (1.8x `pacat`'s system calls on a steady stream; docs/quiet-player.md).
public final class PulseAudioSink: AudioSink {
    public let format: AudioFormat
    public let name: String
    public private(set) var underrunCount = 0
    /// The server asked us to cork (`request-cork`, sent by policies such as module-role-cork when
    /// a call starts) and has not yet asked us to uncork. Set from the stream's event callback,
    /// which runs inside our own main loop on the writing thread.
    private var corkRequested = false
    /// Whether our stream is corked now (we cork it while the request lasts, so it does not underrun).
    private var isCorked = false
    /// Cork requests seen so far.
    public private(set) var corkRequestCount = 0
    private var connection: PulseConnection?
    private var stream: OpaquePointer?
    /// The server's queue for the stream as granted (`tlength`), in frames: two requests plus the
    /// sound card's share.
    public private(set) var queueFrames = 0
    /// What the server asks for at a time (`minreq` as granted), in frames: the smallest write
    /// worth waking for.
    public private(set) var requestFrames = 0
    /// What the queue holds beyond two requests: the sound card's share, in frames.
    public var cardFrames: Int { queueFrames - 2 * requestFrames }

    /// - Parameters:
    ///   - device: a sink name (`noise devices`), nil for the server's default.
    ///   - server: a server address in PULSE_SERVER syntax; nil for `$PULSE_SERVER` or the default.
    public init(
        format: AudioFormat, device: String? = nil, latencySeconds: Double = 0.15,
        applicationName: String = "noise", streamName: String = "Noise machine", server: String? = nil
    ) throws(AudioOutputError) {
        self.format = format
        name = "pulse (\(device ?? "default sink"))"
        var spec = pa_sample_spec(
            format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        // With ADJUST_LATENCY the server splits `tlength` (the latency asked) between the sound
        // card and the stream's queue: the card gets (tlength - 2 minreq) / 2, the queue 2 minreq.
        // minreq is whole blocks (a block is a third of the latency, at most 4,096 frames), about a
        // third of the latency: each request is written back to back and the thread sleeps in
        // between, and the card keeps about a sixth (25 ms at 150 ms). A minreq of half the buffer
        // (as before) left the card nothing: the server ran it, and every client on it, at its
        // minimum latency (0.5 ms on a null sink). 150 ms: blocks of 2,400 frames, a request every
        // 50 ms; 1 s: requests of three 4,096-frame blocks, every 256 ms.
        let frameBytes = format.channelCount * 4
        let latencyFrames = Int(latencySeconds * Double(format.sampleRate))
        let blockFrames = PlaybackBlock.frames(latencySeconds: latencySeconds, sampleRate: format.sampleRate)
        let askedRequestFrames = blockFrames * max(1, latencyFrames / 3 / blockFrames)
        let askedFrames = max(latencyFrames, 3 * askedRequestFrames)
        var attr = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(askedFrames * frameBytes),
            prebuf: UInt32.max, minreq: UInt32(askedRequestFrames * frameBytes), fragsize: UInt32.max)
        let connection = try PulseConnection(clientName: applicationName, server: server)
        guard let stream = pa_stream_new(connection.context, streamName, &spec, nil) else {
            throw AudioOutputError(.invalid, backend: "pulse", call: "pa_stream_new", reason: connection.lastError)
        }
        self.connection = connection
        self.stream = stream
        pa_stream_set_underflow_callback(
            stream,
            { _, user in
                Unmanaged<PulseAudioSink>.fromOpaque(user!).takeUnretainedValue().underrunCount += 1
            }, Unmanaged.passUnretained(self).toOpaque())
        // Compared with strcmp on the event's name: a Swift String would allocate on the render thread.
        pa_stream_set_event_callback(
            stream,
            { _, name, _, user in
                guard let name else { return }
                let sink = Unmanaged<PulseAudioSink>.fromOpaque(user!).takeUnretainedValue()
                if strcmp(name, "request-cork") == 0 {  // PA_STREAM_EVENT_REQUEST_CORK
                    sink.corkRequested = true
                    sink.corkRequestCount += 1
                } else if strcmp(name, "request-uncork") == 0 {  // PA_STREAM_EVENT_REQUEST_UNCORK
                    sink.corkRequested = false
                }
            }, Unmanaged.passUnretained(self).toOpaque())
        // ADJUST_LATENCY (as pa_simple and pacat): the server sizes its own buffer from ours. Not
        // AUTO_TIMING_UPDATE: its periodic timing queries allocate an operation on this (real-time)
        // thread every few seconds (perf uprobes on calloc: 6 in 10 s) and wake it for the answers;
        // `latencyFrames` asks when someone wants to know.
        let flags = PA_STREAM_ADJUST_LATENCY
        guard pa_stream_connect_playback(stream, device, &attr, flags, nil, nil) >= 0 else {
            throw AudioOutputError(.invalid, backend: "pulse", call: "connect stream", reason: connection.lastError)
        }
        do {
            try connection.iterate(call: "connect stream", kind: .unavailable) { () throws(AudioOutputError) -> Bool in
                let state = pa_stream_get_state(stream)
                if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                    throw AudioOutputError(
                        .unavailable, backend: "pulse", call: "connect stream", reason: connection.lastError)
                }
                return state == PA_STREAM_READY
            }
        } catch {
            if let device, pa_context_errno(connection.context) == Int32(PA_ERR_NOENTITY.rawValue) {
                throw AudioOutputError(
                    .invalid, backend: "pulse", call: "open sink '\(device)'",
                    reason: "the server has no sink of that name (see 'noise devices')")
            }
            throw error
        }
        let granted = pa_stream_get_buffer_attr(stream)?.pointee
        requestFrames = max(1, Int(granted?.minreq ?? UInt32(askedRequestFrames * frameBytes)) / frameBytes)
        queueFrames = Int(granted?.tlength ?? UInt32(askedFrames * frameBytes)) / frameBytes
    }

    deinit { try? close(drain: false) }

    /// What the stream tells the server about itself: `media.role` lets role-based policies work
    /// (ducking or corking music during a call, per-role volumes), the icon names it in mixers.
    public static let streamProperties = [
        "media.role": "music", "application.icon_name": "audio-x-generic",
        "media.icon_name": "audio-x-generic",
    ]

    /// Set through the environment rather than on the stream: libpulse reads `PULSE_PROP`
    /// ("key=value ...") into the client's properties and the server gives a stream its client's
    /// properties under its own, so putting ours in front of whatever `PULSE_PROP` the user already
    /// has lets theirs override ours (the later value of a key wins); stream properties would win
    /// over the user's. Call it once, early, before other threads run (`setenv` is not thread-safe).
    public static func exportStreamProperties() {
        let ours = streamProperties.keys.sorted().map { "\($0)=\"\(streamProperties[$0]!)\"" }.joined(separator: " ")
        if let existing = getenv("PULSE_PROP").map({ String(cString: $0) }) {
            guard !existing.contains(ours) else { return }
            setenv("PULSE_PROP", ours + " " + existing, 1)
        } else {
            setenv("PULSE_PROP", ours, 1)
        }
    }

    static func describe(_ error: Int32) -> String {
        let text = pa_strerror(error).map { String(cString: $0) } ?? "error \(error)"
        return "\(text) (PulseAudio error \(error))"
    }

    /// Asks the server (a round trip on the main loop): call it from the thread that writes, between
    /// writes, never from a real-time loop that cannot wait.
    public var latencyFrames: Int {
        guard let connection, let stream else { return 0 }
        guard (try? connection.wait(for: pa_stream_update_timing_info(stream, nil, nil), call: "latency")) != nil else {
            return 0
        }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(stream, &usec, &negative) >= 0, negative == 0 else { return 0 }
        return Int(usec * UInt64(format.sampleRate) / 1_000_000)
    }

    /// Waits (in the main loop's `poll`) until the server has asked for a request's worth (or the
    /// rest of the block, if less), writes as much of the block as it asked for, and repeats until
    /// the block is written; then sends it on its way. Requests are whole blocks, so a steady
    /// stream is one wake-up per request and one write per block.
    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        guard let connection, let stream else {
            throw AudioOutputError(.disconnected, backend: "pulse", call: "write", reason: "stream is closed")
        }
        let bytes = UnsafeRawPointer(samples)
        let total = frameCount * format.channelCount * 4
        let frameBytes = format.channelCount * 4
        var offset = 0
        while offset < total {
            var writable = 0
            try connection.iterate(call: "write") { () throws(AudioOutputError) -> Bool in
                guard pa_stream_get_state(stream) == PA_STREAM_READY else {
                    throw AudioOutputError(.disconnected, backend: "pulse", call: "write", reason: connection.lastError)
                }
                writable = pa_stream_writable_size(stream)
                guard writable != -1 else {
                    throw AudioOutputError(.disconnected, backend: "pulse", call: "write", reason: connection.lastError)
                }
                return writable >= min(total - offset, requestFrames * frameBytes)
            }
            let n = min(writable, total - offset) / frameBytes * frameBytes
            guard pa_stream_write(stream, bytes + offset, n, nil, 0, PA_SEEK_RELATIVE) >= 0 else {
                throw AudioOutputError(.disconnected, backend: "pulse", call: "write", reason: connection.lastError)
            }
            offset += n
        }
        connection.flush()
    }

    /// While the server's cork request lasts the stream is corked and nothing is written; this
    /// waits in the main loop for the uncork (at most `maximumSeconds`, so the player can still
    /// take commands), and uncorks the stream once it comes. Corking and uncorking each allocate a
    /// libpulse operation: twice per call that corks us, never on a steady stream.
    public func isHeld(waitingUpTo maximumSeconds: Double) throws(AudioOutputError) -> Bool {
        // No poll of our own here: a request is dispatched while `write` waits for the server,
        // so a steady stream makes no extra system call per block.
        guard let connection, let stream else { return false }
        if corkRequested && !isCorked {
            try connection.wait(for: pa_stream_cork(stream, 1, nil, nil), call: "cork", timeoutSeconds: 5)
            isCorked = true
        }
        if corkRequested {
            let deadline = ContinuousClock.now + .seconds(maximumSeconds)
            try connection.iterate(
                call: "wait for uncork",
                until: { () throws(AudioOutputError) -> Bool in
                    !corkRequested || ContinuousClock.now >= deadline
                }, timeoutMicroseconds: Int32(maximumSeconds * 1e6))
        }
        if !corkRequested && isCorked {
            try connection.wait(for: pa_stream_cork(stream, 0, nil, nil), call: "uncork", timeoutSeconds: 5)
            isCorked = false
        }
        return corkRequested
    }

    public func close(drain: Bool) throws(AudioOutputError) {
        guard let connection, let stream else { return }
        defer {
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            self.stream = nil
            self.connection = nil
        }
        if drain, pa_stream_get_state(stream) == PA_STREAM_READY {
            // What is queued plays out in at most the queue's length; a card that stopped taking
            // audio (suspended) would otherwise hold this for libpulse's 30 s reply timeout.
            let queueSeconds = Double(queueFrames) / Double(format.sampleRate)
            try connection.wait(for: pa_stream_drain(stream, nil, nil), call: "drain", timeoutSeconds: queueSeconds + 1)
        }
    }
}
