import CNoiseSupport
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A dedicated OS thread for rendering (not a Dispatch or Swift-concurrency thread, whose pools
/// may block or hop), named, with real-time scheduling when the system grants it.
final class RenderThread {
    /// What the thread got from the system, reported once by the player.
    struct SchedulingReport: Sendable, CustomStringConvertible {
        var realTimePriority: Int32?
        var refusal: Int32?
        /// The render thread's kernel id (what rtkit and setpriority name a thread by).
        var threadID: Int32 = 0
        var description: String {
            if let p = realTimePriority { return "real-time scheduling (SCHED_FIFO \(p))" }
            let why = refusal.map { SystemCallError.reason($0) } ?? "not requested"
            return "normal scheduling (real-time refused: \(why))"
        }

        /// What a user can do about normal scheduling, or nil when real time was granted: without
        /// it another busy program can hold the render thread off the CPU past the buffer.
        var advice: String? {
            guard realTimePriority == nil, refusal != nil else { return nil }
            let limit = cns_rtprio_limit()
            return
                """
                the render thread has no real-time priority (RLIMIT_RTPRIO is \(limit < 0 ? "unlimited" : "\(limit)"), \
                SCHED_FIFO refused), so a busy CPU can make the sound drop out; allow it with an 'rtprio' line \
                in /etc/security/limits.d/ (e.g. '@audio - rtprio 20' and join the audio group), or raise \
                '--latency'
                """
        }
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private var thread = pthread_t()
    private var started = false

    /// Starts `body` on a new thread named `name` that asks for SCHED_FIFO at `priority`
    /// (falling back quietly) and enables flush-to-zero before running `body`.
    init(name: String, priority: Int32, report: @escaping (SchedulingReport) -> Void, body: @escaping () -> Void) throws
    {
        let box = Box {
            cns_set_thread_name(name)
            // At most the priority RLIMIT_RTPRIO allows: a user granted 'rtprio 5' gets 5, not a refusal.
            let limit = cns_rtprio_limit()
            let asked = limit > 0 ? min(priority, Int32(clamping: limit)) : priority
            let rc = asked > 0 ? cns_request_realtime(asked) : EPERM
            var r = rc == 0 ? SchedulingReport(realTimePriority: asked) : SchedulingReport(refusal: rc)
            r.threadID = cns_gettid()
            report(r)
            cns_enable_flush_to_zero()
            body()
        }
        let context = Unmanaged.passRetained(box).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw EngineError.threadStart(rc)
        }
        started = true
    }

    func join() {
        guard started else { return }
        started = false
        pthread_join(thread, nil)
    }
}

public enum EngineError: Error, CustomStringConvertible {
    case threadStart(Int32)
    public var description: String {
        switch self {
        case .threadStart(let rc): "cannot start the render thread: \(SystemCallError.reason(rc))"
        }
    }
}
