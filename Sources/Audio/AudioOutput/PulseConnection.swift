import AudioSinkBase
import CPulse

/// A PulseAudio client connection driven by a `pa_mainloop` on the caller's own thread.
///
/// No second thread: whoever owns the connection runs the loop (`iterate`) when it has to wait
/// for the server. This is what `noise devices` needs (ask, wait for the answers) and what the
/// playback sink needs (wait for the server's request, write, go back to waiting) — with one
/// thread there is no mutex hand-over or condition variable between a main-loop thread and the
/// render thread on every request (see `PulseAudioSink`).
final class PulseConnection {
    let loop: OpaquePointer
    let context: OpaquePointer

    /// Connects to `server` (PULSE_SERVER syntax, e.g. `unix:/run/user/1000/pulse/native`; nil:
    /// `$PULSE_SERVER` or the user's default) and waits until the context is ready.
    init(clientName: String, server: String? = nil) throws(AudioOutputError) {
        guard let loop = pa_mainloop_new() else {
            throw AudioOutputError(.unavailable, backend: "pulse", call: "pa_mainloop_new", reason: "out of memory")
        }
        guard let context = pa_context_new(pa_mainloop_get_api(loop), clientName) else {
            pa_mainloop_free(loop)
            throw AudioOutputError(.unavailable, backend: "pulse", call: "pa_context_new", reason: "out of memory")
        }
        self.loop = loop
        self.context = context
        guard pa_context_connect(context, server, PA_CONTEXT_NOFLAGS, nil) >= 0 else {
            throw AudioOutputError(
                .unavailable, backend: "pulse", call: "connect",
                reason: PulseAudioSink.describe(pa_context_errno(context)))
        }
        try iterate(call: "connect", kind: .unavailable) { () throws(AudioOutputError) -> Bool in
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw AudioOutputError(
                    .unavailable, backend: "pulse", call: "connect",
                    reason: PulseAudioSink.describe(pa_context_errno(context)))
            }
            return state == PA_CONTEXT_READY
        }
    }

    deinit {
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_mainloop_free(loop)
    }

    /// The context's last error, in words.
    var lastError: String { PulseAudioSink.describe(pa_context_errno(context)) }

    /// Runs the loop, blocking for events, until `done` says so (checked before each wait, so a
    /// condition already true costs no system call). A lost connection throws `kind`.
    /// `timeoutMicroseconds` bounds each wait (-1: none), so `done` can also watch a clock.
    func iterate(
        call: String, kind: AudioOutputError.Kind = .disconnected,
        until done: () throws(AudioOutputError) -> Bool,
        timeoutMicroseconds: Int32 = -1
    ) throws(AudioOutputError) {
        while try !done() { try step(call: call, kind: kind, timeoutMicroseconds: timeoutMicroseconds) }
    }

    /// Sends what is queued (a stream write goes out from a deferred event) without waiting.
    func flush() {
        _ = pa_mainloop_iterate(loop, 0, nil)
    }

    /// Waits until `operation` has finished; throws if the connection fails first, if the
    /// operation was cancelled (its stream died: nothing was done), or after `timeoutSeconds`.
    func wait(for operation: OpaquePointer?, call: String, timeoutSeconds: Double? = nil) throws(AudioOutputError) {
        guard let operation else {
            throw AudioOutputError(.disconnected, backend: "pulse", call: call, reason: lastError)
        }
        defer { pa_operation_unref(operation) }
        let deadline = timeoutSeconds.map { ContinuousClock.now + .seconds($0) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            var timeoutMicroseconds: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    pa_operation_cancel(operation)
                    throw AudioOutputError(
                        .disconnected, backend: "pulse", call: call, reason: "no answer within \(timeoutSeconds!) s")
                }
                timeoutMicroseconds = Int32(
                    min(
                        Double(Int32.max),
                        Double(left.components.seconds) * 1e6 + Double(left.components.attoseconds) / 1e12))
            }
            try step(call: call, timeoutMicroseconds: timeoutMicroseconds)
        }
        if pa_operation_get_state(operation) == PA_OPERATION_CANCELLED {
            throw AudioOutputError(
                .disconnected, backend: "pulse", call: call, reason: "cancelled (the stream went away)")
        }
    }

    /// One turn of the loop: wait for events (at most `timeoutMicroseconds`, -1: no limit) and
    /// dispatch them; a lost connection throws `kind`.
    private func step(call: String, kind: AudioOutputError.Kind = .disconnected, timeoutMicroseconds: Int32 = -1)
        throws(AudioOutputError)
    {
        guard pa_mainloop_prepare(loop, timeoutMicroseconds) >= 0, pa_mainloop_poll(loop) >= 0,
            pa_mainloop_dispatch(loop) >= 0
        else {
            throw AudioOutputError(kind, backend: "pulse", call: call, reason: "main loop failed")
        }
        guard PA_CONTEXT_IS_GOOD(pa_context_get_state(context)) != 0 else {
            throw AudioOutputError(kind, backend: "pulse", call: call, reason: lastError)
        }
    }
}
