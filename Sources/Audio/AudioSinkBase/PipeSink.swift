import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Writes raw interleaved 16-bit little-endian frames to a FIFO, paced in real time: what
/// Snapcast's `pipe` source reads (`snapserver`'s `source = pipe://PATH?sampleformat=48000:16:2`),
/// so one player can feed synchronised playback in every room.
///
/// The FIFO is opened read-write and non-blocking, so opening never waits for a reader and a
/// write never blocks the render thread: when the pipe is full (no reader yet, or a reader that
/// fell behind) the block is dropped whole and counted in `underrunCount`, and the stream stays
/// frame-aligned. A path that does not exist is made as a FIFO (mode 0600); anything else that is
/// not a FIFO is refused. Blocks go out on the audio clock: each write waits until its first frame
/// is due less the lead (`latencySeconds`), so the reader sees real-time flow, never a burst.
public final class PipeSink: AudioSink {
    public let format: AudioFormat
    public let name: String
    public let path: String
    /// Blocks dropped because the pipe was full.
    public private(set) var underrunCount = 0
    public private(set) var framesWritten: Int64 = 0
    let fd: Int32
    let leadFrames: Int
    let buffer: UnsafeMutablePointer<Int16>
    let bufferFrames: Int
    /// Bytes of the last block the pipe took only in part; sent before anything new.
    var pendingOffset = 0
    var pendingCount = 0
    /// The monotonic time of frame 0 (set at the first write).
    var start: timespec?
    var closed = false

    public var latencyFrames: Int { leadFrames }

    public init(path: String, format: AudioFormat, latencySeconds: Double, maximumBlockFrames: Int = 4096)
        throws(AudioOutputError)
    {
        self.format = format
        self.path = path
        name = "pipe (\(path))"
        leadFrames = max(0, Int(latencySeconds * Double(format.sampleRate)))
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            guard e == ENOENT else {
                throw AudioOutputError(
                    .invalid, backend: "pipe", call: "stat \(path)", reason: OutputFileCalls.errnoText(e))
            }
            guard mkfifo(path, 0o600) == 0 || errno == EEXIST else {
                throw AudioOutputError(
                    .invalid, backend: "pipe", call: "mkfifo \(path)", reason: OutputFileCalls.errnoText())
            }
        } else if st.st_mode & S_IFMT != S_IFIFO {
            throw AudioOutputError(
                .invalid, backend: "pipe", call: "open \(path)",
                reason: "not a FIFO (make one with 'mkfifo', or let snapserver create it)")
        }
        let opened = retryOnInterrupt { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        guard opened >= 0 else {
            throw AudioOutputError(.invalid, backend: "pipe", call: "open \(path)", reason: OutputFileCalls.errnoText())
        }
        fd = opened
        bufferFrames = maximumBlockFrames
        buffer = .allocate(capacity: maximumBlockFrames * format.channelCount)
    }

    deinit {
        try? close(drain: false)
        buffer.deallocate()
    }

    /// Real-time safety: no allocation or lock; sleeps until the block is due, then one
    /// non-blocking `write`.
    public func write(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        guard !closed else { throw AudioOutputError(.disconnected, backend: "pipe", call: "write", reason: "closed") }
        var done = 0
        while done < frameCount {
            let n = min(bufferFrames, frameCount - done)
            waitUntilDue()
            try send(samples + done * format.channelCount, frameCount: n)
            framesWritten += Int64(n)
            done += n
        }
    }

    /// Sleeps until frame `framesWritten - leadFrames` is due on the monotonic clock.
    func waitUntilDue() {
        guard let start else {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            start = now
            return
        }
        let dueFrames = framesWritten - Int64(leadFrames)
        guard dueFrames > 0 else { return }
        let nanoseconds = dueFrames * 1_000_000_000 / Int64(format.sampleRate)
        var due = start
        due.tv_sec += Int(nanoseconds / 1_000_000_000)
        due.tv_nsec += Int(nanoseconds % 1_000_000_000)
        if due.tv_nsec >= 1_000_000_000 {
            due.tv_sec += 1
            due.tv_nsec -= 1_000_000_000
        }
        // clock_nanosleep returns the error number instead of setting errno, so retryOnInterrupt
        // does not apply; an absolute deadline makes the plain retry exact.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
    }

    private func send(_ samples: UnsafePointer<Float>, frameCount: Int) throws(AudioOutputError) {
        let raw = UnsafeRawPointer(buffer)
        if pendingCount > 0 {
            // The rest of a block the pipe took in part: finish it first, or drop this block.
            let n = try writeSome(raw + pendingOffset, pendingCount)
            pendingOffset += n
            pendingCount -= n
            if pendingCount > 0 {
                underrunCount += 1
                return
            }
        }
        let count = frameCount * format.channelCount
        WAVFileSink.encodeS16(samples, into: buffer, count: count)
        let bytes = count * 2
        let n = try writeSome(raw, bytes)
        if n == 0 {
            underrunCount += 1
        } else if n < bytes {
            pendingOffset = n
            pendingCount = bytes - n
        }
    }

    /// Writes what the pipe takes now; 0 when it is full.
    private func writeSome(_ bytes: UnsafeRawPointer, _ count: Int) throws(AudioOutputError) -> Int {
        let n = retryOnInterrupt { Glibc.write(fd, bytes, count) }
        if n >= 0 { return n }
        let e = errno
        if e == EAGAIN || e == EWOULDBLOCK { return 0 }
        throw AudioOutputError(
            .disconnected, backend: "pipe", call: "write \(path)", reason: OutputFileCalls.errnoText(e))
    }

    public func close(drain: Bool) throws(AudioOutputError) {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(fd)
    }
}
