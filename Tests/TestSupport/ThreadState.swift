import Foundation

/// Which system call a thread of this process is blocked in, read from /proc: a test that must act
/// while another thread waits (a stop, a signal or a change arriving during `poll`) waits for that
/// state instead of sleeping and hoping the thread got there.
public enum ThreadState {
    /// The calling thread's kernel id (/proc/thread-self links to "PID/task/TID").
    public static func currentID() -> Int32? {
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        return link.flatMap { Int32($0.split(separator: "/").last ?? "") }
    }

    /// poll(2) and ppoll(2): glibc's `poll` is one of them.
    #if arch(x86_64)
        static let pollCalls: Set<Int> = [7, 271]
    #elseif arch(arm64)
        static let pollCalls: Set<Int> = [73]
    #else
        static let pollCalls: Set<Int> = []
    #endif

    /// Whether thread `id` of this process is blocked in poll/ppoll now (its /proc syscall line
    /// starts with the call's number; "running" while it runs).
    public static func isInPoll(_ id: Int32) -> Bool {
        guard let line = try? String(contentsOfFile: "/proc/self/task/\(id)/syscall", encoding: .utf8),
            let number = Int(line.split(separator: " ").first ?? "")
        else { return false }
        return pollCalls.contains(number)
    }

    /// Waits (up to `seconds`) until the thread whose id `id` returns has started and is blocked in
    /// poll/ppoll; false when it never was.
    public static func waitUntilInPoll(_ seconds: Double = 5, _ id: () -> Int32?) -> Bool {
        eventually(seconds) { id().map(isInPoll) ?? false }
    }
}
