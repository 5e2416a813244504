#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

enum PasswordDatabase {
    /// This user's home from getpwuid_r, for a process started without $HOME (a systemd unit).
    static func homeDirectory() -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil,
            let dir = entry.pw_dir
        else { return nil }
        return String(cString: dir)
    }
}
