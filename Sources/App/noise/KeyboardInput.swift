import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keys read from a terminal in raw mode (no echo, no line buffering), so a keyboard-only flow
/// works in any terminal, over SSH and inside tmux. The terminal's settings are restored by
/// `restore()` (and on every exit path of `withRawTerminal`).
final class KeyboardInput {
    enum Key: Equatable {
        case up, down, left, right, enter, quit
        case character(Character)
    }

    let fd: Int32
    private var saved = termios()
    private var isRaw = false
    private var pending: [UInt8] = []

    init(fd: Int32 = 0) { self.fd = fd }

    /// Switches to raw mode when `fd` is a terminal; a pipe (tests, scripts) is read as it is.
    func makeRaw() {
        guard isatty(fd) == 1, tcgetattr(fd, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_iflag &= ~tcflag_t(ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        if tcsetattr(fd, TCSANOW, &raw) == 0 { isRaw = true }
    }

    func restore() {
        guard isRaw else { return }
        _ = tcsetattr(fd, TCSANOW, &saved)
        isRaw = false
    }

    /// The next key, waiting up to `timeoutSeconds`; nil when none came. End of input reads as `q`.
    func next(timeoutSeconds: Double) -> Key? {
        if pending.isEmpty {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(timeoutSeconds * 1000))
            guard r > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buffer, buffer.count)
            if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return .quit }
            if n < 0 { return nil }
            pending += buffer[0..<n]
        }
        return parse()
    }

    private func parse() -> Key? {
        guard let b = pending.first else { return nil }
        if b == 0x1B, pending.count >= 3, pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") {
            let c = pending[2]
            pending.removeFirst(3)
            switch c {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            case UInt8(ascii: "C"): return .right
            case UInt8(ascii: "D"): return .left
            default: return nil
            }
        }
        pending.removeFirst()
        switch b {
        case 0x0D, 0x0A: return .enter
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: return .quit
        case UInt8(ascii: "+"), UInt8(ascii: "="): return .up
        case UInt8(ascii: "-"), UInt8(ascii: "_"): return .down
        case 0x1B: return nil
        default: return .character(Character(UnicodeScalar(b)))
        }
    }
}
