import NoiseEngine
import SystemBusServices
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// What `noise play` tries after the render thread's own SCHED_FIFO request is refused (no
/// `rtprio` limit, no CAP_SYS_NICE: most desktops): real time from rtkit, which desktops run for
/// exactly this; else a nice level of our own; else one from rtkit. Each runs from the control
/// thread on the render thread's id, so the render thread itself never waits on the bus.
enum RenderPriority {
    /// PulseAudio's and PipeWire's level for their own threads when real time is refused.
    static let niceLevel: Int32 = -11

    /// Raises `player`'s render thread when SCHED_FIFO was refused, and records what applied
    /// (`LivePlayer.scheduling` says it from then on: the start line and the status).
    static func raise(_ player: LivePlayer) {
        guard let refusal = player.schedulingRefusal, player.renderThreadID > 0 else { return }
        let tid = player.renderThreadID
        var tried = ["SCHED_FIFO refused: \(refusal)"]
        let kit: RealtimeKit?
        do {
            kit = try RealtimeKit()
        } catch {
            kit = nil
            tried.append("\(error)")
        }
        if let kit {
            do {
                let p = try kit.makeThreadRealtime(tid: tid, priority: player.options.realTimePriority)
                player.noteScheduling("real-time scheduling through rtkit (SCHED_RR \(p))", isRealTime: true)
                return
            } catch {
                tried.append("\(error)")
            }
        }
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), niceLevel) == 0 {
            player.noteScheduling(
                "raised priority (nice \(niceLevel); \(tried.joined(separator: "; ")))", isRealTime: false)
            return
        }
        tried.append("nice \(niceLevel): \(SystemCallError.reason(errno))")
        if let kit {
            do {
                let level = try kit.makeThreadHighPriority(tid: tid, nice: niceLevel)
                player.noteScheduling(
                    "raised priority through rtkit (nice \(level); \(tried.joined(separator: "; ")))", isRealTime: false
                )
                return
            } catch {
                tried.append("\(error)")
            }
        }
        player.noteScheduling("normal scheduling (\(tried.joined(separator: "; ")))", isRealTime: false)
    }
}
